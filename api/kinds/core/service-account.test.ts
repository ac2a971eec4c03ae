import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers } from '../apps/testing.js';
import { serviceAccounts } from './service-account.js';

describe('service accounts', () => {
  it('keeps only the names of referenced secrets and counts them', async () => {
    const { object, errors } = await create(serviceAccounts, {
      metadata: { name: 'builder', creationTimestamp: CREATED },
      secrets: [{ name: 'builder-token', namespace: 'elsewhere', uid: 'u1' }],
    });
    expect(errors).toEqual([]);
    expect(object.secrets).toEqual([{ name: 'builder-token' }]);
    expect(headers(serviceAccounts)).toEqual(['NAME', 'SECRETS', 'AGE']);
    expect(cells(serviceAccounts, object)).toEqual(['builder', 1, '10m']);
  });
});
