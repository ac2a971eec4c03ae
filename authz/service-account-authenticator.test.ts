import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../api/registry/object.js';
import { cachedServiceAccountLookup } from './service-account-authenticator.js';

const account = (uid: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'ns1', tenant: 't1', uid } });
const ref = (uid: string) => ({ tenant: 't1', namespace: 'ns1', name: 'builder', uid });

describe('cachedServiceAccountLookup', () => {
  it('answers from the cache when it holds the account with the token’s uid, without reading storage', async () => {
    const storage = vi.fn(async () => account('u-1'));
    const lookup = cachedServiceAccountLookup(() => account('u-1'), storage);
    expect((await lookup(ref('u-1')))?.metadata.uid).toBe('u-1');
    expect(storage).not.toHaveBeenCalled();
  });

  it('reads storage when the cache has no such account or another uid (recreated a moment ago)', async () => {
    const storage = vi.fn(async () => account('u-2'));
    expect((await cachedServiceAccountLookup(() => undefined, storage)(ref('u-2')))?.metadata.uid).toBe('u-2');
    expect((await cachedServiceAccountLookup(() => account('u-1'), storage)(ref('u-2')))?.metadata.uid).toBe('u-2');
    expect(storage).toHaveBeenCalledTimes(2);
  });
});
