/**
 * kubectl 1.32+ talks protobuf (kubectl-contract.md §0 #2, §5): every `kubectl create
 * <generator>` sends an `application/vnd.kubernetes.protobuf` body and asks for protobuf back,
 * `describe` and `events` read protobuf, `events --watch` reads a protobuf watch stream, and
 * `auth can-i` / `auth whoami` send protobuf reviews.
 *
 * With the dispatcher (it runs kubectl 1.33, picked from our /version) on both backends, each
 * generator must store exactly what kubectl 1.31 stores for the same command through JSON, and
 * what a real cluster holds. The review bodies are captured from the real kubectl 1.33 by a
 * throwaway HTTPS server on 127.0.0.1 and decoded.
 */
import { createServer, type Server } from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeObject } from '../api/protobuf/codec.js';
import { clientObjectMeta, envelope, field, message, varintField } from '../api/protobuf/samples/wire.js';
import { createCa, issueServingCertificate } from '../src/bootstrap/certificates.js';
import { renderKubeconfig } from '../src/bootstrap/kubeconfig.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult } from './harness/kubectl.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.31', '1.33']);
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr.slice(-4000)}`).toBe(0);
  return result.stdout;
}

/** How often kubectl's `-v=8` log shows a protobuf Content-Type (request bodies and answers). */
function protobufHeaders(stderr: string): number {
  return stderr.split('\n').filter((line) => line.includes(`Content-Type: ${PROTOBUF}`)).length;
}

type Obj = Record<string, unknown>;

interface Generator {
  what: string;
  /** Arguments after `kubectl`; `ns` is the namespace of this run, `name` a name unique to it. */
  args(ns: string): string[];
  /** The stored object's API path. */
  path(ns: string): string;
  /** What a real cluster holds for it (a subset of the stored object). */
  expected(ns: string): Obj;
}

const GENERATORS: Generator[] = [
  {
    what: 'namespace',
    args: (ns) => ['create', 'namespace', `${ns}-made`],
    path: (ns) => `/api/v1/namespaces/${ns}-made`,
    expected: (ns) => ({ metadata: { name: `${ns}-made`, labels: { 'kubernetes.io/metadata.name': `${ns}-made` } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }),
  },
  {
    what: 'configmap',
    args: (ns) => ['create', 'configmap', 'settings', '-n', ns, '--from-literal=greeting=hello', '--from-literal=empty='],
    path: (ns) => `/api/v1/namespaces/${ns}/configmaps/settings`,
    expected: () => ({ data: { greeting: 'hello', empty: '' } }),
  },
  {
    what: 'secret generic',
    args: (ns) => ['create', 'secret', 'generic', 'creds', '-n', ns, '--from-literal=password=s3cret'],
    path: (ns) => `/api/v1/namespaces/${ns}/secrets/creds`,
    expected: () => ({ type: 'Opaque', data: { password: Buffer.from('s3cret').toString('base64') } }),
  },
  {
    what: 'secret docker-registry',
    args: (ns) => ['create', 'secret', 'docker-registry', 'pull', '-n', ns, '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p'],
    path: (ns) => `/api/v1/namespaces/${ns}/secrets/pull`,
    expected: () => ({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': expect.any(String) } }),
  },
  {
    what: 'deployment',
    args: (ns) => ['create', 'deployment', 'web', '-n', ns, '--image=nginx:1.27', '--replicas=2', '--port=8080'],
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments/web`,
    expected: () => ({
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: {
            containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
    }),
  },
  {
    // replicas is a pointer: an explicit 0 must survive protobuf, not fall back to the default 1.
    what: 'deployment with zero replicas',
    args: (ns) => ['create', 'deployment', 'idle', '-n', ns, '--image=nginx:1.27', '--replicas=0'],
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments/idle`,
    expected: () => ({ spec: { replicas: 0 } }),
  },
  {
    what: 'job',
    args: (ns) => ['create', 'job', 'report', '-n', ns, '--image=busybox:1.36', '--', 'echo', 'hi'],
    path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs/report`,
    expected: () => ({
      spec: { parallelism: 1, completions: 1, backoffLimit: 6, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'report', image: 'busybox:1.36', command: ['echo', 'hi'], resources: {} }] } } },
    }),
  },
  {
    what: 'cronjob',
    args: (ns) => ['create', 'cronjob', 'nightly', '-n', ns, '--image=busybox:1.36', '--schedule=0 3 * * *', '--', 'date'],
    path: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs/nightly`,
    expected: () => ({
      spec: {
        schedule: '0 3 * * *',
        concurrencyPolicy: 'Allow',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: { metadata: { name: 'nightly', creationTimestamp: null }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'nightly', command: ['date'] }] } } } },
      },
    }),
  },
  {
    what: 'serviceaccount',
    args: (ns) => ['create', 'serviceaccount', 'robot', '-n', ns],
    path: (ns) => `/api/v1/namespaces/${ns}/serviceaccounts/robot`,
    expected: () => ({ metadata: { name: 'robot' } }),
  },
  {
    what: 'service clusterip',
    args: (ns) => ['create', 'service', 'clusterip', 'web', '-n', ns, '--tcp=80:8080'],
    path: (ns) => `/api/v1/namespaces/${ns}/services/web`,
    expected: () => ({
      metadata: { labels: { app: 'web' } },
      spec: { type: 'ClusterIP', ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, sessionAffinity: 'None', clusterIP: expect.any(String) },
    }),
  },
  {
    what: 'service externalname',
    args: (ns) => ['create', 'service', 'externalname', 'docs', '-n', ns, '--external-name=docs.example.com'],
    path: (ns) => `/api/v1/namespaces/${ns}/services/docs`,
    expected: () => ({ spec: { type: 'ExternalName', externalName: 'docs.example.com' } }),
  },
  {
    what: 'role',
    args: (ns) => ['create', 'role', 'reader', '-n', ns, '--verb=get,list', '--resource=pods,deployments.apps'],
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/reader`,
    expected: () => ({
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] },
      ],
    }),
  },
  {
    what: 'rolebinding',
    // Not --user or --serviceaccount: the dispatcher reads those as its own flags and falls back to kubectl 1.32.
    args: (ns) => ['create', 'rolebinding', 'reader', '-n', ns, '--role=reader', '--group=devs', '--group=ops'],
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings/reader`,
    expected: () => ({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' },
      ],
    }),
  },
  {
    what: 'clusterrole',
    args: (ns) => ['create', 'clusterrole', `${ns}-health`, '--verb=get', '--non-resource-url=/healthz'],
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/clusterroles/${ns}-health`,
    expected: () => ({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }),
  },
  {
    what: 'clusterrolebinding',
    args: (ns) => ['create', 'clusterrolebinding', `${ns}-health`, `--clusterrole=${ns}-health`, '--group=devs'],
    path: (ns) => `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${ns}-health`,
    expected: (ns) => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${ns}-health` }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }] }),
  },
  {
    what: 'ingress',
    args: (ns) => ['create', 'ingress', 'shop', '-n', ns, '--class=nginx', '--rule=shop.example.com/api*=web:80'],
    path: (ns) => `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses/shop`,
    expected: () => ({
      spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
    }),
  },
  {
    what: 'poddisruptionbudget',
    args: (ns) => ['create', 'poddisruptionbudget', 'web', '-n', ns, '--selector=app=web', '--min-available=50%'],
    path: (ns) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/web`,
    expected: () => ({ spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } }),
  },
  {
    // value 0 is written by kubectl and must be kept.
    what: 'priorityclass',
    args: (ns) => ['create', 'priorityclass', `${ns}-batch`, '--value=0', '--description=background work'],
    path: (ns) => `/apis/scheduling.k8s.io/v1/priorityclasses/${ns}-batch`,
    expected: () => ({ value: 0, description: 'background work', preemptionPolicy: 'PreemptLowerPriority' }),
  },
  {
    what: 'quota',
    // Counts only (no requests.cpu): the quota is enforced, and the reads' pod below asks for no cpu.
    args: (ns) => ['create', 'quota', 'limits', '-n', ns, '--hard=pods=10,count/configmaps=20'],
    path: (ns) => `/api/v1/namespaces/${ns}/resourcequotas/limits`,
    expected: () => ({ spec: { hard: { pods: '10', 'count/configmaps': '20' } } }),
  },
];

