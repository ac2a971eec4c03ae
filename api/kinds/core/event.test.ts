import { describe, expect, it } from 'vitest';
import { CREATED, NOW, cells, create, headers, messages } from '../apps/testing.js';
import { events } from './event.js';
import type { Event } from './types.js';

const minutesBefore = (m: number): string => new Date(NOW - m * 60_000).toISOString().replace('.000Z', 'Z');

const pulled: Event = {
  metadata: { name: 'web-1.17a8b7c5e1d2f3a4', namespace: 'default', creationTimestamp: CREATED },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled',
  message: 'Successfully pulled image "nginx:1.25"\n',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: minutesBefore(5),
  lastTimestamp: minutesBefore(2),
  count: 3,
  type: 'Normal',
};

describe('core/v1 events', () => {
  it('accepts an old-style event in its object’s namespace', async () => {
    expect((await create(events, pulled)).errors).toEqual([]);
  });

  it('refuses an event in another namespace than its object', async () => {
    const input = { ...pulled, involvedObject: { ...pulled.involvedObject, namespace: 'other' } };
    expect(messages((await create(events, input)).errors)).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  });

  it('requires reporter, action and reason of a new-style event', async () => {
    const input: Event = { metadata: { name: 'e1' }, eventTime: '2024-05-01T10:00:00.000000Z', involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' } };
    expect(messages((await create(events, input)).errors)).toEqual([
      'reportingComponent: Required value',
      `reportingComponent: Invalid value: "": name part must be non-empty`,
      `reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });

  it('renders kubectl’s columns', () => {
    expect(headers(events)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(headers(events, true)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME']);
    expect(cells(events, pulled)).toEqual(['2m', 'Normal', 'Pulled', 'pod/web-1', 'spec.containers{web}', 'kubelet, node-1', 'Successfully pulled image "nginx:1.25"', '5m', 3, 'web-1.17a8b7c5e1d2f3a4']);
  });

  it('falls back to the event time, the series and the reporting controller', () => {
    const series: Event = {
      metadata: { name: 'e2' },
      eventTime: `${minutesBefore(8).slice(0, -1)}.000000Z`,
      series: { count: 7, lastObservedTime: `${minutesBefore(1).slice(0, -1)}.000000Z` },
      reportingComponent: 'kubernetes.io/kubelet',
      involvedObject: { kind: 'Node', name: 'node-1' },
    };
    const row = cells(events, series);
    expect([row[0], row[3], row[5], row[7], row[8]]).toEqual(['60s', 'node/node-1', 'kubernetes.io/kubelet', '8m', 7]);
  });

  it('selects by the fields Kubernetes offers', () => {
    const fields = Object.fromEntries(Object.entries(events.selectableFields).map(([k, f]) => [k, f(pulled)]));
    expect(fields).toMatchObject({ 'involvedObject.kind': 'Pod', 'involvedObject.name': 'web-1', reason: 'Pulled', source: 'kubelet', type: 'Normal' });
  });
});
