import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type Authenticator, authenticationChain, bearerTokenAuthenticator } from './authenticate.js';
import type { UserInfo } from '../api/access.js';

const alice: UserInfo = { name: 'alice', uid: 'u1', groups: ['dev'], tenant: 't1', extra: {} };
const tokens = { lookup: async (token: string) => (token === 'tok' ? structuredClone(alice) : null) };
const request = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization }, socket: new Socket() });

describe('bearerTokenAuthenticator', () => {
  const authenticate = bearerTokenAuthenticator(tokens);
  it.each([
    ['Bearer tok', 'alice'],
    ['bearer tok', 'alice'],
    ['BEARER   tok  ', 'alice'],
    ['Bearer wrong', null],
    ['Bearer', null],
    ['Bearer tok extra', null],
    ['Basic dG9rOg==', null],
    ['tok', null],
    [undefined, null],
  ])('%s → %s', async (header, name) => {
    expect((await authenticate(request(header)))?.name ?? null).toBe(name);
  });
});

describe('authenticationChain', () => {
  it('returns the first identity and adds system:authenticated once', async () => {
    const never: Authenticator = async () => null;
    const first: Authenticator = async () => ({ ...alice, groups: ['system:authenticated'] });
    const chain = authenticationChain([never, bearerTokenAuthenticator(tokens), first]);
    expect(await chain(request('Bearer tok'))).toEqual({ ...alice, groups: ['dev', 'system:authenticated'] });
    expect((await chain(request()))?.groups).toEqual(['system:authenticated']);
    expect(await authenticationChain([never])(request('Bearer tok'))).toBeNull();
  });
});