/** `kubectl get` arguments for an API path: `/apis/apps/v1/namespaces/ns/deployments/web` → `get deployments.apps web -n ns`. */
function getArgs(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const [group, rest] = parts[0] === 'api' ? ['', parts.slice(2)] : [parts[1]!, parts.slice(3)];
  const [namespace, resource, name] = rest[0] === 'namespaces' && rest.length === 4 ? [rest[1]!, rest[2]!, rest[3]!] : [undefined, rest[0]!, rest[1]!];
  return ['get', group ? `${resource}.${group}` : resource, name, ...(namespace ? ['-n', namespace] : [])];
}

/**
 * A stored object as seen from another namespace of the same test: the namespace renamed, and
 * what differs by construction (uid, revision, time, allocated IPs) blanked.
 */
/**
 * What the create stored, with what differs between two creates blanked. The controllers' later
 * writes (status, a deployment's revision annotations, their managed fields) are left out: each
 * object may be at another step of its controller's work.
 */
function comparable(obj: Obj, ns: string): Obj {
  const { status: _status, ...created } = obj;
  const meta = created['metadata'] as { uid: string; annotations?: Record<string, string>; managedFields?: Array<{ manager: string }> };
  const annotations = Object.entries(meta.annotations ?? {}).filter(([key]) => !key.startsWith('deployment.kubernetes.io/'));
  created['metadata'] = {
    ...meta,
    annotations: annotations.length > 0 ? Object.fromEntries(annotations) : undefined,
    managedFields: meta.managedFields?.filter((entry) => entry.manager.startsWith('kubectl')),
  };
  let text = JSON.stringify(created).replaceAll(ns, 'NS').replaceAll(meta.uid, 'UID');
  text = text.replace(/"(resourceVersion|creationTimestamp|time)":"[^"]*"/g, '"$1":"-"').replace(/"(clusterIP)":"[^"]*"/g, '"$1":"-"').replace(/"clusterIPs":\["[^"]*"\]/g, '"clusterIPs":["-"]');
  return JSON.parse(text) as Obj;
}

describe.each(backendCases(kubectlPath !== undefined))('kubectl through protobuf on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    /** Written by the dispatcher (kubectl 1.33, protobuf) and by kubectl 1.31 (JSON). */
    let protoNs: string;
    let jsonNs: string;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      protoNs = await cluster.newNamespace('proto');
      jsonNs = await cluster.newNamespace('json');
    });
    afterAll(async () => {
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it.each(GENERATORS.map((g) => [g.what, g] as const))('kubectl create %s stores what JSON stores and a real cluster holds', async (_what, generator) => {
      const [verb, ...rest] = generator.args(protoNs);
      // -v=8 after the verb: before it, the dispatcher falls back to its default kubectl.
      const viaProtobuf = await kubectl.run([verb!, '-v=8', ...rest]);
      expect(ok(viaProtobuf)).toMatch(/ created\n$/);
      expect(viaProtobuf.stderr).toContain('User-Agent: kubectl/v1.33.');
      // The body went out in protobuf and the answer came back in protobuf.
      expect(protobufHeaders(viaProtobuf.stderr), viaProtobuf.stderr.slice(-3000)).toBeGreaterThanOrEqual(2);
      ok(await kubectl.run(generator.args(jsonNs), { version: '1.31' }));

      const stored = await cluster.read(generator.path(protoNs));
      const storedFromJson = await cluster.read(generator.path(jsonNs));
      expect(stored).not.toBeNull();
      expect(comparable(stored!, protoNs)).toEqual(comparable(storedFromJson!, jsonNs));

      const shown = JSON.parse(ok(await kubectl.run([...getArgs(generator.path(protoNs)), '-o', 'json']))) as Obj;
      expect(shown).toMatchObject(generator.expected(protoNs));
    });

    describe('reads', () => {
      let podUid: string;

      async function createEvent(event: { metadata: { name: string; namespace: string } } & Obj): Promise<void> {
        const res = await cluster.api.request('POST', `/api/v1/namespaces/${event.metadata.namespace}/events`, { json: { apiVersion: 'v1', kind: 'Event', ...event } });
        expect(res.status, res.body).toBe(201);
      }

      beforeAll(async () => {
        ok(await kubectl.run(['run', 'shop', '-n', protoNs, '--image=nginx:1.27', '--labels=app=web']));
        // describe finds a pod's events by its uid too.
        const pod = await cluster.read(`/api/v1/namespaces/${protoNs}/pods/shop`);
        podUid = (pod!['metadata'] as { uid: string }).uid;
        await createEvent({
          metadata: { name: 'shop.pulled', namespace: protoNs },
          involvedObject: { kind: 'Pod', name: 'shop', namespace: protoNs, uid: podUid, apiVersion: 'v1' },
          reason: 'Pulled',
          message: 'Container image "nginx:1.27" already present on machine',
          type: 'Normal',
          source: { component: 'kubelet', host: 'node-1' },
          firstTimestamp: '2025-03-04T05:06:07Z',
          lastTimestamp: '2025-03-04T05:06:07Z',
          count: 1,
        });
      });

      it('kubectl get pods prints its table', async () => {
        // The namespace also holds the pods of the deployments and the job created above (their controllers made them).
        expect(ok(await kubectl.run(['get', 'pods', '-n', protoNs]))).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\n(.*\n)*shop\s+0\/1\s+Pending\s+0\s+\S+\n/);
      });

      it.each([
        ['pod', 'shop', [/^Name:\s+shop$/m, /^\s+Image:\s+nginx:1\.27$/m, /^Status:\s+Pending$/m, /Normal\s+Pulled\s+.*Container image "nginx:1\.27" already present on machine/]],
        ['deployment', 'web', [/^Replicas:\s+2 desired \| [0-2] updated \| [0-2] total \| 0 available \| [0-2] unavailable$/m, /^\s+Port:\s+8080\/TCP$/m, /^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m]],
        ['service', 'web', [/^Type:\s+ClusterIP$/m, /^TargetPort:\s+8080\/TCP$/m, /^Selector:\s+app=web$/m]],
        ['secret', 'creds', [/^Type:\s+Opaque$/m, /^password:\s+6 bytes$/m]],
        ['job', 'report', [/^Parallelism:\s+1$/m, /^Completions:\s+1$/m, /^Backoff Limit:\s+6$/m]],
        ['rolebinding', 'reader', [/^Role:\n\s+Kind:\s+Role\n\s+Name:\s+reader$/m, /^\s+Group\s+devs\s*$/m]],
      ])('kubectl describe %s decodes protobuf answers', async (kind, name, patterns) => {
        const result = await kubectl.run(['describe', kind, name, '-n', protoNs, '-v=8']);
        const out = ok(result);
        for (const pattern of patterns) expect(out).toMatch(pattern);
        expect(protobufHeaders(result.stderr)).toBeGreaterThanOrEqual(1);
      });

      it('kubectl events --watch decodes a protobuf watch stream', async () => {
        const watching = kubectl.run(['events', '-n', protoNs, '--watch', '-v=8'], { timeoutMs: 8_000 });
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await createEvent({
          metadata: { name: 'shop.started', namespace: protoNs },
          involvedObject: { kind: 'Pod', name: 'shop', namespace: protoNs, uid: podUid, apiVersion: 'v1' },
          reason: 'Started',
          message: 'seen through a protobuf watch',
          type: 'Normal',
          source: { component: 'kubelet' },
          firstTimestamp: '2025-03-04T05:06:08Z',
          lastTimestamp: '2025-03-04T05:06:08Z',
          count: 1,
        });
        const result = await watching;
        expect(result.stdout).toMatch(/Pulled\s+Pod\/shop\s+Container image/);
        expect(result.stdout).toMatch(/Started\s+Pod\/shop\s+seen through a protobuf watch/);
        expect(result.stderr).toContain(`Content-Type: ${PROTOBUF};stream=watch`);
      });
    });
  });
});

