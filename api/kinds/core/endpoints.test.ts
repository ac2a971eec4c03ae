import { describe, expect, it } from 'vitest';
import { create, messages } from '../apps/testing.js';
import { endpoints, formatEndpoints } from './endpoints.js';
import type { Endpoints } from './types.js';

describe('endpoints', () => {
  it('defaults port protocols', async () => {
    const { object, errors } = await create(endpoints, { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] });
    expect(errors).toEqual([]);
    expect(object.subsets?.[0]?.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  it.each<[string, Endpoints, string[]]>([
    ['a subset without addresses', { metadata: { name: 'web' }, subsets: [{ ports: [{ port: 80 }] }] }, ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']],
    ['a loopback address', { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] }, [
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ]],
    ['unnamed ports', { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }, { port: 443 }] }] }, [
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[1].name: Required value',
    ]],
  ])('%s', async (_, input, expected) => {
    expect(messages((await create(endpoints, input)).errors)).toEqual(expected);
  });

  it.each<[string, Endpoints, string]>([
    ['none', { metadata: {} }, '<none>'],
    ['ip:port pairs', { metadata: {}, subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: [{ port: 80 }] }] }, '10.0.0.1:80,[fd00::1]:80'],
    ['bare IPs without ports', { metadata: {}, subsets: [{ addresses: [{ ip: '10.0.0.1' }] }] }, '10.0.0.1'],
    ['at most three', { metadata: {}, subsets: [{ addresses: ['1', '2', '3', '4', '5'].map((n) => ({ ip: `10.0.0.${n}` })), ports: [{ port: 80 }] }] }, '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 2 more...'],
    ['only not-ready addresses', { metadata: {}, subsets: [{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }, '<none>'],
  ])('formats %s', (_, ep, expected) => {
    expect(formatEndpoints(ep)).toBe(expected);
  });
});
