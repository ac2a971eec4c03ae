/**
 * Batch and stateful workloads as a kubectl user meets them, in two spaces with the same names:
 * a Job completes (its pod's success written as a kubelet would, by the system admin through
 * `kubectl patch --subresource=status`, since no kubelet runs here) and shows `Complete 1/1`;
 * a Job past its backoffLimit fails with BackoffLimitExceeded after one replacement; an Indexed
 * job runs one pod per index; a StatefulSet creates its pods in order as each turns Ready, scales
 * down from the top, and `kubectl rollout history/undo` use its ControllerRevisions; a CronJob
 * makes a job on its schedule; a DaemonSet is the system space's only. Stock kubectl 1.27 (t1)
 * and 1.33 (t2), on SQLite and on etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { certificateKubeconfig, createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

const indexedJob = JSON.stringify({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'idx' },
  spec: { completionMode: 'Indexed', completions: 3, parallelism: 3, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } } },
});

const flakyJob = JSON.stringify({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'flaky' },
  spec: { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } } },
});

const statefulSet = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    serviceName: 'web',
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  },
});

const daemonSet = (namespace: string) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:1' }] } } },
  });

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
/** What a kubelet would write: the phase, Ready, and container states. */
function podStatus(phase: 'Running' | 'Succeeded' | 'Failed'): string {
  const t = now();
  const ready = phase === 'Running' ? 'True' : 'False';
  const state = phase === 'Running' ? { running: { startedAt: t } } : { terminated: { exitCode: phase === 'Succeeded' ? 0 : 1, reason: phase === 'Succeeded' ? 'Completed' : 'Error', startedAt: t, finishedAt: t } };
  return JSON.stringify({
    status: {
      phase,
      startTime: t,
      conditions: [
        { type: 'Ready', status: ready, lastTransitionTime: t },
        { type: 'ContainersReady', status: ready, lastTransitionTime: t },
      ],
      containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: phase === 'Running', restartCount: 0, started: phase === 'Running', state }],
    },
  });
}

