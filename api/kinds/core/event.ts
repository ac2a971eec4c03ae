/**
 * Events (core/v1): reports about other objects (`kubectl get events`). Names are free-form path
 * segments (`web-0.17a8b7c5e1d2f3a4`), a PUT may create an event, and only the legacy checks of
 * the core/v1 API apply: an old-style event's namespace must match its object's; a new-style one
 * (with `eventTime`) needs its reporter, action and reason. This is the stored form of every
 * event: events.k8s.io/v1 serves a view of the same storage (`../events/event.ts`), whose writes
 * pass these checks and the strict ones below, on the core fields, as kube-apiserver's
 * `ValidateEventCreate`/`ValidateEventUpdate` (`pkg/apis/core/validation/events.go`) do.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { defineKind, humanAge, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore } from '../../schema/core-types-ref.js';
import '../../schema/core-types.js';
import { defineKindSchema, metaRef, timeField } from '../../schema/meta.js';
import { described, integer, object, string } from '../../schema/schema.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { isDNS1123Subdomain } from '../../validation/names.js';
import { validateImmutable } from '../apps/workload.js';
import { column } from './table-cells.js';
import type { Event } from './types.js';

const REPORTING_INSTANCE_MAX_LENGTH = 128;
const ACTION_MAX_LENGTH = 128;
const REASON_MAX_LENGTH = 128;
const MESSAGE_MAX_LENGTH = 1024;

defineCore(
  'EventSeries',
  object('A series of repeated occurrences of one event.', {
    count: integer('How many times the event has happened so far.'),
    lastObservedTime: described(metaRef('MicroTime'), 'When the last occurrence was seen.'),
  }),
);

const eventSchema = defineKindSchema(
  `${CORE_V1}Event`,
  { group: '', version: 'v1', kind: 'Event' },
  'A report of something that happened to an object.',
  {
    action: string('What was done (or failed) about the object, machine-readable.'),
    count: integer('How many times the event has occurred.'),
    eventTime: described(metaRef('MicroTime'), 'When the event first happened, with microseconds.'),
    firstTimestamp: timeField('When the event was first recorded.'),
    involvedObject: coreField('ObjectReference', 'The object the event is about.'),
    lastTimestamp: timeField('When the event was most recently recorded.'),
    message: string('What happened, for people.'),
    reason: string('Why the event happened: a short CamelCase word, machine-readable.'),
    related: coreField('ObjectReference', 'A second object involved, if any.'),
    reportingComponent: string('The controller that emitted the event, e.g. kubernetes.io/kubelet.'),
    reportingInstance: string('The instance of that controller, e.g. a node name.'),
    series: coreField('EventSeries', 'Repeats of the event, if it is a series.'),
    source: coreField('EventSource', 'The component that reported the event.'),
    type: string('Normal or Warning; more types may come.'),
  },
  ['metadata', 'involvedObject'],
);

function tooLongError(path: string, value: string | undefined, max: number): FieldError[] {
  return (value ?? '').length > max ? [fieldErrors.invalid(path, '', `can have at most ${max} characters`)] : [];
}

/** The checks of a new-style event, one that has `eventTime`. */
function validateReportedEvent(event: Event): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') {
    errs.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
  }
  const reporter = event.reportingComponent ?? '';
  if (!reporter) errs.push(fieldErrors.required('reportingComponent'));
  errs.push(...validateQualifiedName(reporter, 'reportingComponent'));
  if (!event.reportingInstance) errs.push(fieldErrors.required('reportingInstance'));
  errs.push(...tooLongError('reportingInstance', event.reportingInstance, REPORTING_INSTANCE_MAX_LENGTH));
  if (!event.action) errs.push(fieldErrors.required('action'));
  errs.push(...tooLongError('action', event.action, ACTION_MAX_LENGTH));
  if (!event.reason) errs.push(fieldErrors.required('reason'));
  errs.push(...tooLongError('reason', event.reason, REASON_MAX_LENGTH));
  errs.push(...tooLongError('message', event.message, MESSAGE_MAX_LENGTH));
  return errs;
}