/** What the throwaway server saw of one request. */
interface Captured {
  method: string;
  path: string;
  contentType: string;
  body: Buffer;
}

/**
 * A throwaway HTTPS server on 127.0.0.1 that answers just enough discovery for kubectl and the
 * three review endpoints (in JSON), and records every request.
 */
async function startReviewServer(): Promise<{ server: Server; url: string; caCert: string; requests: Captured[] }> {
  const ca = await createCa('protobuf-probe-ca');
  const serving = await issueServingCertificate(ca, ['127.0.0.1']);
  const requests: Captured[] = [];
  const answers: Record<string, unknown> = {
    '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
    '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
    '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'] }] },
    '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: {}, spec: {}, status: { allowed: true } },
    '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {},
      status: { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: false },
    },
    '/apis/authentication.k8s.io/v1/selfsubjectreviews': { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: {}, status: { userInfo: { username: 'probe', groups: ['system:authenticated'] } } },
  };
  const server = createServer({ key: serving.key, cert: serving.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      const answer = answers[path];
      res.writeHead(answer ? (req.method === 'POST' ? 201 : 200) : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caCert: ca.cert, requests };
}

describe.skipIf(kubectlPath === undefined)('review bodies from the real kubectl 1.33', () => {
  let probe: Awaited<ReturnType<typeof startReviewServer>>;
  let dir: string;
  let kubectl: Kubectl;

  beforeAll(async () => {
    probe = await startReviewServer();
    dir = await mkdtemp(join(tmpdir(), 'protobuf-probe-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, renderKubeconfig({ server: probe.url, caCert: probe.caCert, userName: 'probe', token: 'probe-token' }));
    kubectl = await createKubectl({ kubeconfig });
  });
  afterAll(async () => {
    await kubectl?.cleanup();
    await new Promise((resolve) => probe?.server.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The body of the one POST to `resource` that `args` made. */
  async function capture(args: string[], resource: string): Promise<Buffer> {
    const before = probe.requests.length;
    ok(await kubectl.run(args, { version: '1.33' }));
    const posts = probe.requests.slice(before).filter((r) => r.method === 'POST' && r.path.endsWith(`/${resource}`));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.contentType).toBe(PROTOBUF);
    return posts[0]!.body;
  }

  it('auth can-i get pods sends a SelfSubjectAccessReview for the resource', async () => {
    const body = await capture(['auth', 'can-i', 'get', 'pods', '-n', 'shop'], 'selfsubjectaccessreviews');
    // Byte for byte what the unit tests assemble by hand from the field numbers.
    const attributes = message(field(1, 'shop'), field(2, 'get'), field(3, ''), field(4, ''), field(5, 'pods'), field(6, ''), field(7, ''));
    const status = message(varintField(1, false), field(2, ''), field(3, ''), varintField(4, false));
    const handMade = envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, message(field(1, attributes))), field(3, status)));
    expect(body.toString('hex')).toBe(handMade.toString('hex'));
    const review = decodeObject(body);
    expect(review).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    });
  });

  it('auth can-i get /healthz sends a non-resource review', async () => {
    const review = decodeObject(await capture(['auth', 'can-i', 'get', '/healthz'], 'selfsubjectaccessreviews'));
    expect(review.spec).toEqual({ nonResourceAttributes: { path: '/healthz', verb: 'get' } });
  });

  it('auth can-i --list sends a SelfSubjectRulesReview', async () => {
    const review = decodeObject(await capture(['auth', 'can-i', '--list', '-n', 'shop'], 'selfsubjectrulesreviews'));
    expect(review).toEqual({ kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { namespace: 'shop' }, status: { incomplete: false } });
  });

  it('auth whoami sends a SelfSubjectReview', async () => {
    const review = decodeObject(await capture(['auth', 'whoami'], 'selfsubjectreviews'));
    expect(review).toEqual({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } });
  });
});
