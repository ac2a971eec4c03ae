/**
 * Tenants (core/v1, our kind): one per space, above every space (cluster scope). Creating one
 * opens a space; deleting one tears the whole space down. `system` always exists, and `all` is
 * never a tenant's name: it means every space in URLs. `spec.hard` limits what the space may hold
 * (object counts, `count/configmaps: 100`, `count/*: 5000`; stored bytes, `storage/bytes: 1Gi`); `status.hard` and `status.used` are
 * written by the space quota admission plugin (api/admission/space-quota.ts) as it charges writes.
 * `spec.storageClusterId` pins the space to a storage cluster (api/admission/storage-cluster.ts).
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, VERBS_BUT_DELETECOLLECTION, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, resourceList, stringList } from '../../schema/core-types-ref.js';
import { defineKindSchema } from '../../schema/meta.js';
import { enumOf, object, string } from '../../schema/schema.js';
import { validateKubeFinalizerName } from '../../validation/object-meta.js';
import { index } from '../../validation/field-path.js';
import { isDNS1123Subdomain } from '../../validation/names.js';
import { canonicalizeResourceList } from '../../validation/quantity.js';
import { STORED_BYTES, TOTAL_OBJECT_COUNT } from '../../quota/evaluators.js';
import { validateResourceList } from './resource-validation.js';
import { column, usageCell } from './table-cells.js';
import type { ResourceList } from './types.js';
import { ALL_TENANTS } from '../../spaces.js';

/** The finalizer the tenant controller removes once the space is empty. */
export const TENANT_FINALIZER = 'kubernetes';


export type TenantPhase = 'Active' | 'Terminating';

export interface Tenant extends KubeObject {
  spec?: { finalizers?: string[]; hard?: ResourceList; storageClusterId?: string };
  status?: { phase?: TenantPhase; hard?: ResourceList; used?: ResourceList };
}

defineCore(
  'TenantSpec',
  object('What a tenant needs before it can go.', {
    finalizers: stringList('Components that must empty the space before the tenant is removed.'),
    hard: resourceList('The most the space may hold: count/<resource>[.<group>] per kind, count/* for all objects together, storage/bytes for the bytes they take in storage.'),
    storageClusterId: string('The storage cluster (--storage-cluster) holding the space; unset: the default store. Immutable.'),
  }),
);

defineCore(
  'TenantStatus',
  object('The observed state of a tenant.', {
    hard: resourceList('The limits in force (spec.hard once the space has been counted against it).'),
    phase: enumOf('Active while the space is usable; Terminating while it is being emptied.', ['Active', 'Terminating']),
    used: resourceList('What the space holds now, for each limit in force.'),
  }),
);

const tenantSchema = defineKindSchema(`${CORE_V1}Tenant`, { group: '', version: 'v1', kind: 'Tenant' }, 'A tenant: the owner of one space of namespaces, cluster-wide objects and RBAC.', {
  spec: coreField('TenantSpec', 'What the tenant needs before it can go.'),
  status: coreField('TenantStatus', 'The observed state of the tenant. Read-only.'),
});

/** A name a space's limit may have: `count/*`, or `count/<resource>` / `count/<resource>.<group>`. */
function validateSpaceLimitName(name: string, path: string): FieldError[] {
  if (name === TOTAL_OBJECT_COUNT || name === STORED_BYTES) return [];
  const counted = name.startsWith('count/') ? name.slice('count/'.length) : '';
  if (counted !== '' && isDNS1123Subdomain(counted).length === 0) return [];
  return [fieldErrors.invalid(path, name, `must be ${TOTAL_OBJECT_COUNT}, ${STORED_BYTES} or count/<resource>[.<group>]`)];
}

function validateTenant(tenant: Tenant): FieldError[] {
  const errs: FieldError[] = [];
  if (tenant.metadata.name === ALL_TENANTS) {
    errs.push(fieldErrors.invalid('metadata.name', ALL_TENANTS, '"all" is reserved: it names every space in URLs'));
  }
  (tenant.spec?.finalizers ?? []).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, index('spec.finalizers', i))));
  errs.push(...validateResourceList(tenant.spec?.hard, 'spec.hard', validateSpaceLimitName));
  errs.push(...validateResourceList(tenant.status?.hard, 'status.hard', validateSpaceLimitName));
  errs.push(...validateResourceList(tenant.status?.used, 'status.used', validateSpaceLimitName));
  return errs;
}

const tenantColumns: PrinterColumn<Tenant>[] = [
  nameColumn as PrinterColumn<Tenant>,
  column('Status', 'string', 'The phase of the tenant: Active or Terminating.', (t) => t.status?.phase ?? ''),
  column('Used', 'string', "The space's usage against its limits (used/hard).", (t) => usageCell(t.status)),
  ageColumn as PrinterColumn<Tenant>,
];

export const tenants = defineKind<Tenant>({
  group: '',
  version: 'v1',
  kind: 'Tenant',
  resource: 'tenants',
  scope: 'cluster',
  shortNames: ['te'],
  verbs: VERBS_BUT_DELETECOLLECTION,
  schema: tenantSchema,
  nameRule: 'dns1123-label',
  status: true,
  returnDeletedObject: true,
  prepareForCreate: (tenant) => {
    const finalizers = tenant.spec?.finalizers ?? [];
    tenant.spec = { ...tenant.spec, finalizers: finalizers.includes(TENANT_FINALIZER) ? finalizers : [...finalizers, TENANT_FINALIZER] };
    // Active once the tenant controller has laid out the space.
    tenant.status = {};
  },
  // spec.finalizers change only through the finalize subresource.
  prepareForUpdate: (tenant, old) => {
    tenant.spec = { ...tenant.spec, finalizers: old.spec?.finalizers };
  },
  defaults: (tenant) => {
    canonicalizeResourceList(tenant.spec?.hard);
    canonicalizeResourceList(tenant.status?.hard);
    canonicalizeResourceList(tenant.status?.used);
  },
  validate: validateTenant,
  // A space's keys stay in the cluster they were written to (Arktos' storageClusterId is immutable too).
  validateUpdate: (tenant, old) => (tenant.spec?.storageClusterId !== old.spec?.storageClusterId ? [fieldErrors.immutable('spec.storageClusterId', tenant.spec?.storageClusterId ?? '')] : []),
  holdsDeletion: (tenant) => (tenant.spec?.finalizers ?? []).length > 0,
  markDeleting: (tenant) => {
    tenant.status = { ...tenant.status, phase: 'Terminating' };
  },
  columns: tenantColumns,
  selectableFields: { 'status.phase': (t) => t.status?.phase ?? '' },
});
