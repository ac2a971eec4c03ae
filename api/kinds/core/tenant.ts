/**
 * Tenants (core/v1, our kind): one per space, above every space (cluster scope). Creating one
 * opens a space; deleting one tears the whole space down. `system` always exists, and `all` is
 * never a tenant's name: it means every space in URLs.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, stringList } from '../../schema/core-types-ref.js';
import { defineKindSchema } from '../../schema/meta.js';
import { enumOf, object } from '../../schema/schema.js';
import { validateKubeFinalizerName } from '../../validation/object-meta.js';
import { index } from '../../validation/field-path.js';
import { column } from './table-cells.js';
import { ALL_TENANTS } from '../../spaces.js';

/** The finalizer the tenant controller removes once the space is empty. */
export const TENANT_FINALIZER = 'kubernetes';


export type TenantPhase = 'Active' | 'Terminating';

export interface Tenant extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: TenantPhase };
}

defineCore(
  'TenantSpec',
  object('What a tenant needs before it can go.', {
    finalizers: stringList('Components that must empty the space before the tenant is removed.'),
  }),
);

defineCore(
  'TenantStatus',
  object('The observed state of a tenant.', {
    phase: enumOf('Active while the space is usable; Terminating while it is being emptied.', ['Active', 'Terminating']),
  }),
);

const tenantSchema = defineKindSchema(`${CORE_V1}Tenant`, { group: '', version: 'v1', kind: 'Tenant' }, 'A tenant: the owner of one space of namespaces, cluster-wide objects and RBAC.', {
  spec: coreField('TenantSpec', 'What the tenant needs before it can go.'),
  status: coreField('TenantStatus', 'The observed state of the tenant. Read-only.'),
});

function validateTenant(tenant: Tenant): FieldError[] {
  const errs: FieldError[] = [];
  if (tenant.metadata.name === ALL_TENANTS) {
    errs.push(fieldErrors.invalid('metadata.name', ALL_TENANTS, '"all" is reserved: it names every space in URLs'));
  }
  (tenant.spec?.finalizers ?? []).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, index('spec.finalizers', i))));
  return errs;
}

const tenantColumns: PrinterColumn<Tenant>[] = [
  nameColumn as PrinterColumn<Tenant>,
  column('Status', 'string', 'The phase of the tenant: Active or Terminating.', (t) => t.status?.phase ?? ''),
  ageColumn as PrinterColumn<Tenant>,
];

export const tenants = defineKind<Tenant>({
  group: '',
  version: 'v1',
  kind: 'Tenant',
  resource: 'tenants',
  scope: 'cluster',
  shortNames: ['te'],
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
  validate: validateTenant,
  holdsDeletion: (tenant) => (tenant.spec?.finalizers ?? []).length > 0,
  markDeleting: (tenant) => {
    tenant.status = { ...tenant.status, phase: 'Terminating' };
  },
  columns: tenantColumns,
  selectableFields: { 'status.phase': (t) => t.status?.phase ?? '' },
});
