/**
 * What an informer keeps of each object, applied before it is cached (client-go's
 * `SetTransform`). Controllers never read `managedFields`, which is often a third of an object's
 * size; a write of an object without them keeps the stored ones (the server's rule, as kube's).
 *
 * @example
 *   const informers = new InformerFactory(clientSources(client, withoutManagedFields), onError);
 */
import type { KubeObject } from '../../api/registry/object.js';

export type ObjectTransform = (obj: KubeObject) => KubeObject;

export const withoutManagedFields: ObjectTransform = (obj) => {
  if (obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

/**
 * Type and metadata alone, as a metadata informer's PartialObjectMetadata: all the garbage
 * collector judges (owners, finalizers, deletion) and needs for its preconditioned deletes.
 */
export const metadataOnly: ObjectTransform = (obj) => {
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata };
};
