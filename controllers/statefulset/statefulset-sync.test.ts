/**
 * The StatefulSet controller's decisions without a server: a partitioned rolling update stops at
 * the partition and makes lower ordinals at the current revision, OnDelete waits for deletions,
 * a rollback renumbers the old revision, failed pods are replaced, history is trimmed.
 */
import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import type { StatefulSet } from '../../api/kinds/apps/statefulset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { newRevision } from '../runtime/controller-history.js';
import { claimsFor, planStatefulSet, statefulSetPod } from './statefulset-sync.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const template = (image: string) => ({ metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image }] } });

function set(image: string, spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): StatefulSet {
  return {
    metadata: { name: 'db', namespace: 'default', tenant: 't1', uid: 'set-uid', generation: 2 },
    spec: { replicas: 3, selector: { matchLabels: { app: 'db' } }, template: template(image), podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, ...spec },
    status: { replicas: 3, ...status },
  } as StatefulSet;
}

const revision = (s: StatefulSet, image: string, number: number): ControllerRevision =>
  newRevision({ ...s, spec: { ...s.spec, template: template(image) } } as StatefulSet, 'apps/v1', 'StatefulSet', template(image), number, 0, (h) => ({ 'controller.kubernetes.io/hash': h }));

function readyPod(s: StatefulSet, rev: ControllerRevision, ordinal: number): Pod {
  const pod = statefulSetPod(s, template('x'), rev.metadata.name!, ordinal);
  pod.metadata.uid = `uid-${ordinal}`;
  pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  return pod;
}

describe('StatefulSet controller decisions', () => {
  it('updates from the highest ordinal down to the partition, and no further', () => {
    const s = set('v2', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } });
    const v1 = revision(s, 'v1', 1);
    s.status = { replicas: 3, currentRevision: v1.metadata.name };
    const pods = [0, 1, 2].map((i) => readyPod(s, v1, i));
    const first = planStatefulSet({ set: s, pods, revisions: [v1], claims: new Set(), now: NOW });
    expect(first.createRevision?.revision).toBe(2);
    expect(first.deletePods.map((p) => p.metadata.name)).toEqual(['db-2']);
    const v2 = first.createRevision!;
    // db-2 is back at v2 and ready: db-1 goes next; db-0 stays below the partition.
    const second = planStatefulSet({ set: s, pods: [pods[0]!, pods[1]!, readyPod(s, v2, 2)], revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(second.deletePods.map((p) => p.metadata.name)).toEqual(['db-1']);
    const third = planStatefulSet({ set: s, pods: [pods[0]!, readyPod(s, v2, 1), readyPod(s, v2, 2)], revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(third.deletePods).toEqual([]);
    expect(third.status).toMatchObject({ currentRevision: v1.metadata.name, updateRevision: v2.metadata.name, currentReplicas: 1, updatedReplicas: 2 });
    // A missing pod below the partition is made at the current revision.
    const recreate = planStatefulSet({ set: s, pods: [readyPod(s, v2, 1), readyPod(s, v2, 2)], revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(recreate.createPods[0]?.metadata.labels?.['controller-revision-hash']).toBe(v1.metadata.name);
    expect(recreate.createPods[0]?.spec?.containers?.[0]?.image).toBe('v1');
  });

  it('OnDelete replaces nothing by itself; a deleted pod comes back at the update revision', () => {
    const s = set('v2', { updateStrategy: { type: 'OnDelete' } });
    const v1 = revision(s, 'v1', 1);
    const v2 = revision(s, 'v2', 2);
    s.status = { replicas: 3, currentRevision: v1.metadata.name };
    const plan = planStatefulSet({ set: s, pods: [0, 1, 2].map((i) => readyPod(s, v1, i)), revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(plan.deletePods).toEqual([]);
    const again = planStatefulSet({ set: s, pods: [readyPod(s, v1, 0), readyPod(s, v1, 2)], revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(again.createPods[0]?.metadata).toMatchObject({ name: 'db-1', labels: { 'controller-revision-hash': v2.metadata.name } });
  });

  it('a template equal to an older revision renumbers it (rollback), with no new revision', () => {
    const s = set('v1');
    const v1 = revision(s, 'v1', 1);
    const v2 = revision(s, 'v2', 2);
    const plan = planStatefulSet({ set: s, pods: [], revisions: [v1, v2], claims: new Set(), now: NOW });
    expect(plan.createRevision).toBeUndefined();
    expect(plan.renumberRevision).toMatchObject({ metadata: { name: v1.metadata.name }, revision: 3 });
  });

  it('replaces a failed pod, and waits on a pod that is not ready', () => {
    const s = set('v1');
    const v1 = revision(s, 'v1', 1);
    const failed = readyPod(s, v1, 1);
    failed.status = { phase: 'Failed' };
    const plan = planStatefulSet({ set: s, pods: [readyPod(s, v1, 0), failed], revisions: [v1], claims: new Set(), now: NOW });
    expect(plan.deletePods).toEqual([failed]);
    expect(plan.createPods).toEqual([]);
    const pending = readyPod(s, v1, 0);
    pending.status = { phase: 'Pending' };
    expect(planStatefulSet({ set: s, pods: [pending], revisions: [v1], claims: new Set(), now: NOW }).createPods).toEqual([]);
  });

  it('makes claims from templates, owned by the set with whenDeleted: Delete', () => {
    const s = set('v1', {
      volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'x' } }, spec: { accessModes: ['ReadWriteOnce'] } }],
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    });
    const [claim] = claimsFor(s, 4);
    expect(claim?.metadata).toMatchObject({ name: 'data-db-4', labels: { tier: 'x', app: 'db' }, ownerReferences: [{ kind: 'StatefulSet', name: 'db', uid: 'set-uid', controller: false }] });
    const pod = statefulSetPod(s, s.spec!.template!, 'db-abc', 4);
    expect(pod.spec?.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-4' } }]);
  });

  it('keeps revisionHistoryLimit old revisions no pod uses', () => {
    const s = set('v9', { revisionHistoryLimit: 1 });
    const revisions = [1, 2, 3, 4].map((i) => revision(s, `v${i}`, i));
    const plan = planStatefulSet({ set: s, pods: [], revisions, claims: new Set(), now: NOW });
    expect(plan.deleteRevisions.map((r) => r.revision)).toEqual([1, 2, 3]);
  });
});
