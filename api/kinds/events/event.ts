/**
 * events.k8s.io/v1 Event: the structured event API (who reported what about which object, with
 * series for repeats). As in kube-apiserver it is a view of the core/v1 Events' storage: one stored
 * object, read, written and watched through either API, with the fields renamed
 * (`pkg/apis/events/v1/conversion.go`: note ↔ message, regarding ↔ involvedObject,
 * reportingController ↔ reportingComponent, deprecatedSource/FirstTimestamp/LastTimestamp/Count ↔
 * source/firstTimestamp/lastTimestamp/count). Writes pass the core checks and the strict ones of
 * this API, on the core fields, so errors name core fields as kube-apiserver's do.
 */
import type { KubeObject } from '../../registry/object.js';
import { defineKind, type PrinterColumn } from '../../registry/resource-definition.js';
import { microTimeField, timeField } from '../../schema/meta.js';
import { define, described, integer, object, ref, string } from '../../schema/schema.js';
import { eventColumns as coreEventColumns, validateEvent as validateCoreEvent, validateStrictEventCreate, validateStrictEventUpdate } from '../core/event.js';
import type { Event as CoreEvent, ObjectReference } from '../core/types.js';

export interface Event extends KubeObject {
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: { component?: string; host?: string };
  deprecatedFirstTimestamp?: string;
  deprecatedLastTimestamp?: string;
  deprecatedCount?: number;
}

/** This API's field for each core/v1 one; the rest keep their names. */
const RENAMED: ReadonlyArray<[keyof Event & string, keyof CoreEvent & string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function rename(obj: KubeObject, pairs: ReadonlyArray<[string, string]>): KubeObject {
  const out: Record<string, unknown> = { ...obj };
  for (const [from, to] of pairs) {
    delete out[from];
    if ((obj as Record<string, unknown>)[from] !== undefined) out[to] = (obj as Record<string, unknown>)[from];
  }
  return out as KubeObject;
}

/** The core/v1 form of an events.k8s.io/v1 Event (apiVersion and kind left as they were). */
export function toCoreEvent(event: Event): CoreEvent {
  return rename(event, RENAMED) as CoreEvent;
}

/** The events.k8s.io/v1 form of a core/v1 Event (apiVersion and kind left as they were). */
export function fromCoreEvent(event: CoreEvent): Event {
  return rename(event, RENAMED.map(([v1, core]) => [core, v1])) as Event;
}

const series = define(
  'io.k8s.api.events.v1.EventSeries',
  object(
    'A run of repeated occurrences of the same event.',
    {
      count: integer('Occurrences so far.'),
      lastObservedTime: microTimeField('When the last occurrence was seen (microsecond precision).'),
    },
    { required: ['count', 'lastObservedTime'] },
  ),
);

export const eventSchema = define(
  'io.k8s.api.events.v1.Event',
  object(
    'A report of something that happened to an object, kept for about an hour.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      eventTime: microTimeField('When the event first happened (microsecond precision).'),
      series: described(series, 'Repeated occurrences of the event, when it recurs.'),
      reportingController: string('The controller that emitted the event, e.g. kubernetes.io/kubelet.'),
      reportingInstance: string('The instance of that controller, e.g. kubelet-node-1.'),
      action: string('What was done, or failed, about the regarding object.'),
      reason: string('Why the action was taken; short, machine-readable.'),
      regarding: described(ref('io.k8s.api.core.v1.ObjectReference'), 'The object this event is about.'),
      related: described(ref('io.k8s.api.core.v1.ObjectReference'), 'A second object involved, if any.'),
      note: string('Human-readable description; at most 1 kB.'),
      type: string('Normal or Warning.'),
      deprecatedSource: described(ref('io.k8s.api.core.v1.EventSource'), 'The core/v1 source; not set by this API.'),
      deprecatedFirstTimestamp: timeField('The core/v1 firstTimestamp; not set by this API.'),
      deprecatedLastTimestamp: timeField('The core/v1 lastTimestamp; not set by this API.'),
      deprecatedCount: integer('The core/v1 count; not set by this API.'),
    },
    { required: ['eventTime'], 'x-kubernetes-group-version-kind': [{ group: 'events.k8s.io', version: 'v1', kind: 'Event' }] },
  ),
);

/** kubectl's event columns, of the core form: `kubectl get events.events.k8s.io` prints what `kubectl get events` does. */
const eventColumns: PrinterColumn<Event>[] = coreEventColumns.map((c) => ({ ...c, cell: (obj: Event, now: number) => c.cell(toCoreEvent(obj), now) }));

export const events = defineKind<Event>({
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  scope: 'namespace',
  shortNames: ['ev'],
  schema: eventSchema,
  storedAs: { group: '', version: 'v1', kind: 'Event', resource: 'events', toStorage: toCoreEvent, fromStorage: (obj) => fromCoreEvent(obj as CoreEvent) },
  // Names are DNS subdomains here (path segments in core/v1), as ValidateEventCreate asks.
  validate: (obj) => validateCoreEvent(toCoreEvent(obj)),
  validateCreate: (obj) => validateStrictEventCreate(toCoreEvent(obj)),
  validateUpdate: (obj, old) => validateStrictEventUpdate(toCoreEvent(obj), toCoreEvent(old)),
  allowCreateOnUpdate: true,
  // Events neither own nor are collected (Kubernetes' garbage collector ignores them).
  garbageCollectionPolicy: 'Unsupported',
  columns: eventColumns,
  selectableFields: {
    'regarding.kind': (obj) => obj.regarding?.kind ?? '',
    'regarding.namespace': (obj) => obj.regarding?.namespace ?? '',
    'regarding.name': (obj) => obj.regarding?.name ?? '',
    'regarding.uid': (obj) => obj.regarding?.uid ?? '',
    'regarding.apiVersion': (obj) => obj.regarding?.apiVersion ?? '',
    'regarding.resourceVersion': (obj) => obj.regarding?.resourceVersion ?? '',
    'regarding.fieldPath': (obj) => obj.regarding?.fieldPath ?? '',
    reason: (obj) => obj.reason ?? '',
    reportingController: (obj) => obj.reportingController ?? '',
    type: (obj) => obj.type ?? '',
  },
});
