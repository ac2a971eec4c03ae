/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition: a custom resource a space serves. Space-scoped
 * (cluster-scoped in Kubernetes): each space has its own CRDs, under its own key. Kubernetes'
 * behaviour: `apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go` and
 * `pkg/registry/customresourcedefinition/` (strategy, and the DELETE that adds the cleanup
 * finalizer and the Terminating condition).
 */
import { nowTimestamp } from '../../registry/generic-store.js';
import { defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { APIEXTENSIONS_GROUP, customResourceDefinitionSchema } from '../../schema/apiextensions-types.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd-validation.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, withCondition, type CustomResourceDefinition } from './types.js';

/** The storage version's name, if exactly one version is marked for storage. */
export function storageVersion(crd: CustomResourceDefinition): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!spec) return;
  const names = spec.names;
  if (names?.kind) {
    names.singular ||= names.kind.toLowerCase();
    names.listKind ||= `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service) service.port ??= 443;
}

/** Every storage version the CRD has had stays listed until someone migrates and edits the status. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const version = storageVersion(crd);
  if (version === undefined) return;
  const stored = crd.status?.storedVersions ?? [];
  if (!stored.includes(version)) crd.status = { ...crd.status, storedVersions: [...stored, version] };
}

/** kube-apiserver's default Table for kinds without printers: the name and an RFC 3339 creation time. */
const createdAtColumn: PrinterColumn = {
  name: 'Created At',
  type: 'date',
  description: 'When the object was created, in RFC 3339 form, in UTC.',
  priority: 0,
  cell: (obj) => obj.metadata.creationTimestamp ?? '',
};

export const customResourceDefinitions = defineKind<CustomResourceDefinition>({
  group: APIEXTENSIONS_GROUP,
  version: 'v1',
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  scope: 'space',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  schema: customResourceDefinitionSchema,
  // Its cleanup finalizer has no domain part and is not one of the core ones.
  kubeFinalizerNames: false,
  status: true,
  tracksGeneration: true,
  defaults: defaultCustomResourceDefinition,
  prepareForCreate: (crd) => {
    crd.status = {};
    recordStorageVersion(crd);
  },
  prepareForUpdate: (crd) => recordStorageVersion(crd),
  validateCreate: (crd) => validateCustomResourceDefinition(crd),
  validateUpdate: validateCustomResourceDefinitionUpdate,
  // The first DELETE only marks the CRD: its custom resources go first, then the finalizer.
  holdsDeletion: (crd) => crd.metadata.deletionTimestamp === undefined,
  markDeleting: (crd) => {
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CUSTOM_RESOURCE_CLEANUP_FINALIZER];
    const terminating = {
      type: 'Terminating',
      status: 'True' as const,
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    };
    crd.status = { ...crd.status, conditions: withCondition(crd.status?.conditions ?? [], terminating, nowTimestamp()) };
  },
  columns: [nameColumn as PrinterColumn<CustomResourceDefinition>, createdAtColumn as PrinterColumn<CustomResourceDefinition>],
});
