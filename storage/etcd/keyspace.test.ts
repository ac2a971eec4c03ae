import { describe, expect, it } from 'vitest';
import { Keyspace } from './keyspace.js';

describe('Keyspace', () => {
  it.each([
    { root: '', key: '/registry/core/pods/t1/ns1/p', etcd: '/registry/core/pods/t1/ns1/p' },
    { root: '/run-42', key: '/registry/core/pods/t1/ns1/p', etcd: '/run-42/registry/core/pods/t1/ns1/p' },
    { root: '/run-42', key: 'ünïcödé', etcd: '/run-42ünïcödé' },
  ])('puts root $root in front of $key and takes it off again', ({ root, key, etcd }) => {
    const ks = new Keyspace(root);
    expect(ks.key(key).toString()).toBe(etcd);
    expect(ks.strip(ks.key(key))).toBe(key);
  });

  it.each([
    { root: '', prefix: '/registry/core/pods/t1/', end: Buffer.from('/registry/core/pods/t10') },
    { root: '/r', prefix: '/a/', end: Buffer.from('/r/a0') },
    { root: '', prefix: 'a\u00ff', end: Buffer.from([0x61, 0xc3, 0xc0]) },
    { root: '', prefix: '', end: Buffer.from([0]) },
  ])('ends the range of prefix $prefix (root $root) right after its last key', ({ root, prefix, end }) => {
    expect(new Keyspace(root).prefixEnd(prefix)).toEqual(end);
  });

  it('resumes a range strictly after a key', () => {
    const ks = new Keyspace('/r');
    expect(ks.keyAfter('/a')).toEqual(Buffer.from('/r/a\0'));
  });
});
