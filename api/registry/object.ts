/**
 * The shape every stored object shares. Objects travel as plain JSON; each kind narrows its own
 * `spec`/`status` where its strategy needs to, and the schema checks the rest.
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  /** The object's space; set by the server on every space- and namespace-scoped object. */
  tenant?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Replaces an object's fields in place, for admission: the store holds on to the object it passed. */
export function replaceContents(target: KubeObject, source: KubeObject): void {
  const fields = target as unknown as Record<string, unknown>;
  for (const key of Object.keys(fields)) delete fields[key];
  Object.assign(fields, source);
}
