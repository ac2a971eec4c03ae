import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { claimObjects, controllerReference } from './controller-ref.js';

const owner: KubeObject = { metadata: { tenant: 't1', namespace: 'default', name: 'web', uid: 'rs-uid' } };
const ref = controllerReference(owner, 'apps/v1', 'ReplicaSet');
const pod = (name: string, tenant: string, labels: Record<string, string>, refs?: OwnerReference[]): KubeObject => ({
  metadata: { tenant, namespace: 'default', name, uid: `uid-${name}`, labels, ...(refs ? { ownerReferences: refs } : {}) },
});

function recorder(canAdopt = true) {
  const writes: Array<{ name: string; refs: OwnerReference[] }> = [];
  return {
    writes,
    writer: {
      setOwnerReferences: async (obj: KubeObject, refs: OwnerReference[]) => void writes.push({ name: obj.metadata.name!, refs }),
      canAdopt: async () => canAdopt,
    },
  };
}
const matchesApp = (obj: KubeObject) => obj.metadata.labels?.['app'] === 'web';

describe('claiming pods', () => {
  it('adopts a matching orphan of its own space, never one of another space', async () => {
    const { writes, writer } = recorder();
    const claimed = await claimObjects(owner, [pod('mine', 't1', { app: 'web' }), pod('theirs', 't2', { app: 'web' })], matchesApp, ref, writer);
    expect(claimed.map((p) => p.metadata.name)).toEqual(['mine']);
    expect(writes).toEqual([{ name: 'mine', refs: [ref] }]);
    expect(ref).toMatchObject({ controller: true, blockOwnerDeletion: true, kind: 'ReplicaSet', uid: 'rs-uid' });
  });
  it('releases an owned pod that no longer matches, leaves other controllers’ pods alone', async () => {
    const { writes, writer } = recorder();
    const other: OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'other', controller: true };
    const claimed = await claimObjects(owner, [pod('relabelled', 't1', { app: 'db' }, [ref]), pod('owned', 't1', { app: 'web' }, [ref]), pod('foreign', 't1', { app: 'web' }, [other])], matchesApp, ref, writer);
    expect(claimed.map((p) => p.metadata.name)).toEqual(['owned']);
    expect(writes).toEqual([{ name: 'relabelled', refs: [] }]);
  });
  it('adopts nothing when the owner is gone or being deleted', async () => {
    const { writes, writer } = recorder(false);
    expect(await claimObjects(owner, [pod('orphan', 't1', { app: 'web' })], matchesApp, ref, writer)).toEqual([]);
    expect(writes).toEqual([]);
  });
});
