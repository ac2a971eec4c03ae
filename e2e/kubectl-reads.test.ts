/**
 * What a user sees from stock kubectl's read commands (kubectl-contract.md sections 10 and 11)
 * for pods, deployments, services, configmaps, secrets and namespaces: table columns, `-o wide`,
 * `-o yaml/json`, `-A`, selectors, chunking, labels, sorting, watches, describe, wait, rollout
 * status, discovery, explain and OpenAPI. kubectl 1.27 and 1.33 (the one the dispatcher picks
 * from our /version), against the built server on SQLite and on a real etcd. One server per
 * backend; every case works in namespaces of its own. Fixtures are created over HTTPS; only the
 * command under test goes through kubectl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { describeFields, FRESH_AGE, parseTable } from './harness/kubectl-output.js';
import { configMap, deployment, pod, secret, service } from './harness/manifests.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27']);

const VERSIONS: Array<{ label: string; version: KubectlVersion }> = [
  { label: '1.27', version: '1.27' },
  { label: '1.33 (picked by the dispatcher)', version: 'dispatcher' },
];

/** Asserts exit code 0 (showing stderr otherwise) and returns stdout. */
function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe.each(backendCases(kubectlPath !== undefined))('kubectl reads on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster(backend);
    });
    afterAll(() => cluster?.cleanup());

    describe.each(VERSIONS)('kubectl $label', ({ version }) => {
      let kubectl: Kubectl;
      const k = (args: string[], options: { stdin?: string; timeoutMs?: number } = {}): Promise<KubectlResult> => kubectl.run(args, { version, ...options });

      beforeAll(async () => {
        kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      });
      afterAll(() => kubectl?.cleanup());

      describe('get: the columns kubectl users know', () => {
        it('pods: NAME READY STATUS RESTARTS AGE, and IP NODE … with -o wide', async () => {
          const ns = await cluster.newNamespace('get-pods');
          await cluster.create(pod(ns, 'web-0'));
          const table = parseTable(ok(await k(['get', 'pods', '-n', ns])));
          expect(table.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
          expect(table.row('web-0')).toMatchObject({ READY: '0/1', STATUS: 'Pending', RESTARTS: '0', AGE: expect.stringMatching(FRESH_AGE) });

          const wide = parseTable(ok(await k(['get', 'pods', '-n', ns, '-o', 'wide'])));
          expect(wide.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
          expect(wide.row('web-0')).toMatchObject({ IP: '<none>', NODE: '<none>', 'NOMINATED NODE': '<none>', 'READINESS GATES': '<none>' });
        });

        it('deployments: NAME READY UP-TO-DATE AVAILABLE AGE, and CONTAINERS IMAGES SELECTOR with -o wide', async () => {
          const ns = await cluster.newNamespace('get-deploy');
          await cluster.create(deployment(ns, 'web', 3));
          const table = parseTable(ok(await k(['get', 'deployments', '-n', ns])));
          expect(table.header).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
          // The deployment controller makes its pods meanwhile; no node runs them, so none is ready.
          expect(table.row('web')).toMatchObject({ READY: '0/3', 'UP-TO-DATE': expect.stringMatching(/^[0-3]$/), AVAILABLE: '0' });

          const wide = parseTable(ok(await k(['get', 'deploy', '-n', ns, '-o', 'wide'])));
          expect(wide.header).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
          expect(wide.row('web')).toMatchObject({ CONTAINERS: 'main', IMAGES: 'nginx:1.27', SELECTOR: 'app=web' });
        });

        it('services: TYPE CLUSTER-IP EXTERNAL-IP PORT(S), a cluster IP from the service range, SELECTOR with -o wide', async () => {
          const ns = await cluster.newNamespace('get-svc');
          await cluster.create(service(ns, 'web'), service(ns, 'api'));
          const table = parseTable(ok(await k(['get', 'services', '-n', ns])));
          expect(table.header).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
          const web = table.row('web');
          expect(web).toMatchObject({ TYPE: 'ClusterIP', 'EXTERNAL-IP': '<none>', 'PORT(S)': '80/TCP' });
          // The default range is 10.96.0.0/12; two services never share an IP.
          expect(web['CLUSTER-IP']).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
          expect(table.row('api')['CLUSTER-IP']).not.toBe(web['CLUSTER-IP']);

          const wide = parseTable(ok(await k(['get', 'svc', '-n', ns, '-o', 'wide'])));
          expect(wide.header.at(-1)).toBe('SELECTOR');
          expect(wide.row('web')['SELECTOR']).toBe('app=web');
        });

        it('configmaps: NAME DATA AGE; secrets: NAME TYPE DATA AGE', async () => {
          const ns = await cluster.newNamespace('get-data');
          await cluster.create(configMap(ns, 'settings', { a: '1', b: '2', c: '3' }), secret(ns, 'creds', { user: 'u', password: 'p' }));
          const cms = parseTable(ok(await k(['get', 'cm', '-n', ns])));
          expect(cms.header).toEqual(['NAME', 'DATA', 'AGE']);
          expect(cms.row('settings')['DATA']).toBe('3');
          const secrets = parseTable(ok(await k(['get', 'secrets', '-n', ns])));
          expect(secrets.header).toEqual(['NAME', 'TYPE', 'DATA', 'AGE']);
          expect(secrets.row('creds')).toMatchObject({ TYPE: 'Opaque', DATA: '2' });
        });

        it('namespaces: NAME STATUS AGE, the initial ones Active', async () => {
          const ns = await cluster.newNamespace('get-ns');
          const table = parseTable(ok(await k(['get', 'namespaces'])));
          expect(table.header).toEqual(['NAME', 'STATUS', 'AGE']);
          for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', ns]) expect(table.row(name)['STATUS']).toBe('Active');
          expect(parseTable(ok(await k(['get', 'ns', ns, '-o', 'wide']))).header).toEqual(['NAME', 'STATUS', 'AGE']);
        });

        it('several kinds at once and `get all` print one table per kind with kind/name', async () => {
          const ns = await cluster.newNamespace('get-all');
          await cluster.create(pod(ns, 'p'), deployment(ns, 'd'), service(ns, 's'), configMap(ns, 'c'));
          const all = ok(await k(['get', 'all', '-n', ns]));
          expect(all).toMatch(/^pod\/p\s+0\/1\s+Pending/m);
          expect(all).toMatch(/^service\/s\s+ClusterIP/m);
          expect(all).toMatch(/^deployment\.apps\/d\s+0\/2/m);
          // configmaps are not in the `all` category.
          expect(all).not.toContain('configmap/c');
          const two = ok(await k(['get', 'pods,configmaps', '-n', ns]));
          expect(two).toMatch(/^pod\/p\s/m);
          expect(two).toMatch(/^configmap\/c\s+0\s/m);
        });

        it('a missing object is NotFound; an empty namespace says so', async () => {
          const ns = await cluster.newNamespace('get-missing');
          const missing = await k(['get', 'configmap', 'nope', '-n', ns]);
          expect(missing.code).toBe(1);
          expect(missing.stderr).toContain('Error from server (NotFound): configmaps "nope" not found');
          const empty = await k(['get', 'pods', '-n', ns]);
          expect(empty.code).toBe(0);
          expect(empty.stderr).toContain(`No resources found in ${ns} namespace.`);
        });
      });

      describe('get -o yaml / -o json: the stored object with its defaults', () => {
        it('pod and deployment look like a real cluster’s', async () => {
          const ns = await cluster.newNamespace('yaml');
          await cluster.create(pod(ns, 'p'), deployment(ns, 'web'));
          const p = parseYaml(ok(await k(['get', 'pod', 'p', '-n', ns, '-o', 'yaml'])));
          expect(p).toMatchObject({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'p', namespace: ns, labels: { app: 'p' }, uid: expect.any(String), resourceVersion: expect.stringMatching(/^\d+$/) },
            spec: {
              restartPolicy: 'Always',
              dnsPolicy: 'ClusterFirst',
              terminationGracePeriodSeconds: 30,
              containers: [{ name: 'main', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
            },
            status: { phase: 'Pending' },
          });
          expect(p.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

          const d = JSON.parse(ok(await k(['get', 'deployment', 'web', '-n', ns, '-o', 'json'])));
          expect(d).toMatchObject({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { generation: 1 },
            spec: { replicas: 2, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
          });
        });

        it('service, secret and namespace', async () => {
          const ns = await cluster.newNamespace('yaml2');
          await cluster.create(service(ns, 'web'), secret(ns, 'creds', { password: 'hunter2' }));
          const svc = JSON.parse(ok(await k(['get', 'svc', 'web', '-n', ns, '-o', 'json'])));
          expect(svc.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', clusterIP: expect.stringMatching(/^10\./), ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
          expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP]);
          const sec = parseYaml(ok(await k(['get', 'secret', 'creds', '-n', ns, '-o', 'yaml'])));
          // stringData is folded into base64 data, as Kubernetes does.
          expect(sec.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
          expect(sec.stringData).toBeUndefined();
          const nsObj = parseYaml(ok(await k(['get', 'namespace', ns, '-o', 'yaml'])));
          expect(nsObj).toMatchObject({ metadata: { labels: { 'kubernetes.io/metadata.name': ns } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
        });

        it('a list is a v1 List of full objects', async () => {
          const ns = await cluster.newNamespace('json-list');
          await cluster.create(configMap(ns, 'a', { x: '1' }), configMap(ns, 'b'));
          const list = JSON.parse(ok(await k(['get', 'configmaps', '-n', ns, '-o', 'json'])));
          expect(list.kind).toBe('List');
          expect(list.items.map((i: { kind: string; metadata: { name: string } }) => `${i.kind}/${i.metadata.name}`)).toEqual(['ConfigMap/a', 'ConfigMap/b', 'ConfigMap/kube-root-ca.crt']);
          expect(ok(await k(['get', 'configmaps', '-n', ns, '-o', 'name']))).toBe('configmap/a\nconfigmap/b\nconfigmap/kube-root-ca.crt\n');
          expect(ok(await k(['get', 'configmap', 'a', '-n', ns, '-o', 'jsonpath={.data.x}']))).toBe('1');
        });
      });

      describe('get: selecting, paging, labels and sorting', () => {
        it('-A adds a NAMESPACE column over every namespace', async () => {
          const ns1 = await cluster.newNamespace('all-ns');
          const ns2 = await cluster.newNamespace('all-ns');
          await cluster.create(configMap(ns1, 'shared', {}, { pick: ns1 }), configMap(ns2, 'shared', {}, { pick: ns1 }));
          const table = parseTable(ok(await k(['get', 'configmaps', '-A', '-l', `pick=${ns1}`])));
          expect(table.header).toEqual(['NAMESPACE', 'NAME', 'DATA', 'AGE']);
          expect(table.rows.map((r) => `${r['NAMESPACE']}/${r['NAME']}`)).toEqual([`${ns1}/shared`, `${ns2}/shared`]);
        });

        it('-l with equality, set and existence selectors', async () => {
          const ns = await cluster.newNamespace('labels');
          await cluster.create(configMap(ns, 'a', {}, { app: 'x' }), configMap(ns, 'b', {}, { app: 'y', tier: 'fe' }), configMap(ns, 'c'));
          const names = async (selector: string): Promise<string[]> => {
            const result = await k(['get', 'cm', '-n', ns, '-l', selector, '-o', 'name']);
            return ok(result).split('\n').filter(Boolean);
          };
          expect(await names('app=x')).toEqual(['configmap/a']);
          // kube-root-ca.crt, in every namespace, has no labels.
          expect(await names('app!=x')).toEqual(['configmap/b', 'configmap/c', 'configmap/kube-root-ca.crt']);
          expect(await names('app in (x,y)')).toEqual(['configmap/a', 'configmap/b']);
          expect(await names('app notin (x)')).toEqual(['configmap/b', 'configmap/c', 'configmap/kube-root-ca.crt']);
          expect(await names('!app')).toEqual(['configmap/c', 'configmap/kube-root-ca.crt']);
          expect(await names('app,tier=fe')).toEqual(['configmap/b']);
          const bad = await k(['get', 'cm', '-n', ns, '-l', 'app in (x']);
          expect(bad.code).toBe(1);
        });

        it('--field-selector on metadata.name and on a pod’s status.phase', async () => {
          const ns = await cluster.newNamespace('fields');
          await cluster.create(pod(ns, 'p1'), pod(ns, 'p2'));
          expect(parseTable(ok(await k(['get', 'pods', '-n', ns, '--field-selector', 'metadata.name=p2']))).names()).toEqual(['p2']);
          expect(parseTable(ok(await k(['get', 'pods', '-n', ns, '--field-selector', 'status.phase=Pending']))).names()).toEqual(['p1', 'p2']);
          const none = await k(['get', 'pods', '-n', ns, '--field-selector', 'status.phase=Running']);
          expect(none.code).toBe(0);
          expect(none.stderr).toContain(`No resources found in ${ns} namespace.`);
          const unknown = await k(['get', 'pods', '-n', ns, '--field-selector', 'spec.nope=x']);
          expect(unknown.code).toBe(1);
          expect(unknown.stderr).toContain('Error from server (BadRequest)');
        });

        it('--chunk-size=2 pages through continue tokens and shows every object once', async () => {
          const ns = await cluster.newNamespace('chunks');
          // Five with kube-root-ca.crt, which every namespace has: pages of 2, 2 and 1.
          const created = ['c1', 'c2', 'c3', 'c4'];
          await cluster.create(...created.map((n) => configMap(ns, n)));
          const names = [...created, 'kube-root-ca.crt'];
          // -v=6 logs each request: the pages are visible as limit=2 and continue=… requests.
          const result = await k(['get', 'configmaps', '-n', ns, '--chunk-size=2', '-v=6']);
          expect(parseTable(ok(result)).names()).toEqual(names);
          // 1.27 logs `GET https://…`, 1.33 `"Response" verb="GET" url="https://…"`.
          const pages = result.stderr.split('\n').filter((line) => /GET"? (url=")?https:\S+\/configmaps\?\S*limit=2/.test(line));
          expect(pages).toHaveLength(3);
          expect(pages.filter((line) => /continue=/.test(line))).toHaveLength(2);
          const json = JSON.parse(ok(await k(['get', 'configmaps', '-n', ns, '--chunk-size=2', '-o', 'json'])));
          expect(json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(names);
        });

        it('--show-labels adds LABELS; -L adds a column per key', async () => {
          const ns = await cluster.newNamespace('show-labels');
          await cluster.create(pod(ns, 'p1', { app: 'web', tier: 'fe' }), pod(ns, 'p2', {}));
          const table = parseTable(ok(await k(['get', 'pods', '-n', ns, '--show-labels'])));
          expect(table.header.at(-1)).toBe('LABELS');
          expect(table.row('p1')['LABELS']).toBe('app=web,tier=fe');
          expect(table.row('p2')['LABELS']).toBe('<none>');
          const byKey = parseTable(ok(await k(['get', 'pods', '-n', ns, '-L', 'tier'])));
          expect(byKey.row('p1')['TIER']).toBe('fe');
        });

        it('--sort-by a name and a number', async () => {
          const ns = await cluster.newNamespace('sort');
          await cluster.create(deployment(ns, 'mid', 2), deployment(ns, 'big', 3), deployment(ns, 'small', 1));
          expect(parseTable(ok(await k(['get', 'deploy', '-n', ns, '--sort-by=.metadata.name']))).names()).toEqual(['big', 'mid', 'small']);
          expect(parseTable(ok(await k(['get', 'deploy', '-n', ns, '--sort-by=.spec.replicas']))).names()).toEqual(['small', 'mid', 'big']);
          // Sorting keeps the server's columns (kubectl asks for the Table with includeObject=Object).
          expect(parseTable(ok(await k(['get', 'deploy', '-n', ns, '--sort-by=.spec.replicas']))).header).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
        });
      });

      describe('get -w', () => {
        it('sees a later create, update and delete (--output-watch-events)', async () => {
          const ns = await cluster.newNamespace('watch');
          const watch = kubectl.start(['get', 'configmaps', '-n', ns, '-w', '--output-watch-events', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await watch.waitForLog(/watch=true/);
            await cluster.create(configMap(ns, 'w1', { a: '1' }));
            await watch.waitForOutput(/^ADDED\s+w1\s+1\s/m);
            const patched = await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/w1`, {
              body: JSON.stringify({ data: { a: '1', b: '2' } }),
              headers: { 'content-type': 'application/merge-patch+json' },
            });
            expect(patched.status).toBe(200);
            await watch.waitForOutput(/^MODIFIED\s+w1\s+2\s/m);
            expect((await cluster.api.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/w1`)).status).toBe(200);
            await watch.waitForOutput(/^DELETED\s+w1\s/m);
          } finally {
            await watch.stop();
          }
          expect(watch.stdout()).toMatch(/^EVENT\s+NAME\s+DATA\s+AGE$/m);
        });

        it('on one object, shows its current state once, then each change', async () => {
          const ns = await cluster.newNamespace('watch-one');
          await cluster.create(pod(ns, 'p'), pod(ns, 'other'));
          const watch = kubectl.start(['get', 'pod', 'p', '-n', ns, '-w', '-L', 'step', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await watch.waitForLog(/watch=true/);
            for (const step of ['one', 'two']) {
              const res = await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/pods/p`, {
                body: JSON.stringify({ metadata: { labels: { step } } }),
                headers: { 'content-type': 'application/merge-patch+json' },
              });
              expect(res.status).toBe(200);
              await watch.waitForOutput(new RegExp(`^p\\s.*\\s${step}\\s*$`, 'm'));
            }
            // A change to another pod is not this watch's business.
            await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/pods/other`, {
              body: JSON.stringify({ metadata: { labels: { step: 'three' } } }),
              headers: { 'content-type': 'application/merge-patch+json' },
            });
          } finally {
            await watch.stop();
          }
          const rows = watch.stdout().split('\n').filter((line) => /^\S+\s+\d+\/\d+\s/.test(line));
          // The first GET, then one row per change: the watch's synthetic ADDED is not shown again.
          expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(['p', 'p', 'p']);
        });
      });

      describe('describe', () => {
        it('pod, deployment and service', async () => {
          const ns = await cluster.newNamespace('describe');
          // Another scheduler's pod: the scheduler leaves it alone, so it has no events.
          const p0 = pod(ns, 'p', { app: 'web' });
          await cluster.create({ ...p0, spec: { ...(p0['spec'] as object), schedulerName: 'e2e-manual' } }, deployment(ns, 'web', 2), service(ns, 'web'));
          const p = ok(await k(['describe', 'pod', 'p', '-n', ns]));
          expect(describeFields(p)).toMatchObject({ Name: 'p', Namespace: ns, Labels: 'app=web', Status: 'Pending', 'Service Account': 'default', 'QoS Class': 'BestEffort' });
          expect(p).toMatch(/Image:\s+nginx:1\.27/);
          expect(p).toMatch(/Port:\s+80\/TCP/);
          expect(p).toMatch(/Events:\s+<none>/);

          const d = ok(await k(['describe', 'deployment', 'web', '-n', ns]));
          expect(describeFields(d)).toMatchObject({ Name: 'web', Selector: 'app=web', StrategyType: 'RollingUpdate', RollingUpdateStrategy: '25% max unavailable, 25% max surge' });
          // Its controller's ReplicaSet and pods may exist already; no node runs them.
          expect(d).toMatch(/Replicas:\s+2 desired \| [0-2] updated \| [0-2] total \| 0 available \| [0-2] unavailable/);

          const s = ok(await k(['describe', 'service', 'web', '-n', ns]));
          expect(describeFields(s)).toMatchObject({ Type: 'ClusterIP', Selector: 'app=web', 'Session Affinity': 'None' });
          expect(s).toMatch(/Port:\s+http\s+80\/TCP/);
          expect(s).toMatch(/TargetPort:\s+8080\/TCP/);
        });

        it('configmap, secret (sizes only) and namespace', async () => {
          const ns = await cluster.newNamespace('describe2');
          await cluster.create(configMap(ns, 'settings', { greeting: 'hello' }), secret(ns, 'creds', { password: 'hunter2' }));
          const cm = ok(await k(['describe', 'configmap', 'settings', '-n', ns]));
          expect(cm).toMatch(/greeting:\n----\nhello/);
          const sec = ok(await k(['describe', 'secret', 'creds', '-n', ns]));
          expect(describeFields(sec)).toMatchObject({ Type: 'Opaque' });
          expect(sec).toMatch(/password:\s+7 bytes/);
          expect(sec).not.toContain('hunter2');
          const nsText = ok(await k(['describe', 'namespace', ns]));
          expect(describeFields(nsText)).toMatchObject({ Name: ns, Status: 'Active' });
        });
      });

      describe('wait and rollout status', () => {
        it('wait --for=condition=Ready returns once the status subresource says so', async () => {
          const ns = await cluster.newNamespace('wait-cond');
          await cluster.create(pod(ns, 'p'));
          const waiter = kubectl.start(['wait', '--for=condition=Ready', 'pod/p', '-n', ns, '--timeout=30s', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await waiter.waitForLog(/watch=true/);
            const status = { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } };
            ok(await k(['patch', 'pod', 'p', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify(status)]));
            const result = await waiter.exited;
            expect(result.code, result.stderr).toBe(0);
            expect(result.stdout).toBe('pod/p condition met\n');
          } finally {
            await waiter.stop();
          }
        });

        it('wait --for=condition=Available on a deployment whose status was PUT', async () => {
          const ns = await cluster.newNamespace('wait-deploy');
          await cluster.create(deployment(ns, 'web'));
          const waiter = kubectl.start(['wait', '--for=condition=Available', 'deployment/web', '-n', ns, '--timeout=30s', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await waiter.waitForLog(/watch=true/);
            const current = (await cluster.read(`/apis/apps/v1/namespaces/${ns}/deployments/web`))!;
            const res = await cluster.api.request('PUT', `/apis/apps/v1/namespaces/${ns}/deployments/web/status`, {
              json: { ...current, status: { observedGeneration: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }] } },
            });
            expect(res.status, res.body).toBe(200);
            const result = await waiter.exited;
            expect(result.code, result.stderr).toBe(0);
            expect(result.stdout).toBe('deployment.apps/web condition met\n');
          } finally {
            await waiter.stop();
          }
        });

        it('wait --for=condition times out with exit 1 when nothing happens', async () => {
          const ns = await cluster.newNamespace('wait-timeout');
          await cluster.create(pod(ns, 'p'));
          const result = await k(['wait', '--for=condition=Ready', 'pod/p', '-n', ns, '--timeout=1s']);
          expect(result.code).toBe(1);
          expect(result.stderr).toContain('timed out waiting for the condition');
        });

        it('wait --for=delete returns when the object goes, and at once when it is gone already', async () => {
          const ns = await cluster.newNamespace('wait-delete');
          await cluster.create(configMap(ns, 'doomed'));
          const waiter = kubectl.start(['wait', '--for=delete', 'configmap/doomed', '-n', ns, '--timeout=30s', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await waiter.waitForLog(/watch=true/);
            expect((await cluster.api.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/doomed`)).status).toBe(200);
            const result = await waiter.exited;
            expect(result.code, result.stderr).toBe(0);
            expect(result.stdout).toBe('configmap/doomed condition met\n');
          } finally {
            await waiter.stop();
          }
          const gone = await k(['wait', '--for=delete', 'configmap/doomed', '-n', ns, '--timeout=5s']);
          expect(gone.code, gone.stderr).toBe(0);
        });

        it('rollout status follows the deployment status to "successfully rolled out"', async () => {
          const ns = await cluster.newNamespace('rollout');
          await cluster.create(deployment(ns, 'web', 2));
          const rollout = kubectl.start(['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=30s', '-v=6'], { version, timeoutMs: 40_000 });
          try {
            await rollout.waitForLog(/watch=true/);
            // What the deployment controller would write once the new pods are available.
            const res = await cluster.api.request('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/web/status`, {
              body: JSON.stringify({ status: { observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 } }),
              headers: { 'content-type': 'application/merge-patch+json' },
            });
            expect(res.status, res.body).toBe(200);
            const result = await rollout.exited;
            expect(result.code, result.stderr).toBe(0);
            expect(result.stdout).toContain('deployment "web" successfully rolled out');
          } finally {
            await rollout.stop();
          }
        });
      });

      describe('discovery, explain and OpenAPI', () => {
        it('api-resources lists the kinds with short names, scope and verbs', async () => {
          const table = parseTable(ok(await k(['api-resources', '-o', 'wide'])));
          expect(table.header.slice(0, 5)).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
          expect(table.row('pods')).toMatchObject({ SHORTNAMES: 'po', APIVERSION: 'v1', NAMESPACED: 'true', KIND: 'Pod', CATEGORIES: 'all' });
          expect(table.row('deployments')).toMatchObject({ SHORTNAMES: 'deploy', APIVERSION: 'apps/v1', NAMESPACED: 'true', KIND: 'Deployment' });
          expect(table.row('services')).toMatchObject({ SHORTNAMES: 'svc', KIND: 'Service' });
          expect(table.row('configmaps')).toMatchObject({ SHORTNAMES: 'cm', KIND: 'ConfigMap', VERBS: 'create,delete,deletecollection,get,list,patch,update,watch' });
          expect(table.row('secrets')).toMatchObject({ KIND: 'Secret' });
          expect(table.row('namespaces')).toMatchObject({ SHORTNAMES: 'ns', NAMESPACED: 'false', KIND: 'Namespace', VERBS: 'create,delete,get,list,patch,update,watch' });
          // Subresources are not resources of their own.
          expect(table.names().some((n) => n.includes('/'))).toBe(false);
          const apps = parseTable(ok(await k(['api-resources', '--api-group=apps'])));
          expect(apps.names()).toEqual(expect.arrayContaining(['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'controllerrevisions']));
          expect(apps.names()).not.toContain('pods');
        });

        it('api-versions lists every served group version', async () => {
          const versions = ok(await k(['api-versions'])).trim().split('\n');
          expect(versions).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'batch/v1', 'autoscaling/v2', 'networking.k8s.io/v1', 'rbac.authorization.k8s.io/v1', 'policy/v1', 'storage.k8s.io/v1']));
          expect([...versions].sort()).toEqual(versions);
        });

        it('explain pod.spec.containers shows the field, its type and its fields', async () => {
          const text = ok(await k(['explain', 'pod.spec.containers']));
          expect(text).toMatch(/^KIND:\s+Pod$/m);
          expect(text).toMatch(/^VERSION:\s+v1$/m);
          expect(text).toMatch(/containers\s+<\[\]Container>/);
          expect(text).toMatch(/^\s+name\s+<string> -required-$/m);
          expect(text).toMatch(/^\s+image\s+<string>$/m);
          expect(text).toMatch(/^\s+ports\s+<\[\]ContainerPort>$/m);
          const replicas = ok(await k(['explain', 'deployment.spec.replicas']));
          expect(replicas).toMatch(/^GROUP:\s+apps$/m);
          expect(replicas).toMatch(/replicas\s+<integer>/);
        });

        it('get --raw /openapi/v3 lists group versions whose documents hold the schemas', async () => {
          const root = JSON.parse(ok(await k(['get', '--raw', '/openapi/v3'])));
          expect(Object.keys(root.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1']));
          const url = root.paths['api/v1'].serverRelativeURL as string;
          expect(url).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]+$/);
          const doc = JSON.parse(ok(await k(['get', '--raw', url])));
          expect(doc.openapi).toMatch(/^3\./);
          expect(doc.components.schemas['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
          const patch = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
          expect(patch.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
        });

        it('cluster-info and version name the server', async () => {
          // 1.27 colours its output even when it is no terminal.
          const info = ok(await k(['cluster-info'])).replace(/\x1b\[[0-9;]*m/g, '');
          expect(info).toContain(`Kubernetes control plane is running at ${cluster.server.url}`);
          expect(ok(await k(['version']))).toMatch(/^Server Version: .*v1\.33\.\d+-kube-spaces/m);
        });

        it('logs of a pod no node runs is empty, as kube-apiserver answers for an unscheduled pod', async () => {
          const ns = await cluster.newNamespace('logs');
          await cluster.create(pod(ns, 'web'));
          const logs = await k(['logs', 'web', '-n', ns]);
          expect(logs.code, logs.stderr).toBe(0);
          expect(logs.stdout).toBe('');
          const wrong = await k(['logs', 'web', '-n', ns, '-c', 'nope']);
          expect(wrong.code).toBe(1);
          expect(wrong.stderr).toContain('container nope is not valid for pod web');
        });
      });

      // auth can-i and auth whoami are covered by e2e/reviews.test.ts.
    });
  });
});
