/**
 * Admission that bounds what a namespace may hold, with stock kubectl (1.27 sends JSON, 1.33
 * protobuf) on both backends: ResourceQuota refuses the pod past `pods=2` with kube's message and
 * is exact under 50 concurrent creators, the quota controller keeps `status.used` (and releases on
 * delete) as `kubectl get/describe quota` show it, LimitRange defaults appear in the pod, and
 * PodSecurity refuses a privileged pod in a `restricted` namespace and warns in warn mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { namespace, pod, toYamlStream } from './harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

describe.each(backendCases(kubectlPath !== undefined))('quota, limit ranges and pod security on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let admin: UserCredentials;

    async function run(args: string[], options: { version?: KubectlVersion; stdin?: string } = {}) {
      return kubectl.run(args, { kubeconfig: admin.kubeconfig, ...options });
    }

    async function newNamespace(name: string, labels?: Record<string, string>): Promise<void> {
      const res = await admin.api.request('POST', '/api/v1/namespaces', { json: namespace(name, labels) });
      expect(res.status, res.body).toBe(201);
    }

    /** Waits until the quota controller has counted the namespace: `status.used` of `resource` is `used`. */
    async function waitForUsed(ns: string, quota: string, resource: string, used: string): Promise<void> {
      await eventually(`quota ${quota} to show ${resource}=${used}`, async () => {
        const res = await admin.api.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/${quota}`);
        return (res.json() as { status?: { used?: Record<string, string> } }).status?.used?.[resource] === used;
      });
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1');
      admin = await userKubeconfig(cluster, { tenant: 't1', user: 'admin' });
      await eventually('admin to manage t1', async () => (await admin.api.request('GET', '/api/v1/namespaces')).status === 200);
    });

    afterAll(async () => {
      admin?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('refuses the third pod under pods=2 with kube’s message, shows usage, and releases it on delete', async () => {
      await newNamespace('quota');
      expect((await run(['create', 'quota', 'q', '--hard=pods=2', '-n', 'quota'])).code).toBe(0);
      await waitForUsed('quota', 'q', 'pods', '0');
      for (const name of ['p1', 'p2']) {
        const created = await run(['run', name, '--image=nginx', '-n', 'quota'], { version: '1.27' });
        expect(created.code, created.stderr).toBe(0);
      }
      for (const version of VERSIONS) {
        const third = await run(['run', 'p3', '--image=nginx', '-n', 'quota'], { version });
        expect(third.code).not.toBe(0);
        expect(third.stderr.trim()).toBe('Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
      }
      expect(parseTable((await run(['get', 'quota', '-n', 'quota'])).stdout).row('q')).toMatchObject({ REQUEST: 'pods: 2/2', LIMIT: '' });
      const described = await run(['describe', 'quota', 'q', '-n', 'quota']);
      expect(described.stdout).toMatch(/Resource\s+Used\s+Hard\n-+\s+-+\s+-+\npods\s+2\s+2\n/);
      // Dry run checks without charging; a delete releases usage.
      expect((await run(['delete', 'pod', 'p2', '-n', 'quota', '--wait=false'])).code).toBe(0);
      await waitForUsed('quota', 'q', 'pods', '1');
      const dry = await run(['run', 'p3', '--image=nginx', '-n', 'quota', '--dry-run=server']);
      expect(dry.code, dry.stderr).toBe(0);
      expect((await run(['get', 'quota', 'q', '-n', 'quota', '-o', 'jsonpath={.status.used.pods}'])).stdout).toBe('1');
      expect((await run(['run', 'p3', '--image=nginx', '-n', 'quota'])).code).toBe(0);
    });

    it('asks every container for what a compute quota limits, and charges requests', async () => {
      await newNamespace('compute');
      expect((await run(['create', 'quota', 'cpu', '--hard=requests.cpu=1,limits.memory=1Gi', '-n', 'compute'])).code).toBe(0);
      await waitForUsed('compute', 'cpu', 'requests.cpu', '0');
      const bare = await run(['run', 'bare', '--image=nginx', '-n', 'compute']);
      expect(bare.stderr.trim()).toBe('Error from server (Forbidden): pods "bare" is forbidden: failed quota: cpu: must specify limits.memory for: bare; requests.cpu for: bare');
      const sized = (name: string, cpu: string) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'compute' },
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu }, limits: { memory: '512Mi' } } }] },
      });
      expect((await run(['create', '-f', '-'], { stdin: toYamlStream([sized('a', '600m') as never]) })).code).toBe(0);
      const over = await run(['create', '-f', '-'], { stdin: toYamlStream([sized('b', '500m') as never]) });
      expect(over.stderr.trim()).toBe(
        'Error from server (Forbidden): error when creating "STDIN": pods "b" is forbidden: exceeded quota: cpu, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
      );
      expect(parseTable((await run(['get', 'quota', '-n', 'compute'])).stdout).row('cpu')).toMatchObject({ REQUEST: 'requests.cpu: 600m/1', LIMIT: 'limits.memory: 512Mi/1Gi' });
    });

    it('admits exactly N of 50 concurrent creates under pods=N', async () => {
      await newNamespace('burst');
      // kube-root-ca.crt is counted too: wait for it, and leave it its place.
      await eventually('kube-root-ca.crt', async () => (await admin.api.request('GET', '/api/v1/namespaces/burst/configmaps/kube-root-ca.crt')).status === 200);
      const limit = 10;
      expect((await run(['create', 'quota', 'burst', `--hard=pods=${limit},count/configmaps=${limit + 1}`, '-n', 'burst'])).code).toBe(0);
      await waitForUsed('burst', 'burst', 'count/configmaps', '1');
      for (const resource of ['pods', 'configmaps'] as const) {
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            admin.api.request('POST', `/api/v1/namespaces/burst/${resource}`, {
              json: resource === 'pods' ? pod('burst', `p${i}`) : { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
            }),
          ),
        );
        const statuses = results.map((r) => r.status);
        expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
        expect(statuses.filter((s) => s === 403)).toHaveLength(50 - limit);
        const refused = results.find((r) => r.status === 403)!.json() as { message: string };
        const name = resource === 'pods' ? 'pods' : 'count/configmaps';
        const max = resource === 'pods' ? limit : limit + 1;
        expect(refused.message).toMatch(new RegExp(`^${resource} "[pc]\\d+" is forbidden: exceeded quota: burst, requested: ${name}=1, used: ${name}=${max}, limited: ${name}=${max}$`));
        const listed = (await admin.api.request('GET', `/api/v1/namespaces/burst/${resource}`)).json() as { items: Array<{ metadata: { name: string } }> };
        const own = listed.items.filter((o) => o.metadata.name !== 'kube-root-ca.crt');
        expect(own).toHaveLength(limit);
      }
      const used = (await admin.api.request('GET', '/api/v1/namespaces/burst/resourcequotas/burst')).json() as { status: { used: Record<string, string> } };
      expect(used.status.used).toEqual({ pods: String(limit), 'count/configmaps': String(limit + 1) });
    });

    it('fills LimitRange defaults into a pod, visible in get -o yaml, and refuses one past the max', async () => {
      await newNamespace('limits');
      const limitRange = {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr', namespace: 'limits' },
        spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' }, max: { cpu: '1' } }] },
      };
      expect((await run(['apply', '-f', '-'], { stdin: toYamlStream([limitRange as never]) })).code).toBe(0);
      await eventually('the limit range to apply', async () => {
        const res = await run(['run', 'probe', '--image=nginx', '-n', 'limits', '--dry-run=server', '-o', 'jsonpath={.spec.containers[0].resources.limits.cpu}']);
        return res.stdout === '500m';
      });
      for (const version of VERSIONS) {
        const name = `web-${version.replace('.', '')}`;
        expect((await run(['run', name, '--image=nginx', '-n', 'limits'], { version })).code).toBe(0);
        const yaml = (await run(['get', 'pod', name, '-n', 'limits', '-o', 'yaml'], { version })).stdout;
        expect(yaml.replace(/\n\s+/g, ' ')).toContain(`kubernetes.io/limit-ranger: 'LimitRanger plugin set: cpu, memory request for container ${name}; cpu, memory limit for container ${name}'`);
        expect(yaml).toMatch(/resources:\n\s+limits:\n\s+cpu: 500m\n\s+memory: 256Mi\n\s+requests:\n\s+cpu: 100m\n\s+memory: 128Mi/);
      }
      const bigPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'big', namespace: 'limits' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '2' } } }] } };
      const big = await run(['create', '-f', '-'], { stdin: toYamlStream([bigPod as never]) });
      expect(big.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    });

    it('refuses a privileged pod in a restricted namespace and warns in warn mode, as kubectl prints them', async () => {
      await newNamespace('locked', { 'pod-security.kubernetes.io/enforce': 'restricted' });
      await newNamespace('watched', { 'pod-security.kubernetes.io/warn': 'restricted' });
      const privileged = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'priv', namespace: 'locked' },
        spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] },
      };
      for (const version of VERSIONS) {
        const refused = await run(['create', '-f', '-'], { version, stdin: toYamlStream([privileged as never]) });
        expect(refused.stderr.trim()).toBe(
          'Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "restricted:latest": ' +
            'privileged (container "c" must not set securityContext.privileged=true), ' +
            'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
            'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
            'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
            'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
        );
        const warned = await run(['run', `w${version.replace('.', '')}`, '--image=nginx', '-n', 'watched'], { version });
        expect(warned.code, warned.stderr).toBe(0);
        const name = `w${version.replace('.', '')}`;
        expect(warned.stderr.trim()).toBe(
          `Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "${name}" must set securityContext.allowPrivilegeEscalation=false), ` +
            `unrestricted capabilities (container "${name}" must set securityContext.capabilities.drop=["ALL"]), ` +
            `runAsNonRoot != true (pod or container "${name}" must set securityContext.runAsNonRoot=true), ` +
            `seccompProfile (pod or container "${name}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`,
        );
      }
      // A deployment is only warned about; a new enforce level warns about the pods already there.
      const deploy = await run(['create', 'deployment', 'web', '--image=nginx', '-n', 'locked']);
      expect(deploy.code, deploy.stderr).toBe(0);
      expect(deploy.stderr).toContain('Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx"');
      const relabel = await run(['label', 'ns', 'watched', 'pod-security.kubernetes.io/enforce=baseline']);
      expect(relabel.code, relabel.stderr).toBe(0);
      expect(relabel.stderr).toBe('');
      const strict = await run(['label', 'ns', 'watched', 'pod-security.kubernetes.io/enforce=restricted', '--overwrite']);
      expect(strict.stderr.trim().split('\n')).toEqual([
        'Warning: existing pods in namespace "watched" violate the new PodSecurity enforce level "restricted:latest"',
        'Warning: w127 (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      ]);
      const bad = await run(['label', 'ns', 'watched', 'pod-security.kubernetes.io/enforce=strict', '--overwrite']);
      expect(bad.stderr.trim()).toBe(
        'The Namespace "watched" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      );
    });
  });
});