describe.each(backendCases(kubectlPath !== undefined))('batch workloads on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl in two spaces', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    const users: Record<string, UserCredentials> = {};
    /** The system admin inside each space (`--space t1`), for what only a kubelet would write. */
    const systemIn: Record<string, string> = {};
    const version: Record<string, KubectlVersion> = { t1: '1.27', t2: '1.33' };
    const k = (tenant: string, args: string[], stdin?: string) => kubectl.run(args, { version: version[tenant], kubeconfig: users[tenant]!.kubeconfig, stdin });
    const asSystem = (tenant: string, args: string[]) => kubectl.run(args, { version: version[tenant], kubeconfig: systemIn[tenant] });
    const setPhase = async (tenant: string, pod: string, phase: 'Running' | 'Succeeded' | 'Failed') =>
      ok(await asSystem(tenant, ['patch', 'pod', pod, '--subresource=status', '--type=merge', '-p', podStatus(phase)]));
    const podNames = async (tenant: string, selector: string) =>
      ok(await k(tenant, ['get', 'pods', '-l', selector, '-o', 'jsonpath={.items[*].metadata.name}']))
        .split(' ')
        .filter(Boolean)
        .sort();
    const jsonpath = async (tenant: string, what: string[], path: string) => ok(await k(tenant, ['get', ...what, '-o', `jsonpath=${path}`]));

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      for (const [tenant, user] of [['t1', 'alice'], ['t2', 'bob']] as const) {
        users[tenant] = await userKubeconfig(cluster, { tenant, user });
        await grantAndWait(cluster, { tenant, clusterRole: 'cluster-admin', user }, users[tenant]!.api, '/api/v1/namespaces');
        systemIn[tenant] = (await certificateKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: tenant })).kubeconfig;
      }
      // The cron jobs start first: their first run comes at the next minute, checked last.
      for (const tenant of ['t1', 't2']) ok(await k(tenant, ['create', 'cronjob', 'hello', '--image=busybox', '--schedule=*/1 * * * *', '--', 'date']));
    });

    afterAll(async () => {
      for (const u of Object.values(users)) u.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('a Job completes once its pod succeeds, shows Complete 1/1, and the other space’s is untouched', async () => {
      for (const tenant of ['t1', 't2']) ok(await k(tenant, ['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-e', 'print 1']));
      let pod = '';
      await eventually('the job’s pod', async () => {
        [pod = ''] = await podNames('t1', 'job-name=pi');
        return pod !== '';
      });
      expect(pod).toMatch(/^pi-[a-z0-9]{5}$/);
      expect(await jsonpath('t1', ['pod', pod], '{.metadata.finalizers}')).toBe('["batch.kubernetes.io/job-tracking"]');
      await setPhase('t1', pod, 'Succeeded');
      ok(await k('t1', ['wait', '--for=condition=complete', 'job/pi', '--timeout=30s']));
      const table = parseTable(ok(await k('t1', ['get', 'jobs'])));
      expect(table.row('pi')).toMatchObject({ STATUS: 'Complete', COMPLETIONS: '1/1' });
      expect(await jsonpath('t1', ['job', 'pi'], '{.status.succeeded} {.status.conditions[?(@.type=="Complete")].reason}')).toBe('1 CompletionsReached');
      // The controller's events, as kube words them, in t1 only.
      const events = (tenant: string) =>
        jsonpath(tenant, ['events', '--field-selector', 'involvedObject.kind=Job,involvedObject.name=pi'], '{range .items[*]}{.reason}: {.message}{"\\n"}{end}');
      await eventually('the job’s events', async () => {
        const seen = await events('t1');
        return seen.includes(`SuccessfulCreate: Created pod: ${pod}\n`) && seen.includes('Completed: Job completed\n');
      });
      expect(await events('t2')).not.toContain(pod);
      // t2's job of the same name waits on its own pod.
      const t2 = parseTable(ok(await k('t2', ['get', 'jobs'])));
      expect(t2.row('pi')).toMatchObject({ STATUS: 'Running', COMPLETIONS: '0/1' });
      expect(await podNames('t2', 'job-name=pi')).toHaveLength(1);
    });

    it('a Job past its backoffLimit fails with BackoffLimitExceeded, after one replacement', async () => {
      ok(await k('t2', ['create', '-f', '-'], flakyJob));
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        let pods: string[] = [];
        // The replacement comes after kube's 10 s backoff.
        await eventually(`pod ${attempt} of flaky`, async () => (pods = await podNames('t2', 'job-name=flaky')).length === attempt, 30_000);
        const phases = await jsonpath('t2', ['pods', '-l', 'job-name=flaky'], '{range .items[*]}{.metadata.name}={.status.phase}{"\\n"}{end}');
        const running = phases
          .split('\n')
          .filter((l) => l && !l.endsWith('=Failed'))
          .map((l) => l.split('=')[0]!);
        expect(running).toHaveLength(1);
        await setPhase('t2', running[0]!, 'Failed');
      }
      ok(await k('t2', ['wait', '--for=condition=failed', 'job/flaky', '--timeout=30s']));
      expect(await jsonpath('t2', ['job', 'flaky'], '{.status.failed} {.status.conditions[?(@.type=="Failed")].reason}')).toBe('2 BackoffLimitExceeded');
      expect(parseTable(ok(await k('t2', ['get', 'job', 'flaky']))).row('flaky')).toMatchObject({ STATUS: 'Failed', COMPLETIONS: '0/1' });
      await eventually('the BackoffLimitExceeded warning', async () =>
        (await jsonpath('t2', ['events', '--field-selector', 'involvedObject.name=flaky,type=Warning'], '{range .items[*]}{.reason}: {.message}{"\\n"}{end}')).includes(
          'BackoffLimitExceeded: Job has reached the specified backoff limit\n',
        ),
      );
    });

    it('an Indexed job runs one pod per index and completes 3/3', async () => {
      ok(await k('t1', ['create', '-f', '-'], indexedJob));
      let pods: string[] = [];
      await eventually('three indexed pods', async () => (pods = await podNames('t1', 'job-name=idx')).length === 3);
      const indexes = await jsonpath('t1', ['pods', '-l', 'job-name=idx'], '{.items[*].metadata.labels.batch\\.kubernetes\\.io/job-completion-index}');
      expect(indexes.split(' ').sort()).toEqual(['0', '1', '2']);
      for (const pod of pods) await setPhase('t1', pod, 'Succeeded');
      ok(await k('t1', ['wait', '--for=condition=complete', 'job/idx', '--timeout=30s']));
      expect(parseTable(ok(await k('t1', ['get', 'job', 'idx']))).row('idx')).toMatchObject({ STATUS: 'Complete', COMPLETIONS: '3/3' });
      expect(await jsonpath('t1', ['job', 'idx'], '{.status.completedIndexes}')).toBe('0-2');
    });

    it('a StatefulSet creates its pods in order, scales down from the top, and rolls back', async () => {
      for (const tenant of ['t1', 't2']) ok(await k(tenant, ['create', '-f', '-'], statefulSet));
      for (const [i, expected] of [['web-0'], ['web-0', 'web-1'], ['web-0', 'web-1', 'web-2']].entries()) {
        await eventually(`pods ${expected.join(',')}`, async () => (await podNames('t1', 'app=web')).join() === expected.join());
        await setPhase('t1', `web-${i}`, 'Running');
      }
      await eventually('READY 3/3', async () => parseTable(ok(await k('t1', ['get', 'statefulset', 'web']))).row('web').READY === '3/3');
      const stsEvents = await jsonpath('t1', ['events', '--field-selector', 'involvedObject.kind=StatefulSet,involvedObject.name=web'], '{range .items[*]}{.message}{"\\n"}{end}');
      for (const i of [0, 1, 2]) expect(stsEvents).toContain(`create Pod web-${i} in StatefulSet web successful`);
      // t2's web waits on its own web-0, which nobody made ready.
      expect(await podNames('t2', 'app=web')).toEqual(['web-0']);
      expect(parseTable(ok(await k('t2', ['get', 'sts', 'web']))).row('web').READY).toBe('0/3');

      ok(await k('t1', ['scale', 'statefulset', 'web', '--replicas=1']));
      await eventually('scale down to web-0', async () => (await podNames('t1', 'app=web')).join() === 'web-0');

      ok(await k('t1', ['set', 'image', 'statefulset/web', 'nginx=nginx:1.28']));
      await eventually('web-0 at the new image', async () => (await jsonpath('t1', ['pod', 'web-0'], '{.spec.containers[0].image}')) === 'nginx:1.28');
      await setPhase('t1', 'web-0', 'Running');
      const history = ok(await k('t1', ['rollout', 'history', 'statefulset/web']));
      expect(parseTable(history.replace('REVISION', 'NAME')).names()).toEqual(['1', '2']);
      ok(await k('t1', ['rollout', 'undo', 'statefulset/web']));
      await eventually('web-0 back at the old image', async () => (await jsonpath('t1', ['pod', 'web-0'], '{.spec.containers[0].image}')) === 'nginx:1.27');
      await setPhase('t1', 'web-0', 'Running');
      ok(await k('t1', ['rollout', 'status', 'statefulset/web', '--timeout=30s']));
    });

    it('a DaemonSet is refused in a tenant space, accepted in the system space', async () => {
      const refused = await k('t1', ['create', '-f', '-'], daemonSet('default'));
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('daemonsets.apps "agent" is forbidden: DaemonSets may only be created in the system space');
      ok(await kubectl.run(['create', '-f', '-'], { stdin: daemonSet('kube-system') }));
      const table = parseTable(ok(await kubectl.run(['get', 'daemonset', 'agent', '-n', 'kube-system'])));
      expect(table.row('agent')).toMatchObject({ DESIRED: '0' });
    });

    it('a CronJob makes a Job on its schedule, in each space its own', async () => {
      const uid = async (tenant: string) => jsonpath(tenant, ['cronjob', 'hello'], '{.metadata.uid}');
      for (const tenant of ['t1', 't2']) {
        let job = '';
        await eventually(
          `${tenant}'s first scheduled job`,
          async () => {
            // The first run (later minutes may have made more by now).
            job = (await jsonpath(tenant, ['jobs'], '{.items[?(@.metadata.ownerReferences[0].kind=="CronJob")].metadata.name}')).trim().split(' ').sort()[0] ?? '';
            return job !== '';
          },
          75_000,
        );
        expect(job).toMatch(/^hello-\d+$/);
        expect(await jsonpath(tenant, ['job', job], '{.metadata.ownerReferences[0].uid}')).toBe(await uid(tenant));
        expect(await jsonpath(tenant, ['job', job], '{.metadata.annotations.batch\\.kubernetes\\.io/cronjob-scheduled-timestamp}')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
        await eventually(`${tenant}'s cron job to list it active`, async () => (await jsonpath(tenant, ['cronjob', 'hello'], '{.status.active[*].name}')).split(' ').includes(job));
        const row = parseTable(ok(await k(tenant, ['get', 'cronjob', 'hello']))).row('hello');
        expect(row).toMatchObject({ SCHEDULE: '*/1 * * * *' });
        expect(Number(row.ACTIVE)).toBeGreaterThanOrEqual(1);
        expect(row['LAST SCHEDULE']).not.toBe('<none>');
      }
    });

    it('the controllers logged no failure', () => {
      expect(cluster.server.output()).not.toMatch(/"controller":"(job|cronjob|statefulset|daemonset|ttl-after-finished)"/);
    });
  });
});

