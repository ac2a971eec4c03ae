import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ClusterIpAllocator, parseIpv4Range } from './cluster-ip.js';

describe('ClusterIpAllocator', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-ip-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parses IPv4 ranges and refuses others', () => {
    expect(parseIpv4Range('10.96.0.0/12')).toEqual({ cidr: '10.96.0.0/12', base: 0x0a600000, size: 2 ** 20 });
    expect(parseIpv4Range('10.96.1.7/24').base).toBe(0x0a600100);
    for (const bad of ['10.96.0.0', '10.96.0.0/31', 'fd00::/64', '300.1.1.1/24', 'x/24']) expect(() => parseIpv4Range(bad)).toThrow();
  });

  it('hands out every address of a small range once, under concurrency, and then says it is full', async () => {
    // A /29 has 8 addresses: network, the kubernetes service's, five to allocate, broadcast.
    const allocator = new ClusterIpAllocator(store, parseIpv4Range('10.0.0.0/29'));
    const ips = await Promise.all(Array.from({ length: 5 }, (_, i) => allocator.allocate('t1', `ns/svc-${i}`)));
    expect(new Set(ips).size).toBe(5);
    expect([...ips].sort()).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
    expect(await allocator.allocate('t1', 'ns/one-too-many')).toBeUndefined();
    // Another space has the whole range to itself.
    expect(await allocator.allocate('t2', 'ns/svc')).toMatch(/^10\.0\.0\.[2-6]$/);
  });

  it('reserves a requested address once and releases it', async () => {
    const allocator = new ClusterIpAllocator(store, parseIpv4Range('10.1.0.0/24'));
    expect(allocator.contains('10.1.0.10')).toBe(true);
    expect(allocator.contains('10.1.0.0')).toBe(false);
    expect(allocator.contains('10.1.0.255')).toBe(false);
    expect(allocator.contains('10.2.0.10')).toBe(false);
    expect(await allocator.reserve('t1', '10.1.0.10', 'ns/a')).toBe(true);
    expect(await allocator.reserve('t1', '10.1.0.10', 'ns/b')).toBe(false);
    await allocator.release('t1', '10.1.0.10');
    expect(await allocator.reserve('t1', '10.1.0.10', 'ns/b')).toBe(true);
  });
});
