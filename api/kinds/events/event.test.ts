import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { events, fromCoreEvent, toCoreEvent, type Event } from './event.js';

const event = (over: Partial<Event> = {}): Event => ({
  metadata: { name: 'web-7d4.17c3b2f0a1', namespace: 'default' },
  eventTime: '2024-05-01T10:05:00.000000Z',
  reportingController: 'kubernetes.io/kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulling',
  regarding: { kind: 'Pod', namespace: 'default', name: 'web-7d4', fieldPath: 'spec.containers{nginx}' },
  note: 'Pulling image "nginx:1.25"',
  type: 'Normal',
  ...over,
});

describe('events.k8s.io Event', () => {
  it('accepts a complete event', async () => {
    expect((await create(events, event())).errors).toEqual([]);
  });

  it.each<[string, Partial<Event>, string[]]>([
    ['no event time', { eventTime: undefined }, ['eventTime: Required value']],
    ['an unknown type', { type: 'Error' }, ['type: Invalid value: "": has invalid value: Error']],
    ['no reporting controller', { reportingController: '' }, ['reportingComponent: Required value', 'reportingComponent: Invalid value: "": name part must be non-empty', 'reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')']],
    ['no action', { action: '' }, ['action: Required value']],
    ['a long reason', { reason: 'r'.repeat(129) }, ['reason: Invalid value: "": can have at most 128 characters']],
    ['a short series', { series: { count: 1, lastObservedTime: '2024-05-01T10:06:00.000000Z' } }, ['series.count: Invalid value: "": should be at least 2']],
    ['the core/v1 count', { deprecatedCount: 3 }, ['count: Invalid value: "": needs to be unset']],
    ['the core/v1 source', { deprecatedSource: { component: 'kubelet' } }, ['source: Invalid value: "": needs to be unset']],
    [
      'a cluster-scoped object outside default and kube-system',
      { metadata: { name: 'n', namespace: 'team-a' }, regarding: { kind: 'Node', name: 'node-1' } },
      ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    ],
  ])('refuses %s', async (_what, over, want) => {
    expect(messages((await create(events, event(over))).errors)).toEqual(want);
  });

  it('lets only the series change', async () => {
    const { object } = await create(events, event());
    const repeated = { ...object, series: { count: 2, lastObservedTime: '2024-05-01T10:07:00.000000Z' } };
    expect(update(events, repeated, object)).toEqual([]);
    expect(messages(update(events, { ...object, note: 'other' }, object))).toEqual(['message: Invalid value: "other": field is immutable']);
  });

  it('is a view of core/v1 events: every field maps both ways', () => {
    const full = event({
      related: { kind: 'Node', name: 'node-1' },
      series: { count: 2, lastObservedTime: '2024-05-01T10:06:00.000000Z' },
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-05-01T10:00:00Z',
      deprecatedLastTimestamp: '2024-05-01T10:06:00Z',
      deprecatedCount: 2,
    });
    const core = toCoreEvent(full);
    expect(core).toEqual({
      metadata: full.metadata,
      eventTime: full.eventTime,
      reportingComponent: 'kubernetes.io/kubelet',
      reportingInstance: 'node-1',
      action: 'Pulling',
      reason: 'Pulling',
      involvedObject: full.regarding,
      related: full.related,
      message: full.note,
      type: 'Normal',
      series: full.series,
      source: full.deprecatedSource,
      firstTimestamp: full.deprecatedFirstTimestamp,
      lastTimestamp: full.deprecatedLastTimestamp,
      count: 2,
    });
    expect(fromCoreEvent(core)).toEqual(full);
    expect(events.storage).toMatchObject({ group: '', resource: 'events', apiVersion: 'v1', kind: 'Event' });
    expect(events.toStorage(full)).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: full.note });
    expect(events.fromStorage({ ...core, apiVersion: 'v1', kind: 'Event' })).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: full.note });
  });

  it('lets an update through this API keep the core fields a core writer set', async () => {
    const { object } = await create(events, event());
    const stored = { ...object, deprecatedCount: 1, deprecatedSource: { component: 'legacy' } };
    expect(update(events, { ...stored, series: { count: 2, lastObservedTime: '2024-05-01T10:07:00.000000Z' } }, stored)).toEqual([]);
  });

  it('prints like kubectl get events, with series counts', async () => {
    const { object } = await create(events, event({ series: { count: 4, lastObservedTime: '2024-05-01T10:08:00.000000Z' } }));
    expect(headers(events)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(headers(events, true)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME']);
    expect(cells(events, object)).toEqual([
      '2m',
      'Normal',
      'Pulling',
      'pod/web-7d4',
      'spec.containers{nginx}',
      'kubernetes.io/kubelet, node-1',
      'Pulling image "nginx:1.25"',
      '5m',
      4,
      'web-7d4.17c3b2f0a1',
    ]);
  });

  it('selects by the regarding object, reason, type and reporting controller', async () => {
    const { object } = await create(events, event());
    const fields = events.selectableFields;
    expect([fields['regarding.name']!(object), fields['regarding.kind']!(object), fields.reason!(object), fields.type!(object), fields.reportingController!(object)]).toEqual([
      'web-7d4',
      'Pod',
      'Pulling',
      'Normal',
      'kubernetes.io/kubelet',
    ]);
    expect(events).toMatchObject({ group: 'events.k8s.io', resource: 'events', shortNames: ['ev'], allowCreateOnUpdate: true });
  });
});