export function validateEvent(event: Event): FieldError[] {
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const errs: FieldError[] = [];
  if (event.eventTime) {
    errs.push(...validateReportedEvent(event));
  } else if (involvedNamespace ? namespace !== involvedNamespace : namespace !== '' && namespace !== 'default') {
    errs.push(fieldErrors.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
  }
  errs.push(...isDNS1123Subdomain(namespace).map((m) => fieldErrors.invalid('namespace', namespace, m)));
  return errs;
}

/** The series checks of the strict API: at least two occurrences, the last one's time. */
function validateSeries(event: Event): FieldError[] {
  if (!event.series) return [];
  const errs: FieldError[] = [];
  if ((event.series.count ?? 0) < 2) errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (!event.series.lastObservedTime) errs.push(fieldErrors.required('series.lastObservedTime'));
  return errs;
}

/** A create through events.k8s.io/v1, after the legacy checks: a structured event, none of the core-only fields. */
export function validateStrictEventCreate(event: Event): FieldError[] {
  const errs = validateSeries(event);
  if (!event.eventTime) errs.push(fieldErrors.required('eventTime'));
  if (event.type !== 'Normal' && event.type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${event.type ?? ''}`));
  if (event.firstTimestamp) errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (event.lastTimestamp) errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if (event.count) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  if (event.source?.component || event.source?.host) errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  return errs;
}

/**
 * Fields an update through events.k8s.io/v1 may not change, with the paths kube-apiserver names
 * (its Go field names; reason twice, as there).
 */
const FIXED_FIELDS: ReadonlyArray<[keyof Event, string]> = [
  ['involvedObject', 'involvedObject'],
  ['reason', 'reason'],
  ['message', 'message'],
  ['source', 'source'],
  ['firstTimestamp', 'firstTimestamp'],
  ['lastTimestamp', 'lastTimestamp'],
  ['count', 'count'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingComponent', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

/** An update through events.k8s.io/v1, after the legacy checks: only the series may change. */
export function validateStrictEventUpdate(event: Event, old: Event): FieldError[] {
  const errs = JSON.stringify(event.series) === JSON.stringify(old.series) ? [] : validateSeries(event);
  return [...errs, ...FIXED_FIELDS.flatMap(([key, path]) => validateImmutable(event[key], old[key], path))];
}

/** The first timestamp: `firstTimestamp`, or `eventTime` for new-style events. */
function firstSeen(event: Event, now: number): string {
  return humanAge(event.firstTimestamp || event.eventTime, now);
}

function lastSeen(event: Event, now: number): string {
  if (event.series) return humanAge(event.series.lastObservedTime, now);
  return event.lastTimestamp ? humanAge(event.lastTimestamp, now) : firstSeen(event, now);
}

/** `kind/name` of the involved object, the kind in lower case. */
function involvedObject(event: Event): string {
  const kind = (event.involvedObject?.kind ?? '').toLowerCase();
  const name = event.involvedObject?.name;
  return name ? `${kind}/${name}` : kind;
}

/** `component, host`, falling back to the reporting controller and instance. */
function eventSource(event: Event): string {
  const component = event.source?.component || event.reportingComponent || '';
  const host = event.source?.host || event.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

/** Occurrences: the series count, else the count (a singleton new-style event counts once). */
function occurrences(event: Event): number {
  if (event.series) return event.series.count ?? 0;
  return event.count || 1;
}

export const eventColumns: PrinterColumn<Event>[] = [
  column('Last Seen', 'string', 'How long ago the event was last seen.', lastSeen),
  column('Type', 'string', 'Normal or Warning.', (e) => e.type ?? ''),
  column('Reason', 'string', 'Why the event happened, in one CamelCase word.', (e) => e.reason ?? ''),
  column('Object', 'string', 'The object the event is about.', involvedObject),
  column('Subobject', 'string', 'The part of the object the event is about, e.g. a container.', (e) => e.involvedObject?.fieldPath ?? '', 1),
  column('Source', 'string', 'The component that reported the event.', eventSource, 1),
  column('Message', 'string', 'What happened.', (e) => (e.message ?? '').trim()),
  column('First Seen', 'string', 'How long ago the event was first seen.', firstSeen, 1),
  column('Count', 'string', 'How many times the event has occurred.', occurrences, 1),
  { ...column('Name', 'string', 'Name of the event, unique within a namespace.', (e: Event) => e.metadata.name ?? '', 1), format: 'name' },
];

export const events = defineKind<Event>({
  group: '',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  scope: 'namespace',
  shortNames: ['ev'],
  schema: eventSchema,
  nameRule: 'path-segment',
  allowCreateOnUpdate: true,
  validate: validateEvent,
  // Events neither own nor are collected (Kubernetes' garbage collector ignores them).
  garbageCollectionPolicy: 'Unsupported',
  columns: eventColumns,
  selectableFields: {
    'involvedObject.kind': (e) => e.involvedObject?.kind ?? '',
    'involvedObject.namespace': (e) => e.involvedObject?.namespace ?? '',
    'involvedObject.name': (e) => e.involvedObject?.name ?? '',
    'involvedObject.uid': (e) => e.involvedObject?.uid ?? '',
    'involvedObject.apiVersion': (e) => e.involvedObject?.apiVersion ?? '',
    'involvedObject.resourceVersion': (e) => e.involvedObject?.resourceVersion ?? '',
    'involvedObject.fieldPath': (e) => e.involvedObject?.fieldPath ?? '',
    reason: (e) => e.reason ?? '',
    reportingComponent: (e) => e.reportingComponent ?? '',
    source: (e) => e.source?.component || e.reportingComponent || '',
    type: (e) => e.type ?? '',
  },
});
