/**
 * Named schemas for apimachinery's meta/v1 types under Kubernetes' component names
 * (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`, ...), shared by every kind, plus
 * `defineKindSchema` for a kind's top-level schema. ObjectMeta carries our extra field `tenant`.
 *
 * @example
 *   defineKindSchema('io.k8s.api.core.v1.ConfigMap', { group: '', version: 'v1', kind: 'ConfigMap' }, 'Configuration data.', {
 *     data: map(string('A value.'), 'Values by key.'),
 *   });
 */
import {
  anything,
  boolean,
  define,
  described,
  int64,
  integer,
  list,
  map,
  object,
  ref,
  string,
  type GroupVersionKind,
  type Schema,
} from './schema.js';

const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export type MetaTypeName =
  | 'Time'
  | 'MicroTime'
  | 'FieldsV1'
  | 'ManagedFieldsEntry'
  | 'OwnerReference'
  | 'ObjectMeta'
  | 'ListMeta'
  | 'LabelSelectorRequirement'
  | 'LabelSelector'
  | 'Condition'
  | 'StatusCause'
  | 'StatusDetails'
  | 'Status'
  | 'Preconditions'
  | 'DeleteOptions';

/** A reference to one of the meta/v1 schemas below. */
export function metaRef(name: MetaTypeName): Schema {
  return ref(META_V1 + name);
}

/** A field whose value is an RFC 3339 timestamp (`metav1.Time`). */
export function timeField(description: string): Schema {
  return described(metaRef('Time'), description);
}

/** A field whose value is an RFC 3339 timestamp with six fraction digits (`metav1.MicroTime`). */
export function microTimeField(description: string): Schema {
  return described(metaRef('MicroTime'), description);
}

function defineMeta(name: MetaTypeName, schema: Schema): void {
  define(META_V1 + name, schema);
}

defineMeta('Time', { type: 'string', format: 'date-time', description: 'A timestamp in RFC 3339 form, to the second.' });
defineMeta('MicroTime', { type: 'string', format: 'date-time', description: 'A timestamp in RFC 3339 form, to the microsecond.' });
defineMeta('FieldsV1', anything('The set of fields a manager owns, as a trie of `f:`, `k:`, `v:` and `i:` keys.'));

defineMeta(
  'ManagedFieldsEntry',
  object('Which fields of the object one manager owns, and through which operation.', {
    apiVersion: string('The version of the resource the field set is expressed in.'),
    fieldsType: string('The format of fieldsV1; only "FieldsV1" exists.'),
    fieldsV1: described(metaRef('FieldsV1'), 'The owned fields.'),
    manager: string('Who manages these fields (the field manager of the request).'),
    operation: string('How the fields were last written: "Apply" or "Update".'),
    subresource: string('The subresource the fields were written through, if any.'),
    time: timeField('When the manager last changed one of these fields.'),
  }),
);

