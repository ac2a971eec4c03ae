import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { advertiseAddress } from './advertise-address.js';

const iface = (address: string, internal = false): NetworkInterfaceInfo =>
  ({ address, internal, family: address.includes(':') ? 'IPv6' : 'IPv4', netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;

const host = {
  lo: [iface('127.0.0.1', true), iface('::1', true)],
  eth0: [iface('fe80::1'), iface('fd00::2'), iface('169.254.3.4'), iface('192.0.2.2')],
};

describe('advertiseAddress', () => {
  it('advertises a specific bind address as it is', () => {
    expect(advertiseAddress('10.1.2.3', host)).toBe('10.1.2.3');
  });

  it.each(['127.0.0.1', '0.0.0.0', '::', '::1'])('advertises the host’s IPv4 address when bound to %s', (bind) => {
    expect(advertiseAddress(bind, host)).toBe('192.0.2.2');
  });

  it('falls back to a routable IPv6 address, and to none on a loopback-only host', () => {
    expect(advertiseAddress('127.0.0.1', { lo: host.lo, eth0: [iface('fe80::1'), iface('fd00::2')] })).toBe('fd00::2');
    expect(advertiseAddress('127.0.0.1', { lo: host.lo })).toBeUndefined();
  });
});
