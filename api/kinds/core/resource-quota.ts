/**
 * ResourceQuotas (core/v1): hard limits on what a namespace may consume (`requests.cpu: 4`,
 * `pods: 10`, `count/deployments.apps: 5`), optionally only for pods in some scopes. The quota
 * controller reports usage in `status`. Scopes may not change after creation.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, resourceList, stringList } from '../../schema/core-types-ref.js';
import { defineKindSchema } from '../../schema/meta.js';
import { list, object, string } from '../../schema/schema.js';
import { child } from '../../validation/field-path.js';
import { canonicalizeResourceList } from '../../validation/quantity.js';
import { isStandardQuotaResourceName, validateQuotaResourceName, validateResourceList } from './resource-validation.js';
import { column, usageCell } from './table-cells.js';
import type { ResourceList, ResourceQuota } from './types.js';

type QuotaSpec = NonNullable<ResourceQuota['spec']>;

const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];
/** Scopes that only say whether a pod has a property: they take the Exists operator. */
const EXISTS_ONLY_SCOPES = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];
const POD_COUNT_RESOURCES = ['pods'];
const POD_COMPUTE_RESOURCES = ['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'];
const CLAIM_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];

defineCore(
  'ScopedResourceSelectorRequirement',
  object(
    'A requirement on a scope: the scope, an operator and values.',
    {
      operator: string('In, NotIn, Exists or DoesNotExist.'),
      scopeName: string('The scope the requirement is about, e.g. PriorityClass.'),
      values: stringList('Values for In and NotIn; empty for Exists and DoesNotExist.'),
    },
    { required: ['scopeName', 'operator'] },
  ),
);

defineCore(
  'ScopeSelector',
  object(
    'Scopes as selector requirements, ANDed.',
    { matchExpressions: list(coreField('ScopedResourceSelectorRequirement', 'One requirement.'), 'The requirements.', { listType: 'atomic' }) },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'ResourceQuotaSpec',
  object('The limits a quota sets.', {
    hard: resourceList('The most of each resource the namespace may use.'),
    scopeSelector: coreField('ScopeSelector', 'Limits the quota to objects in these scopes, as requirements.'),
    scopes: stringList('Limits the quota to objects in all of these scopes.'),
  }),
);

defineCore(
  'ResourceQuotaStatus',
  object('What the quota enforces and what is used.', {
    hard: resourceList('The limits in force.'),
    used: resourceList('What the namespace uses now.'),
  }),
);

const resourceQuotaSchema = defineKindSchema(
  `${CORE_V1}ResourceQuota`,
  { group: '', version: 'v1', kind: 'ResourceQuota' },
  'Limits on the resources a namespace may consume.',
  {
    spec: coreField('ResourceQuotaSpec', 'The limits the quota sets.'),
    status: coreField('ResourceQuotaStatus', 'What the quota enforces and what is used. Read-only.'),
  },
);

function defaultResourceQuota(quota: ResourceQuota): void {
  canonicalizeResourceList(quota.spec?.hard);
  canonicalizeResourceList(quota.status?.hard);
  canonicalizeResourceList(quota.status?.used);
}

/** Whether a scope can apply to a quota of this (standard) resource. */
function scopeAppliesTo(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT_RESOURCES.includes(resource) || POD_COMPUTE_RESOURCES.includes(resource);
    case 'BestEffort':
      return POD_COUNT_RESOURCES.includes(resource);
    case 'VolumeAttributesClass':
      return CLAIM_RESOURCES.includes(resource);
    default:
      return true;
  }
}

/** Whether a scope conflicts with a standard resource the quota limits. */
function scopeMisapplied(scope: string, hard: ResourceList | undefined): boolean {
  return Object.keys(hard ?? {}).some((resource) => isStandardQuotaResourceName(resource) && !scopeAppliesTo(scope, resource));
}

function conflicting(scopes: ReadonlySet<string>): boolean {
  return CONFLICTING_SCOPES.some((pair) => pair.every((s) => scopes.has(s)));
}

function validateScopes(spec: QuotaSpec): FieldError[] {
  const scopes = spec.scopes ?? [];
  const errs: FieldError[] = [];
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) errs.push(fieldErrors.invalid('spec.scopes', scopes, 'unsupported scope'));
    if (scopeMisapplied(scope, spec.hard)) errs.push(fieldErrors.invalid('spec.scopes', scopes, 'unsupported scope applied to resource'));
  }
  if (conflicting(new Set(scopes))) errs.push(fieldErrors.invalid('spec.scopes', scopes, 'conflicting scopes'));
  return errs;
}

function validateScopeSelector(spec: QuotaSpec): FieldError[] {
  const selector = spec.scopeSelector;
  if (!selector) return [];
  const path = 'spec.scopeSelector';
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    const scope = req.scopeName ?? '';
    const values = req.values ?? [];
    if (!SCOPES.includes(scope)) errs.push(fieldErrors.invalid(child(path, 'matchExpressions.scopeName'), scope, 'unsupported scope'));
    if (scopeMisapplied(scope, spec.hard)) errs.push(fieldErrors.invalid(path, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY_SCOPES.includes(scope) && req.operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          child(path, 'matchExpressions.operator'),
          req.operator ?? '',
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(fieldErrors.required(child(path, 'matchExpressions.values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(fieldErrors.invalid(child(path, 'matchExpressions.values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        }
        break;
      default:
        errs.push(fieldErrors.invalid(child(path, 'matchExpressions.operator'), req.operator ?? '', 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  if (conflicting(seen)) errs.push(fieldErrors.invalid(path, spec.scopes ?? null, 'conflicting scopes'));
  return errs;
}

function validateResourceQuota(quota: ResourceQuota): FieldError[] {
  const spec = quota.spec ?? {};
  return [
    ...validateResourceList(spec.hard, 'spec.hard', validateQuotaResourceName),
    ...validateScopes(spec),
    ...validateScopeSelector(spec),
    ...validateResourceList(quota.status?.hard, 'status.hard', validateQuotaResourceName),
    ...validateResourceList(quota.status?.used, 'status.used', validateQuotaResourceName),
  ];
}

function validateResourceQuotaUpdate(quota: ResourceQuota, old: ResourceQuota): FieldError[] {
  const scopes = new Set(quota.spec?.scopes ?? []);
  const oldScopes = new Set(old.spec?.scopes ?? []);
  const same = scopes.size === oldScopes.size && [...scopes].every((s) => oldScopes.has(s));
  return same ? [] : [fieldErrors.invalid('spec.scopes', quota.spec?.scopes ?? null, 'field is immutable')];
}

const resourceQuotaColumns: PrinterColumn<ResourceQuota>[] = [
  nameColumn as PrinterColumn<ResourceQuota>,
  column('Request', 'string', 'Usage against the limits on requests and object counts (used/hard).', (q) => usageCell(q.status, (name) => !name.startsWith('limits.'))),
  column('Limit', 'string', 'Usage against the limits on container limits (used/hard).', (q) => usageCell(q.status, (name) => name.startsWith('limits.'))),
  ageColumn as PrinterColumn<ResourceQuota>,
];

export const resourceQuotas = defineKind<ResourceQuota>({
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  scope: 'namespace',
  shortNames: ['quota'],
  schema: resourceQuotaSchema,
  status: true,
  defaults: defaultResourceQuota,
  prepareForCreate: (quota) => {
    quota.status = {};
  },
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
  columns: resourceQuotaColumns,
});
