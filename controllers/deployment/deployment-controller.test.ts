/**
 * The deployment, replica-set and replication-controller controllers in the server's controller
 * manager (in process, on the client), with a fake EventRecorder: what they create and the
 * events they record, worded as kube's controllers word them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import { replicaSets, type ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import { replicationControllers } from '../../api/kinds/core/replication-controller.js';
import type { ReplicationController } from '../../api/kinds/core/types.js';
import { deployments, pods, tenants } from '../../src/client/builtin-kinds.js';
import type { Scope } from '../../src/client/kube-client.js';
import { startInProcessServer, testUser, type InProcessServer } from '../../src/testing/in-process-server.js';
import type { EventToRecord } from '../runtime/event-recorder.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });

const template = (app: string, image = 'nginx') => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'nginx', image }] } });

describe('workload controllers in the controller manager', () => {
  let server: InProcessServer;
  let t1: Scope;
  let space: Scope;
  const events: Array<EventToRecord & { user: string }> = [];
  const notes = (reason: string, name: string) => events.filter((e) => e.reason === reason && e.regarding.metadata.name === name && e.regarding.metadata.tenant === 't1').map((e) => e.note);

  const markReady = async (names: string[]) => {
    for (const name of names) {
      // A patch, not an update: the scheduler may bind the pod meanwhile.
      const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] };
      await t1.resource(pods).patch(name, 'merge', { status }, { subresource: 'status' });
    }
  };
  const activePods = async (prefix: string) => (await t1.resource(pods).list()).items.filter((p) => p.metadata.name!.startsWith(prefix) && !p.metadata.deletionTimestamp);

  beforeAll(async () => {
    server = await startInProcessServer({ log, controllers: { eventRecorderFor: (user) => ({ record: (event) => void events.push({ ...event, user }) }) } });
    const admin = server.clientAs(testUser('admin', 'system', ['system:masters']));
    await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } });
    t1 = admin.space('t1').namespace('default');
    space = admin.space('t1');
    await eventually(async () => expect((await admin.resource(tenants).get('t1')).status).toMatchObject({ phase: 'Active' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('a deployment scales up a new ReplicaSet, which creates its pods; events as kube words them', async () => {
    await t1.resource(deployments).create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template('web') } });
    let rs!: ReplicaSet;
    await eventually(async () => {
      const found = (await t1.resource(replicaSets).list()).items as ReplicaSet[];
      expect(found).toHaveLength(1);
      rs = found[0]!;
      expect(await activePods('web-')).toHaveLength(2);
    });
    const rsName = rs.metadata.name!;
    expect(notes('ScalingReplicaSet', 'web')).toEqual([`Scaled up replica set ${rsName} from 0 to 2`]);
    const created = (await activePods('web-')).map((p) => p.metadata.name!);
    await eventually(async () => expect(notes('SuccessfulCreate', rsName).sort()).toEqual(created.map((n) => `Created pod: ${n}`).sort()));
    expect(events.find((e) => e.reason === 'SuccessfulCreate')!.user).toBe('system:controller:replicaset-controller');
    expect(events.find((e) => e.reason === 'ScalingReplicaSet')!.user).toBe('system:controller:deployment-controller');

    await markReady(created);
    await eventually(async () => {
      const d = (await t1.resource(deployments).get('web')) as Deployment & { status: { conditions?: Array<{ type: string; reason: string; message: string }> } };
      expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 });
      expect(d.status.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([
        ['Available', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
        ['Progressing', 'NewReplicaSetAvailable', `ReplicaSet "${rsName}" has successfully progressed.`],
      ]);
    });
    const rsNow = (await t1.resource(replicaSets).get(rsName)) as ReplicaSet;
    expect(rsNow.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
    expect(rsNow.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '2',
      'deployment.kubernetes.io/max-replicas': '3',
    });
  });

  it('scaling down deletes a pod, not-ready first, with kube’s events', async () => {
    const [rs] = (await t1.resource(replicaSets).list()).items as ReplicaSet[];
    const rsName = rs!.metadata.name!;
    await t1.resource(deployments).patch('web', 'merge', { spec: { replicas: 3 } });
    await eventually(async () => expect(await activePods('web-')).toHaveLength(3));
    const unready = (await activePods('web-')).find((p) => p.status?.phase !== 'Running')!.metadata.name!;
    await t1.resource(deployments).patch('web', 'merge', { spec: { replicas: 2 } });
    await eventually(async () => expect((await activePods('web-')).map((p) => p.metadata.name)).not.toContain(unready));
    expect(notes('ScalingReplicaSet', 'web').slice(-2)).toEqual([`Scaled up replica set ${rsName} from 2 to 3`, `Scaled down replica set ${rsName} from 3 to 2`]);
    await eventually(async () => expect(notes('SuccessfulDelete', rsName)).toEqual([`Deleted pod: ${unready}`]));
  });

  it('a create refused by a quota is a FailedCreate event and the ReplicaFailure condition', async () => {
    await space.resource({ group: '', version: 'v1', resource: 'namespaces' }).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota' } });
    const ns = space.namespace('quota');
    await ns.resource({ group: '', version: 'v1', resource: 'resourcequotas' }).create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '1' } } });
    await eventually(async () => expect((await ns.resource({ group: '', version: 'v1', resource: 'resourcequotas' }).get('pods')).status).toMatchObject({ hard: { pods: '1' } }));
    await ns.resource(replicaSets).create({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'capped' }, spec: { replicas: 3, selector: { matchLabels: { app: 'capped' } }, template: template('capped') } });
    await eventually(async () => {
      const rs = (await ns.resource(replicaSets).get('capped')) as ReplicaSet & { status: { conditions?: Array<{ type: string; reason: string; message: string }> } };
      expect(rs.status.replicas).toBe(1);
      expect(rs.status.conditions?.[0]).toMatchObject({ type: 'ReplicaFailure', reason: 'FailedCreate', message: expect.stringContaining('exceeded quota: pods') });
    });
    const failed = events.filter((e) => e.reason === 'FailedCreate' && e.regarding.metadata.name === 'capped');
    expect(failed[0]).toMatchObject({ type: 'Warning', note: expect.stringMatching(/^Error creating: pods "capped-[a-z0-9]{5}" is forbidden: exceeded quota: pods/) });
  });

  it('a ReplicationController keeps its pods with the same code', async () => {
    await t1.resource(replicationControllers).create({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy' }, spec: { replicas: 2, selector: { app: 'legacy' }, template: template('legacy') } });
    await eventually(async () => expect(await activePods('legacy-')).toHaveLength(2));
    const [pod] = await activePods('legacy-');
    expect(pod!.metadata.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', controller: true, blockOwnerDeletion: true })]);
    await eventually(async () => expect(((await t1.resource(replicationControllers).get('legacy')) as ReplicationController).status).toMatchObject({ replicas: 2, observedGeneration: 1 }));
    expect(events.find((e) => e.regarding.metadata.name === 'legacy')!.user).toBe('system:controller:replication-controller');
  });
});