/**
 * The same workloads with nothing simulated by hand: `serve --simulate-nodes 2` places, runs and
 * finishes the pods (the scheduler binds them, the simulator makes them Running and Ready and
 * ends run-to-completion containers with exit code 0), so a Job completes, a StatefulSet rolls out
 * in order and a system DaemonSet runs one ready pod on each simulated node.
 */
describe.each(backendCases(kubectlPath !== undefined))('batch workloads on simulated nodes, $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('serve --simulate-nodes 2', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;
    const k = (args: string[], stdin?: string) => kubectl.run(args, { version: '1.33', kubeconfig: alice.kubeconfig, stdin });

    beforeAll(async () => {
      cluster = await startCluster(backend, { extraArgs: ['--simulate-nodes', '2', '--simulate-pod-runtime', '1s'] });
      await createTenants(cluster, 't1');
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
    });

    afterAll(async () => {
      alice?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('a Job completes by itself: Complete 1/1', async () => {
      ok(await k(['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-e', 'print 1']));
      ok(await k(['wait', '--for=condition=complete', 'job/pi', '--timeout=60s']));
      expect(parseTable(ok(await k(['get', 'jobs']))).row('pi')).toMatchObject({ STATUS: 'Complete', COMPLETIONS: '1/1' });
    });

    it('a StatefulSet rolls out in order: kubectl rollout status completes', async () => {
      ok(await k(['create', '-f', '-'], statefulSet));
      ok(await k(['rollout', 'status', 'statefulset/web', '--timeout=90s']));
      expect(parseTable(ok(await k(['get', 'statefulset', 'web']))).row('web').READY).toBe('3/3');
      const created = ok(await k(['get', 'pods', '-l', 'app=web', '--sort-by=.metadata.creationTimestamp', '-o', 'jsonpath={.items[*].metadata.name}']));
      expect(created).toBe('web-0 web-1 web-2');
    });

    it('a system DaemonSet runs one ready pod on each simulated node', async () => {
      ok(await kubectl.run(['create', '-f', '-'], { stdin: daemonSet('kube-system') }));
      await eventually(
        'DESIRED 2, READY 2',
        async () => {
          const row = parseTable(ok(await kubectl.run(['get', 'daemonset', 'agent', '-n', 'kube-system']))).row('agent');
          return row.DESIRED === '2' && row.READY === '2' && row['UP-TO-DATE'] === '2';
        },
        60_000,
      );
      const nodes = ok(await kubectl.run(['get', 'pods', '-n', 'kube-system', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.nodeName}']));
      expect(nodes.split(' ').sort()).toHaveLength(2);
      expect(new Set(nodes.split(' ')).size).toBe(2);
    });
  });
});
