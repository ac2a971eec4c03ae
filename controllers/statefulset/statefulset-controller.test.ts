/**
 * The StatefulSet controller in the server's controller manager: pods `<set>-<ordinal>` made in
 * order, each once the one before is Running and Ready, with their identity labels, hostname,
 * subdomain and claims; a rolling update from the highest ordinal down; a scale-down from the
 * highest ordinal; ControllerRevisions; and a same-named set in another space left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import type { StatefulSet } from '../../api/kinds/apps/statefulset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { eventually, startWorkloadTestServer, type WorkloadTestServer } from '../../src/testing/workload-test-server.js';
import { FakeEvents } from '../runtime/fake-event-recorder.js';

const set = (name: string, replicas: number, image = 'nginx:1.27') => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
    volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});

describe('statefulset controller', () => {
  let s: WorkloadTestServer;
  const events = new FakeEvents();
  const podNames = async (tenant: string, app: string) =>
    (await s.list<Pod>('', 'pods', tenant, 'default'))
      .filter((p) => p.metadata.labels?.app === app)
      .map((p) => p.metadata.name!)
      .sort();
  const pod = (tenant: string, name: string) => s.read<Pod>('', 'pods', { tenant, namespace: 'default', name });
  const readSet = (tenant: string, name: string) => s.read<StatefulSet>('apps', 'statefulsets', { tenant, namespace: 'default', name });
  const ready = async (tenant: string, name: string) => s.setPodPhase((await pod(tenant, name))!, 'Running');

  beforeAll(async () => {
    s = await startWorkloadTestServer({ eventRecorderFor: events.for });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creates pods in order, each after the previous is Running and Ready', async () => {
    const created = await s.create<StatefulSet>('apps', 'statefulsets', 't1', set('web', 3));
    await s.create('apps', 'statefulsets', 't2', set('web', 1));
    await eventually(async () => expect(await podNames('t1', 'web')).toEqual(['web-0']));
    const web0 = (await pod('t1', 'web-0'))!;
    const revisions = await s.list<ControllerRevision>('apps', 'controllerrevisions', 't1', 'default');
    expect(revisions).toHaveLength(1);
    const revision = revisions[0]!;
    expect(revision.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', uid: created.metadata.uid, controller: true });
    expect(revision.revision).toBe(1);
    expect(web0.metadata.labels).toEqual({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-0',
      'apps.kubernetes.io/pod-index': '0',
      'controller-revision-hash': revision.metadata.name,
    });
    expect(web0.spec).toMatchObject({ hostname: 'web-0', subdomain: 'web' });
    expect(web0.spec?.volumes?.[0]).toEqual({ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } });
    expect(await s.read('', 'persistentvolumeclaims', { tenant: 't1', namespace: 'default', name: 'www-web-0' })).toMatchObject({ metadata: { labels: { app: 'web' } } });

    // Nothing more until web-0 is ready.
    await new Promise((r) => setTimeout(r, 300));
    expect(await podNames('t1', 'web')).toEqual(['web-0']);
    await ready('t1', 'web-0');
    await eventually(async () => expect(await podNames('t1', 'web')).toEqual(['web-0', 'web-1']));
    await ready('t1', 'web-1');
    await eventually(async () => expect(await podNames('t1', 'web')).toEqual(['web-0', 'web-1', 'web-2']));
    await ready('t1', 'web-2');
    await eventually(async () => {
      const status = (await readSet('t1', 'web'))?.status;
      expect(status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, currentRevision: revision.metadata.name, updateRevision: revision.metadata.name });
    });
    expect(events.notes('SuccessfulCreate', { tenant: 't1', name: 'web' })).toEqual(
      expect.arrayContaining(['create Claim www-web-0 Pod web-0 in StatefulSet web success', 'create Pod web-0 in StatefulSet web successful', 'create Pod web-2 in StatefulSet web successful']),
    );
    // t2's web is its own: one pod, its own claim.
    expect(await podNames('t2', 'web')).toEqual(['web-0']);
    expect((await pod('t2', 'web-0'))?.metadata.ownerReferences?.[0]?.uid).not.toBe(created.metadata.uid);
  });

  it('rolls an update from the highest ordinal down, one ready pod at a time', async () => {
    await s.server.plane.generic.mutate(s.kind('apps', 'statefulsets'), { tenant: 't1', namespace: 'default', name: 'web' }, (obj) => {
      const next = structuredClone(obj) as StatefulSet;
      next.spec!.template!.spec!.containers![0]!.image = 'nginx:1.28';
      return next;
    });
    let updateRevision = '';
    await eventually(async () => {
      const status = (await readSet('t1', 'web'))?.status as { updateRevision?: string; currentRevision?: string } | undefined;
      expect(status?.updateRevision).not.toBe(status?.currentRevision);
      updateRevision = status!.updateRevision!;
    });
    const revisionOf = async (name: string) => (await pod('t1', name))?.metadata.labels?.['controller-revision-hash'];
    for (const name of ['web-2', 'web-1', 'web-0']) {
      await eventually(async () => expect(await revisionOf(name)).toBe(updateRevision));
      const p = (await pod('t1', name))!;
      expect(p.spec?.containers?.[0]?.image).toBe('nginx:1.28');
      // The lower ordinals wait for this one.
      if (name !== 'web-0') expect(await revisionOf(name === 'web-2' ? 'web-1' : 'web-0')).not.toBe(updateRevision);
      await ready('t1', name);
    }
    await eventually(async () => expect((await readSet('t1', 'web'))?.status).toMatchObject({ currentRevision: updateRevision, updatedReplicas: 3, readyReplicas: 3 }));
    expect(await s.list<ControllerRevision>('apps', 'controllerrevisions', 't1', 'default')).toHaveLength(2);
  });

  it('scales down from the highest ordinal, keeping the claims', async () => {
    await s.server.plane.generic.mutate(s.kind('apps', 'statefulsets'), { tenant: 't1', namespace: 'default', name: 'web' }, (obj) => ({
      ...obj,
      spec: { ...(obj.spec as object), replicas: 1 },
    }));
    await eventually(async () => expect(await podNames('t1', 'web')).toEqual(['web-0']));
    await eventually(async () => expect((await readSet('t1', 'web'))?.status).toMatchObject({ replicas: 1, readyReplicas: 1 }));
    const claims = (await s.list<KubeObject>('', 'persistentvolumeclaims', 't1', 'default')).map((c) => c.metadata.name).sort();
    expect(claims).toEqual(['www-web-0', 'www-web-1', 'www-web-2']);
    expect(events.notes('SuccessfulDelete', { tenant: 't1', name: 'web' })).toContain('delete Pod web-2 in StatefulSet web successful');
  });

  it('creates every pod at once with podManagementPolicy Parallel', async () => {
    const parallel = set('par', 3);
    (parallel.spec as Record<string, unknown>).podManagementPolicy = 'Parallel';
    await s.create('apps', 'statefulsets', 't1', parallel);
    await eventually(async () => expect(await podNames('t1', 'par')).toEqual(['par-0', 'par-1', 'par-2']));
  });
});
