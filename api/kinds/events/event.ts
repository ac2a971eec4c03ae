/**
 * events.k8s.io/v1 Event: the structured event API (who reported what about which object, with
 * series for repeats). Kubernetes serves it from core Events' storage with renamed fields; here it
 * is its own kind. Kubernetes' behaviour: `pkg/apis/core/validation` (`ValidateEventCreate`,
 * `ValidateEventUpdate` for events.k8s.io/v1) and the event printer of `printers.go`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, humanAge, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { microTimeField, timeField } from '../../schema/meta.js';
import { define, described, integer, object, ref, string } from '../../schema/schema.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { validateImmutable } from '../apps/workload.js';

interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

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

const EVENT_TYPES = ['Normal', 'Warning'];
const REPORTING_INSTANCE_MAX = 128;
const ACTION_MAX = 128;
const REASON_MAX = 128;
const NOTE_MAX = 1024;

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

function validateSeries(obj: Event): FieldError[] {
  if (!obj.series) return [];
  const errors: FieldError[] = [];
  if ((obj.series.count ?? 0) < 2) errors.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (!obj.series.lastObservedTime) errors.push(fieldErrors.required('series.lastObservedTime'));
  return errors;
}

/** The checks every event passes, whichever API wrote it. */
function validateReporting(obj: Event): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = obj.metadata.namespace ?? '';
  const regardingNamespace = obj.regarding?.namespace ?? '';
  if (!obj.eventTime) {
    // Old-style events: the event lives in the namespace of the object it is about.
    const matches = regardingNamespace === '' ? namespace === '' || namespace === 'default' : namespace === regardingNamespace;
    if (!matches) errors.push(fieldErrors.invalid('regarding.namespace', regardingNamespace, 'does not match event.namespace'));
    return errors;
  }
  // Events about cluster-scoped objects go to default or kube-system.
  if (regardingNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') {
    errors.push(fieldErrors.invalid('regarding.namespace', regardingNamespace, 'does not match event.namespace'));
  }
  const controller = obj.reportingController ?? '';
  if (controller === '') errors.push(fieldErrors.required('reportingController'));
  errors.push(...validateQualifiedName(controller, 'reportingController'));
  const limits: Array<[keyof Event & string, string | undefined, number]> = [
    ['reportingInstance', obj.reportingInstance, REPORTING_INSTANCE_MAX],
    ['action', obj.action, ACTION_MAX],
    ['reason', obj.reason, REASON_MAX],
  ];
  for (const [field, value, max] of limits) {
    if (!value) errors.push(fieldErrors.required(field));
    else if (value.length > max) errors.push(fieldErrors.invalid(field, '', `can have at most ${max} characters`));
  }
  if ((obj.note ?? '').length > NOTE_MAX) errors.push(fieldErrors.invalid('note', '', `can have at most ${NOTE_MAX} characters`));
  return errors;
}

export function validateEvent(obj: Event): FieldError[] {
  const errors = [...validateReporting(obj), ...validateSeries(obj)];
  if (!obj.eventTime) errors.push(fieldErrors.required('eventTime'));
  if (!EVENT_TYPES.includes(obj.type ?? '')) errors.push(fieldErrors.invalid('type', '', `has invalid value: ${obj.type ?? ''}`));
  // The core/v1 fields have their own names here and are never written through this API.
  if (obj.deprecatedFirstTimestamp) errors.push(fieldErrors.invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (obj.deprecatedLastTimestamp) errors.push(fieldErrors.invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (obj.deprecatedCount) errors.push(fieldErrors.invalid('deprecatedCount', '', 'needs to be unset'));
  if (obj.deprecatedSource?.component || obj.deprecatedSource?.host) errors.push(fieldErrors.invalid('deprecatedSource', '', 'needs to be unset'));
  return errors;
}

const FIXED_FIELDS = [
  'regarding',
  'reason',
  'note',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
  'action',
  'related',
  'type',
  'eventTime',
] as const;

/** Only the series may change: an event is otherwise a fixed record. */
export function validateEventUpdate(obj: Event, old: Event): FieldError[] {
  return FIXED_FIELDS.flatMap((field) => validateImmutable(obj[field], old[field], field));
}

/** The event printer's SOURCE: component (or reporting controller), then host (or instance). */
export function eventSource(obj: Event): string {
  const component = obj.deprecatedSource?.component || obj.reportingController || '';
  const instance = obj.deprecatedSource?.host || obj.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

function firstSeen(obj: Event, now: number): string {
  return humanAge(obj.deprecatedFirstTimestamp || obj.eventTime, now);
}

function lastSeen(obj: Event, now: number): string {
  if (obj.series) return humanAge(obj.series.lastObservedTime, now);
  return obj.deprecatedLastTimestamp ? humanAge(obj.deprecatedLastTimestamp, now) : firstSeen(obj, now);
}

/** `kind/name` of the regarding object, the kind in lower case. */
export function eventObject(obj: Event): string {
  const kind = (obj.regarding?.kind ?? '').toLowerCase();
  return obj.regarding?.name ? `${kind}/${obj.regarding.name}` : kind;
}

const eventColumns: PrinterColumn<Event>[] = [
  { name: 'Last Seen', type: 'string', description: 'When the event last happened.', priority: 0, cell: lastSeen },
  { name: 'Type', type: 'string', description: 'Normal or Warning.', priority: 0, cell: (obj) => obj.type ?? '' },
  { name: 'Reason', type: 'string', description: 'Why the action was taken.', priority: 0, cell: (obj) => obj.reason ?? '' },
  { name: 'Object', type: 'string', description: 'The object the event is about.', priority: 0, cell: eventObject },
  { name: 'Subobject', type: 'string', description: 'The part of the object the event is about.', priority: 1, cell: (obj) => obj.regarding?.fieldPath ?? '' },
  { name: 'Source', type: 'string', description: 'Who reported the event.', priority: 1, cell: eventSource },
  { name: 'Message', type: 'string', description: 'What happened.', priority: 0, cell: (obj) => (obj.note ?? '').trim() },
  { name: 'First Seen', type: 'string', description: 'When the event first happened.', priority: 1, cell: firstSeen },
  { name: 'Count', type: 'string', description: 'How many times the event happened.', priority: 1, cell: (obj) => obj.series?.count ?? (obj.deprecatedCount || 1) },
  { ...(nameColumn as PrinterColumn<Event>), priority: 1 },
];

export const events = defineKind<Event>({
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  scope: 'namespace',
  shortNames: ['ev'],
  schema: eventSchema,
  validate: validateEvent,
  validateUpdate: validateEventUpdate,
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
