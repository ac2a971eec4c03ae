/**
 * Namespaces (core/v1), space-scoped. A namespace is labelled with its own name, starts Active
 * with the `kubernetes` finalizer in `spec.finalizers`, and turns Terminating when deleted; the
 * namespace controller empties it and removes the finalizer (the `finalize` subresource), and then
 * it goes.
 */
import type { FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, VERBS_BUT_DELETECOLLECTION, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, stringList } from '../../schema/core-types-ref.js';
import { defineKindSchema, timeField } from '../../schema/meta.js';
import { list, object, string } from '../../schema/schema.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { validateKubeFinalizerName } from '../../validation/object-meta.js';
import { column } from './table-cells.js';
import type { Namespace } from './types.js';

/** The label every namespace carries with its own name, so selectors can pick namespaces by name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
/** The finalizer the namespace controller removes once the namespace is empty. */
export const KUBERNETES_FINALIZER = 'kubernetes';

defineCore(
  'NamespaceSpec',
  object('What a namespace needs before it can go.', {
    finalizers: stringList('Components that must clean the namespace up before it is removed.'),
  }),
);

defineCore(
  'NamespaceCondition',
  object(
    'One aspect of a namespace’s state.',
    {
      lastTransitionTime: timeField('When the status last changed.'),
      message: string('Details for people.'),
      reason: string('Why the status is what it is, CamelCase.'),
      status: string('True, False or Unknown.'),
      type: string('What the condition is about, e.g. NamespaceDeletionContentFailure.'),
    },
    { required: ['type', 'status'] },
  ),
);

defineCore(
  'NamespaceStatus',
  object('The observed state of a namespace.', {
    conditions: list(coreField('NamespaceCondition', 'One condition.'), 'Current conditions.', { mergeKey: 'type', strategy: 'merge' }),
    phase: string('Active, or Terminating while the namespace is being deleted.'),
  }),
);

const namespaceSchema = defineKindSchema(
  `${CORE_V1}Namespace`,
  { group: '', version: 'v1', kind: 'Namespace' },
  'A scope for names: most objects live in a namespace.',
  {
    spec: coreField('NamespaceSpec', 'What the namespace needs before it can go.'),
    status: coreField('NamespaceStatus', 'The observed state of the namespace. Read-only.'),
  },
);

function defaultNamespace(ns: Namespace): void {
  const name = ns.metadata.name;
  if (name) ns.metadata.labels = { ...ns.metadata.labels, [NAMESPACE_NAME_LABEL]: name };
  if (ns.status) ns.status.phase ||= 'Active';
}

function prepareNewNamespace(ns: Namespace): void {
  ns.status = { phase: 'Active' };
  const spec = (ns.spec ??= {});
  const finalizers = spec.finalizers ?? [];
  if (!finalizers.includes(KUBERNETES_FINALIZER)) spec.finalizers = [...finalizers, KUBERNETES_FINALIZER];
}

function validateNamespace(ns: Namespace): FieldError[] {
  const path = 'spec.finalizers';
  return (ns.spec?.finalizers ?? []).flatMap((f) => [...validateQualifiedName(f, path), ...validateKubeFinalizerName(f, path)]);
}

const namespaceColumns: PrinterColumn<Namespace>[] = [
  nameColumn as PrinterColumn<Namespace>,
  column('Status', 'string', 'The phase of the namespace: Active or Terminating.', (ns) => ns.status?.phase ?? ''),
  ageColumn as PrinterColumn<Namespace>,
];

export const namespaces = defineKind<Namespace>({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  resource: 'namespaces',
  scope: 'space',
  shortNames: ['ns'],
  verbs: VERBS_BUT_DELETECOLLECTION,
  schema: namespaceSchema,
  nameRule: 'dns1123-label',
  status: true,
  returnDeletedObject: true,
  defaults: defaultNamespace,
  prepareForCreate: prepareNewNamespace,
  // spec.finalizers change only through the finalize subresource.
  prepareForUpdate: (ns, old) => {
    ns.spec = { ...ns.spec, finalizers: old.spec?.finalizers };
  },
  validate: validateNamespace,
  holdsDeletion: (ns) => (ns.spec?.finalizers ?? []).length > 0,
  markDeleting: (ns) => {
    ns.status = { ...ns.status, phase: 'Terminating' };
  },
  columns: namespaceColumns,
  selectableFields: {
    'status.phase': (ns) => ns.status?.phase ?? '',
    name: (ns) => ns.metadata.name ?? '',
  },
});