defineMeta(
  'OwnerReference',
  object(
    'A reference to an object this one depends on. The owner lives in the same namespace (or is not namespaced).',
    {
      apiVersion: string('API version of the owner.'),
      blockOwnerDeletion: boolean('If true and the owner is deleted in the foreground, the owner waits for this object to go first.'),
      controller: boolean('If true, the owner is this object’s managing controller. At most one reference may say so.'),
      kind: string('Kind of the owner.'),
      name: string('Name of the owner.'),
      uid: string('UID of the owner.'),
    },
    { required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineMeta(
  'ObjectMeta',
  object('Metadata every stored object has: identity, labels, annotations, ownership and lifecycle.', {
    annotations: map(string('An annotation value.'), 'Unstructured key/value data for tools; not used for selection.'),
    creationTimestamp: timeField('When the object was created. Set by the server; read-only.'),
    deletionGracePeriodSeconds: int64('Seconds the object has to terminate gracefully once deletion started. Set by the server.'),
    deletionTimestamp: timeField('When deletion was requested. Set by the server; the object goes once its finalizers are gone.'),
    finalizers: list(string('A finalizer name.'), 'Components that must finish before the object is removed from storage.', {
      strategy: 'merge',
      listType: 'set',
    }),
    generateName: string('A prefix from which the server makes a unique name when `name` is empty.'),
    generation: int64('A counter of changes to the desired state. Set by the server.'),
    labels: map(string('A label value.'), 'Key/value pairs used to organize and select objects.'),
    managedFields: list(described(metaRef('ManagedFieldsEntry'), 'One manager’s fields.'), 'Which field manager owns which fields.', {
      listType: 'atomic',
    }),
    name: string('Name of the object, unique within its namespace (or space). Cannot be changed.'),
    namespace: string('Namespace of the object, for namespaced kinds. Cannot be changed.'),
    ownerReferences: list(described(metaRef('OwnerReference'), 'One owner.'), 'Objects this one depends on; it is garbage collected when all are gone.', {
      mergeKey: 'uid',
      strategy: 'merge',
    }),
    resourceVersion: string('An opaque version of the object, for optimistic concurrency and watches. Set by the server.'),
    selfLink: string('Deprecated and no longer set.'),
    tenant: string('The space the object belongs to. Set by the server from the request; cannot be changed.'),
    uid: string('A unique identifier of this object in time and space. Set by the server.'),
  }),
);

defineMeta(
  'ListMeta',
  object('Metadata of a list response.', {
    continue: string('A token for the next page of a chunked list, if there is one.'),
    remainingItemCount: int64('An estimate of how many items the remaining pages hold.'),
    resourceVersion: string('The revision the list was read at.'),
    selfLink: string('Deprecated and no longer set.'),
  }),
);

defineMeta(
  'LabelSelectorRequirement',
  object(
    'One requirement of a label selector: a key, an operator and values.',
    {
      key: string('The label key the requirement applies to.'),
      operator: string('In, NotIn, Exists or DoesNotExist.'),
      values: list(string('A label value.'), 'Values for In and NotIn; must be empty for Exists and DoesNotExist.', { listType: 'atomic' }),
    },
    { required: ['key', 'operator'] },
  ),
);

defineMeta(
  'LabelSelector',
  object(
    'A label query. All requirements are ANDed; an empty selector matches everything, a missing one nothing.',
    {
      matchExpressions: list(described(metaRef('LabelSelectorRequirement'), 'One requirement.'), 'Requirements on label values.', {
        listType: 'atomic',
      }),
      matchLabels: map(string('A label value.'), 'Labels that must be present with these exact values.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineMeta(
  'Condition',
  object(
    'One aspect of an object’s current state.',
    {
      lastTransitionTime: timeField('When the status last changed.'),
      message: string('A human-readable explanation.'),
      observedGeneration: int64('The metadata.generation the condition was computed from.'),
      reason: string('A CamelCase, machine-readable reason for the last transition.'),
      status: string('True, False or Unknown.'),
      type: string('The condition’s type, in CamelCase or as foo.example.com/CamelCase.'),
    },
    { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] },
  ),
);

defineMeta(
  'StatusCause',
  object('One cause of an error, often one invalid field.', {
    field: string('The field at fault, as a path like `spec.containers[0].name`.'),
    message: string('What is wrong with it.'),
    reason: string('A machine-readable cause, such as FieldValueRequired.'),
  }),
);

defineMeta(
  'StatusDetails',
  object('More about an error: the object it concerns and its causes.', {
    causes: list(described(metaRef('StatusCause'), 'One cause.'), 'The individual causes.', { listType: 'atomic' }),
    group: string('API group of the object.'),
    kind: string('Kind of the object.'),
    name: string('Name of the object.'),
    retryAfterSeconds: integer('Seconds to wait before retrying, when that helps.'),
    uid: string('UID of the object.'),
  }),
);

defineMeta(
  'Status',
  {
    ...object('The outcome of a call that returns no object, and every error.', {
      apiVersion: string('Versioned schema of this representation.'),
      code: integer('The HTTP status code.'),
      details: described(metaRef('StatusDetails'), 'Extra data depending on the reason.'),
      kind: string('The kind, "Status".'),
      message: string('A human-readable description.'),
      metadata: described(metaRef('ListMeta'), 'List metadata.'),
      reason: string('A machine-readable reason, such as NotFound or Invalid.'),
      status: string('"Success" or "Failure".'),
    }),
    'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }],
  },
);

defineMeta(
  'Preconditions',
  object('Conditions the object must meet for the operation to go ahead.', {
    resourceVersion: string('The resourceVersion the object must have.'),
    uid: string('The UID the object must have.'),
  }),
);

defineMeta(
  'DeleteOptions',
  object('Options for a delete request.', {
    apiVersion: string('Versioned schema of this representation.'),
    dryRun: list(string('A dry-run directive.'), 'If "All", run every stage but persist nothing.', { listType: 'atomic' }),
    gracePeriodSeconds: int64('Seconds before the object is deleted; 0 deletes at once.'),
    ignoreStoreReadErrorWithClusterBreakingPotential: boolean('Delete even an object that cannot be read back; dangerous.'),
    kind: string('The kind, "DeleteOptions".'),
    orphanDependents: boolean('Deprecated: use propagationPolicy.'),
    preconditions: described(metaRef('Preconditions'), 'Conditions that must hold; a mismatch answers 409 Conflict.'),
    propagationPolicy: string('What happens to dependents: Orphan, Background or Foreground.'),
  }),
);

/**
 * Registers a kind's top-level schema: `apiVersion`, `kind`, `metadata` and the given fields,
 * tagged with the kind's group/version/kind as kubectl expects. Returns a reference to it.
 */
export function defineKindSchema(name: string, gvk: GroupVersionKind, description: string, properties: Record<string, Schema>, required?: string[]): Schema {
  return define(name, {
    ...object(description, {
      apiVersion: string('The versioned schema of this representation, e.g. "v1" or "apps/v1".'),
      kind: string('The kind of object this is, in CamelCase.'),
      metadata: described(metaRef('ObjectMeta'), 'Standard object metadata.'),
      ...properties,
    }),
    ...(required ? { required } : {}),
    'x-kubernetes-group-version-kind': [gvk],
  });
}
