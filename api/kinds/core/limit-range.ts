/**
 * LimitRanges (core/v1): per-namespace bounds and defaults for the resources of each container,
 * pod or claim. For containers, a missing default limit is the max and a missing default request
 * is the default limit (or the min), as Kubernetes fills them in.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, resourceList } from '../../schema/core-types-ref.js';
import { defineKindSchema } from '../../schema/meta.js';
import { list, object, string } from '../../schema/schema.js';
import { child, index, key } from '../../validation/field-path.js';
import { isQualifiedName } from '../../validation/labels.js';
import { canonicalizeResourceList, formatQuantity, type Quantity } from '../../validation/quantity.js';
import { isOvercommitAllowed, parseQuantityField, validateContainerResourceName, validateResourceName } from './resource-validation.js';
import { column } from './table-cells.js';
import type { LimitRange, LimitRangeItem, ResourceList } from './types.js';

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
const BOUNDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;
type Bound = (typeof BOUNDS)[number];
/** Above this many units, ratios are computed in whole units rather than thousandths. */
const MAX_MILLI_VALUE = 2n ** 63n / 1000n;

defineCore(
  'LimitRangeItem',
  object(
    'Bounds and defaults for one kind of object.',
    {
      default: resourceList('Default limits of a container that sets none.'),
      defaultRequest: resourceList('Default requests of a container that sets none.'),
      max: resourceList('The most of each resource allowed.'),
      maxLimitRequestRatio: resourceList('The largest limit/request ratio allowed for each resource.'),
      min: resourceList('The least of each resource required.'),
      type: string('What the bounds apply to: Container, Pod or PersistentVolumeClaim.'),
    },
    { required: ['type'] },
  ),
);

defineCore(
  'LimitRangeSpec',
  object(
    'The bounds a LimitRange sets.',
    { limits: list(coreField('LimitRangeItem', 'One item.'), 'Bounds per kind of object.', { listType: 'atomic' }) },
    { required: ['limits'] },
  ),
);

const limitRangeSchema = defineKindSchema(
  `${CORE_V1}LimitRange`,
  { group: '', version: 'v1', kind: 'LimitRange' },
  'Bounds and defaults for resource use in a namespace.',
  { spec: coreField('LimitRangeSpec', 'The bounds the LimitRange sets.') },
);

/** Copies into `into` the entries of `from` it lacks; keeps `into` absent if nothing is copied. */
function fillMissing(into: ResourceList | undefined, from: ResourceList | undefined): ResourceList | undefined {
  const result = { ...into };
  for (const [name, value] of Object.entries(from ?? {})) result[name] ??= value;
  return Object.keys(result).length > 0 ? result : into;
}

function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    for (const bound of BOUNDS) canonicalizeResourceList(item[bound]);
    if (item.type !== 'Container') continue;
    item.default = fillMissing(item.default, item.max);
    item.defaultRequest = fillMissing(item.defaultRequest, item.default);
    item.defaultRequest = fillMissing(item.defaultRequest, item.min);
  }
}

