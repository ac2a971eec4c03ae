/**
 * apps/v1 ControllerRevision: an immutable snapshot of a StatefulSet's or DaemonSet's template,
 * kept for rollback. Kubernetes' behaviour: `pkg/apis/apps/validation`, `pkg/registry/apps/controllerrevision`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { anything, define, described, int64, object, ref, string } from '../../schema/schema.js';
import { validateImmutable, validateNonNegative } from './workload.js';

export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision?: number;
}

export const controllerRevisionSchema = define(
  'io.k8s.api.apps.v1.ControllerRevision',
  object(
    'An immutable snapshot of controller state, kept for rollback. Only controllers are expected to write it.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      data: anything('The serialized state.'),
      revision: int64('The revision of the state in data.'),
    },
    { required: ['revision'], 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'ControllerRevision' }] },
  ),
);

export function validateControllerRevision(obj: ControllerRevision): FieldError[] {
  const errors: FieldError[] = obj.data == null ? [fieldErrors.required('data', 'data is mandatory')] : [];
  return [...errors, ...validateNonNegative(obj.revision ?? 0, 'revision')];
}

/** `kind.group/name` of the controlling owner, as kubectl shows owners; `<none>` without one. */
export function controllerOf(obj: KubeObject): string {
  const owner = obj.metadata.ownerReferences?.find((ref) => ref.controller);
  if (!owner) return '<none>';
  const slash = owner.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : owner.apiVersion.slice(0, slash);
  const groupKind = group ? `${owner.kind}.${group}` : owner.kind;
  return groupKind ? `${groupKind.toLowerCase()}/${owner.name}` : owner.name;
}

export const controllerRevisions = defineKind<ControllerRevision>({
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  scope: 'namespace',
  schema: controllerRevisionSchema,
  validate: validateControllerRevision,
  validateUpdate: (obj, old) => validateImmutable(obj.data, old.data, 'data'),
  columns: [
    nameColumn,
    { name: 'Controller', type: 'string', description: 'The object this revision belongs to.', priority: 0, cell: controllerOf },
    { name: 'Revision', type: 'string', description: 'The revision number of the snapshot.', priority: 0, cell: (obj) => obj.revision ?? 0 },
    ageColumn,
  ],
});
