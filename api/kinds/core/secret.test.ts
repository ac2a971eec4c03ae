import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { secrets } from './secret.js';
import type { Secret } from './types.js';

const secret = (fields: Partial<Secret>): Secret => ({ metadata: { name: 'creds' }, ...fields });
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('secrets', () => {
  it('defaults the type and folds stringData into data', async () => {
    const { object, errors } = await create(secrets, secret({ data: { user: b64('old'), other: b64('kept') }, stringData: { user: 'admin' } }));
    expect(errors).toEqual([]);
    expect(object.type).toBe('Opaque');
    expect(object.stringData).toBeUndefined();
    expect(object.data).toEqual({ user: b64('admin'), other: b64('kept') });
  });

  it.each<[string, Secret, string[]]>([
    ['TLS keys', secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } }), ['data[tls.key]: Required value']],
    ['basic auth with neither key', secret({ type: 'kubernetes.io/basic-auth' }), ['data[username]: Required value', 'data[password]: Required value']],
    ['basic auth with a username', secret({ type: 'kubernetes.io/basic-auth', stringData: { username: 'u' } }), []],
    ['a docker config that is not JSON', secret({ type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': 'nope' } }), [
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": must be a well-formed JSON object',
    ]],
    ['a token without its account', secret({ type: 'kubernetes.io/service-account-token' }), ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
    ['data that is not base64', secret({ data: { k: 'not base64!' } }), ['data[k]: Invalid value: "<secret contents redacted>": must be base64-encoded bytes']],
    ['a bad key', secret({ stringData: { '..k': 'v' } }), ['data[..k]: Invalid value: "..k": must not start with \'..\'']],
  ])('%s', async (_, input, expected) => {
    expect(messages((await create(secrets, input)).errors)).toEqual(expected);
  });

  it('keeps the type and, once immutable, the data', async () => {
    const { object: old } = await create(secrets, secret({ stringData: { a: '1' }, immutable: true }));
    expect(messages(update(secrets, { ...old, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }, old))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });

  it('shows the type and the number of keys', async () => {
    expect(headers(secrets)).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
    const { object } = await create(secrets, secret({ metadata: { name: 'creds', creationTimestamp: CREATED }, stringData: { a: '1', b: '2' } }));
    expect(cells(secrets, object)).toEqual(['creds', 'Opaque', 2, '10m']);
    expect(secrets.selectableFields.type!(object)).toBe('Opaque');
  });
});