function validateLimitType(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((m) => fieldErrors.invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !LIMIT_TYPES.includes(type)) {
    errs.push(fieldErrors.invalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

/**
 * Whole units, or thousandths while every value is small enough: how Kubernetes compares a
 * LimitRange's bounds (here, and in the LimitRanger admission plugin).
 */
export function ratioUnits(quantities: Quantity[]): { value: (q: Quantity) => number; scale: number } {
  const ceil = (n: bigint, d: bigint): bigint => (n % d === 0n || n < 0n ? n / d : n / d + 1n);
  const small = quantities.every((q) => ceil(q.nanos, 1_000_000_000n) < MAX_MILLI_VALUE);
  return small ? { value: (q) => Number(ceil(q.nanos, 1_000_000n)), scale: 1000 } : { value: (q) => Number(ceil(q.nanos, 1_000_000_000n)), scale: 1 };
}

/** Checks the bounds of one resource against each other. */
function validateBounds(name: string, q: Partial<Record<Bound, Quantity>>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const text = (v: Quantity): string => formatQuantity(v);
  const at = (bound: Bound): string => key(child(path, bound), name);
  const { min, max, default: def, defaultRequest: req, maxLimitRequestRatio: ratio } = q;
  if (min && max && min.nanos > max.nanos) errs.push(fieldErrors.invalid(at('min'), text(min), `min value ${text(min)} is greater than max value ${text(max)}`));
  if (req && min && min.nanos > req.nanos) errs.push(fieldErrors.invalid(at('defaultRequest'), text(req), `min value ${text(min)} is greater than default request value ${text(req)}`));
  if (req && max && req.nanos > max.nanos) errs.push(fieldErrors.invalid(at('defaultRequest'), text(req), `default request value ${text(req)} is greater than max value ${text(max)}`));
  if (req && def && req.nanos > def.nanos) {
    errs.push(fieldErrors.invalid(at('defaultRequest'), text(req), `default request value ${text(req)} is greater than default limit value ${text(def)}`));
  }
  if (def && min && min.nanos > def.nanos) errs.push(fieldErrors.invalid(at('default'), text(min), `min value ${text(min)} is greater than default value ${text(def)}`));
  if (def && max && def.nanos > max.nanos) errs.push(fieldErrors.invalid(at('default'), text(max), `default value ${text(def)} is greater than max value ${text(max)}`));
  if (ratio && ratio.nanos < 1_000_000_000n) errs.push(fieldErrors.invalid(at('maxLimitRequestRatio'), text(ratio), `ratio ${text(ratio)} is less than 1`));
  if (ratio && min && max) {
    const units = ratioUnits([ratio, min, max]);
    const limit = units.value(max) / units.value(min);
    if (units.value(ratio) / units.scale > limit) {
      errs.push(fieldErrors.invalid(at('maxLimitRequestRatio'), text(ratio), `ratio ${text(ratio)} is greater than max/min = ${limit.toFixed(6)}`));
    }
  }
  if (!isOvercommitAllowed(name) && def && req && def.nanos !== req.nanos) {
    errs.push(fieldErrors.invalid(at('defaultRequest'), text(req), `default value ${text(def)} must equal to defaultRequest value ${text(req)} in ${name}`));
  }
  return errs;
}

/** The resources of an item: names, quantities, and how the bounds relate. */
function validateItemResources(item: LimitRangeItem, path: string): FieldError[] {
  const type = item.type ?? '';
  const errs: FieldError[] = [];
  const nameRule = type === 'Pod' || type === 'Container' ? validateContainerResourceName : validateResourceName;
  const parsed = new Map<string, Partial<Record<Bound, Quantity>>>();
  const collect = (bound: Bound, values: ResourceList | undefined): void => {
    for (const [name, value] of Object.entries(values ?? {})) {
      const p = key(child(path, bound), name);
      errs.push(...nameRule(name, p));
      const q = parseQuantityField(value, p, errs);
      if (!q) continue;
      parsed.set(name, { ...parsed.get(name), [bound]: q });
    }
  };
  collect('max', item.max);
  collect('min', item.min);
  if (type === 'Pod') {
    if (Object.keys(item.default ?? {}).length > 0) errs.push(fieldErrors.forbidden(child(path, 'default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length > 0) errs.push(fieldErrors.forbidden(child(path, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    collect('default', item.default);
    collect('defaultRequest', item.defaultRequest);
  }
  if (type === 'PersistentVolumeClaim' && item.min?.storage === undefined && item.max?.storage === undefined) {
    errs.push(fieldErrors.required(child(path, 'limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  collect('maxLimitRequestRatio', item.maxLimitRequestRatio);
  for (const name of [...parsed.keys()].sort()) errs.push(...validateBounds(name, parsed.get(name)!, path));
  return errs;
}

function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const path = index('spec.limits', i);
    const type = item.type ?? '';
    errs.push(...validateLimitType(type, child(path, 'type')));
    if (types.has(type)) errs.push(fieldErrors.duplicate(child(path, 'type'), type));
    types.add(type);
    errs.push(...validateItemResources(item, path));
  });
  return errs;
}

/** LimitRanges have no printer of their own in Kubernetes: the generic Name and Created At. */
const limitRangeColumns: PrinterColumn<LimitRange>[] = [
  nameColumn as PrinterColumn<LimitRange>,
  column('Created At', 'date', 'When the object was created.', (lr) => lr.metadata.creationTimestamp ?? ''),
];

export const limitRanges = defineKind<LimitRange>({
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  resource: 'limitranges',
  scope: 'namespace',
  shortNames: ['limits'],
  schema: limitRangeSchema,
  allowCreateOnUpdate: true,
  defaults: defaultLimitRange,
  validate: validateLimitRange,
  columns: limitRangeColumns,
});
