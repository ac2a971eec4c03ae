import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import { metadataOnly, withoutManagedFields } from './object-transforms.js';

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', tenant: 't1', uid: 'u', resourceVersion: '7', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'o' }], managedFields: [{ manager: 'kubectl', operation: 'Update' }] },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

describe('informer object transforms', () => {
  it('withoutManagedFields drops managedFields only, leaving the cached original untouched', () => {
    const kept = withoutManagedFields(pod);
    expect(kept.metadata.managedFields).toBeUndefined();
    expect(kept.spec).toBe(pod.spec);
    expect(kept.metadata.ownerReferences).toBe(pod.metadata.ownerReferences);
    expect(pod.metadata.managedFields).toHaveLength(1);
  });

  it('withoutManagedFields hands back an object that has none as it is', () => {
    const bare = withoutManagedFields(pod);
    expect(withoutManagedFields(bare)).toBe(bare);
  });

  it('metadataOnly keeps type and metadata (owners, resourceVersion) and nothing else', () => {
    expect(metadataOnly(pod)).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', tenant: 't1', uid: 'u', resourceVersion: '7', ownerReferences: pod.metadata.ownerReferences } });
  });
});
