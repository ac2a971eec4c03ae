import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { endpointSlices, type EndpointSlice } from './endpointslice.js';

const slice = (over: Partial<EndpointSlice> = {}): EndpointSlice => ({
  metadata: { name: 'web-abc12', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.0.0.5'], conditions: { ready: true } }],
  ports: [{ name: 'http', port: 8080 }],
  ...over,
});

describe('EndpointSlice', () => {
  it('defaults port protocols to TCP and names to empty', async () => {
    const { object, errors } = await create(endpointSlices, slice({ ports: [{ port: 53, protocol: 'UDP' }, { name: 'http', port: 80 }] }));
    expect(errors).toEqual([]);
    expect(object.ports).toEqual([
      { port: 53, protocol: 'UDP', name: '' },
      { name: 'http', port: 80, protocol: 'TCP' },
    ]);
  });

  it.each<[string, Partial<EndpointSlice>, string[]]>([
    ['no address type', { addressType: undefined }, ['addressType: Required value']],
    ['an unknown address type', { addressType: 'IPv5' }, ['addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"']],
    ['an endpoint without addresses', { endpoints: [{ addresses: [] }] }, ['endpoints[0].addresses: Required value: must contain at least 1 address']],
    ['an IPv6 address in an IPv4 slice', { endpoints: [{ addresses: ['fd00::1'] }] }, ['endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address']],
    ['a loopback address', { endpoints: [{ addresses: ['127.0.0.1'] }] }, ['endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    [
      'a one-label FQDN',
      { addressType: 'FQDN', endpoints: [{ addresses: ['web'] }] },
      ['endpoints[0].addresses[0]: Invalid value: "web": should be a domain with at least two segments separated by dots'],
    ],
    [
      'duplicate port names',
      { ports: [{ name: 'http', port: 80 }, { name: 'http', port: 8080 }] },
      ['ports[1].name: Duplicate value: "http"'],
    ],
  ])('refuses %s', async (_what, over, want) => {
    expect(messages((await create(endpointSlices, slice(over))).errors)).toEqual(want);
  });

  it('keeps its address type for life', async () => {
    const { object } = await create(endpointSlices, slice());
    expect(messages(update(endpointSlices, { ...object, addressType: 'IPv6', endpoints: [{ addresses: ['fd00::5'] }] }, object))).toEqual([
      'addressType: Invalid value: "IPv6": field is immutable',
    ]);
  });

  it('prints ADDRESSTYPE PORTS ENDPOINTS, three at most', async () => {
    const { object } = await create(endpointSlices, slice({ endpoints: ['10.0.0.5', '10.0.0.6', '10.0.0.7', '10.0.0.8'].map((a) => ({ addresses: [a] })) }));
    expect(headers(endpointSlices)).toEqual(['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    expect(cells(endpointSlices, object)).toEqual(['web-abc12', 'IPv4', '8080', '10.0.0.5,10.0.0.6,10.0.0.7 + 1 more...', '10m']);
  });
});
