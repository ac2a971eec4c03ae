/**
 * Query parameters of resource requests, parsed and checked once (bad values are 400 BadRequest,
 * as kube-apiserver's parameter codec answers them).
 */
import { ApiError } from '../../../api/status.js';
import { goBoolParam } from '../request-info.js';
import { parseLabelSelector, SelectorParseError, type LabelSelector } from '../../../api/selection/label-selector.js';
import { compileFieldSelector, parseFieldSelector, type FieldGetter } from '../../../api/selection/field-selector.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { FieldValidation } from '../../../api/registry/generic-store.js';
import type { IncludeObject } from '../../../api/registry/table.js';
import { fieldErrors, type FieldError } from '../../../api/registry/field-error.js';
import { isClusterRevisions } from '../../../api/registry/cluster-revisions.js';

export type Query = Record<string, string | string[] | undefined>;

/** The first value of a parameter given once or more, as Go's parameter codec reads it. */
export function param(query: Query, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

function bad(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** A boolean parameter, undefined when absent (`goBoolParam` otherwise). */
export function boolParam(query: Query, name: string): boolean | undefined {
  const v = param(query, name);
  return v === undefined ? undefined : goBoolParam(v);
}

/** int64's range, as Go's strconv.ParseInt checks it. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer parameter, parsed as kube-apiserver's parameter codec parses it (Go's
 * `strconv.ParseInt`, 64 bits): no number or out of int64's range is 400 in Go's words. Values past
 * JavaScript's safe integers are clamped to them: as a limit, a timeout or a grace period they
 * mean "more than could ever matter", and storage takes them as integers.
 */
export function intParam(query: Query, name: string): number | undefined {
  const v = param(query, name);
  if (v === undefined || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw bad(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n < INT64_MIN || n > INT64_MAX) throw bad(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Number(n)));
}

export function labelSelectorParam(query: Query): LabelSelector | undefined {
  const v = param(query, 'labelSelector');
  if (v === undefined || v === '') return undefined;
  try {
    return parseLabelSelector(v);
  } catch (err) {
    if (err instanceof SelectorParseError) throw bad(`unable to parse requirement: ${err.message.replace(/^unable to parse requirement: /, '')}`);
    throw err;
  }
}

/** The fields every kind can be selected by, plus the kind's own. */
export function selectableFields(def: ResourceDefinition): Record<string, FieldGetter<KubeObject>> {
  const fields: Record<string, FieldGetter<KubeObject>> = {
    'metadata.name': (o) => o.metadata.name,
    'metadata.tenant': (o) => o.metadata.tenant,
    ...def.selectableFields,
  };
  if (def.scope === 'namespace') fields['metadata.namespace'] = (o) => o.metadata.namespace;
  return fields;
}

export function fieldSelectorParam(query: Query, def: ResourceDefinition): ((obj: KubeObject) => boolean) | undefined {
  const v = param(query, 'fieldSelector');
  if (v === undefined || v === '') return undefined;
  try {
    return compileFieldSelector(parseFieldSelector(v), selectableFields(def));
  } catch (err) {
    if (err instanceof SelectorParseError) throw bad(err.message);
    throw err;
  }
}

/**
 * kube-apiserver's ListOptions checks (apimachinery's `ValidateListOptions`, with the WatchList
 * feature on): failures are 422 Invalid on `ListOptions.meta.k8s.io`, one cause each. A watch has
 * its own rules: resourceVersionMatch only together with sendInitialEvents, and then only
 * NotOlderThan. A resourceVersion that is no number is 400, as for a GET.
 */
export function validateListOptions(query: Query, verb: 'list' | 'watch' = 'list'): void {
  const rv = param(query, 'resourceVersion') ?? '';
  const errors = verb === 'watch' ? watchOptionErrors(query) : listOptionErrors(query, rv);
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.field}: ${e.message}`);
    throw new ApiError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`, {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
    });
  }
  // One naming every storage cluster's revision (tenants/all with clusters) is parsed where its clusters are known.
  if (rv !== '' && !/^\d+$/.test(rv) && !isClusterRevisions(rv)) throw bad(`invalid resource version ${JSON.stringify(rv)}`);
}

function listOptionErrors(query: Query, rv: string): FieldError[] {
  const match = param(query, 'resourceVersionMatch') ?? '';
  const errors: FieldError[] = [];
  if (match !== '') {
    if (rv === '') errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (param(query, 'continue')) errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errors.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0') errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (param(query, 'sendInitialEvents') !== undefined) errors.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errors;
}

/** `validateWatchOptions`: sendInitialEvents given at all (true or false) counts as provided. */
function watchOptionErrors(query: Query): FieldError[] {
  const match = param(query, 'resourceVersionMatch') ?? '';
  const sendInitialEventsGiven = param(query, 'sendInitialEvents') !== undefined;
  const errors: FieldError[] = [];
  if (sendInitialEventsGiven && match !== 'NotOlderThan') {
    errors.push(fieldErrors.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (!sendInitialEventsGiven) errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errors.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (param(query, 'continue')) errors.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errors;
}

export function fieldValidationParam(query: Query): FieldValidation {
  const v = param(query, 'fieldValidation');
  if (v === undefined || v === '') return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw bad(`fieldValidation must be one of Ignore, Warn or Strict, not ${JSON.stringify(v)}`);
}

export function dryRunParam(query: Query): boolean {
  const raw = query['dryRun'];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const v of values) if (v !== 'All') throw bad(`dryRun: Unsupported value: ${JSON.stringify(v)}: supported values: "All"`);
  return values.length > 0;
}

export function includeObjectParam(query: Query): IncludeObject {
  const v = param(query, 'includeObject');
  if (v === undefined || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw bad(`includeObject must be one of None, Metadata or Object, not ${JSON.stringify(v)}`);
}
