/**
 * `/openapi/v2` and `storageVersionHash` as stock kubectl and other clients read them, against the
 * built server on SQLite and on a real etcd:
 * - the whole Swagger 2.0 document in JSON (`get --raw`, python's json.tool) with a definition for
 *   every kind discovery lists, and in gnostic protobuf, which kubectl 1.27 fetches for create,
 *   apply, explain and client-side validation (kubectl-contract.md §0 #3);
 * - `explain --output=plaintext-openapiv2`, client-side validation of a List (the one case kubectl
 *   validates against v2 rather than asking the server to), and kubectl 1.27's apply, whose
 *   strategic merge patch follows the v2 schemas' merge keys;
 * - ETag, 304 on If-None-Match (v3 documents too), and 406 as kube-openapi answers them;
 * - `storageVersionHash` in legacy discovery with kube-apiserver's values, and none in aggregated
 *   discovery, whose APIResourceDiscovery has no such field.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { userKubeconfig, waitForTenantPhase } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27']);

const VERSIONS: Array<{ label: string; version: KubectlVersion }> = [
  { label: '1.27', version: '1.27' },
  { label: '1.33 (picked by the dispatcher)', version: 'dispatcher' },
];

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr.slice(-4000)}`).toBe(0);
  return result.stdout;
}

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

interface Swagger {
  swagger: string;
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, { 'x-kubernetes-group-version-kind'?: Gvk[] }>;
}

interface AggregatedList {
  items: Array<{ versions: Array<{ resources: Array<{ resource: string; responseKind: Gvk }> }> }>;
}

function deploymentYaml(ns: string, image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: main
        image: ${image}
`;
}

describe.each(backendCases(kubectlPath !== undefined))('/openapi/v2 and storageVersionHash on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster(backend);
    });
    afterAll(() => cluster?.cleanup());

    describe.each(VERSIONS)('kubectl $label', ({ version }) => {
      let kubectl: Kubectl;
      const k = (args: string[], options: { stdin?: string } = {}): Promise<KubectlResult> => kubectl.run(args, { version, ...options });

      beforeAll(async () => {
        kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      });
      afterAll(() => kubectl?.cleanup());

      it('get --raw /openapi/v2 is JSON python reads, with a definition for every kind discovery lists', async () => {
        const raw = ok(await k(['get', '--raw', '/openapi/v2']));
        const tool = spawnSync('python3', ['-m', 'json.tool'], { input: raw, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        expect(tool.status, tool.stderr).toBe(0);
        const doc = JSON.parse(raw) as Swagger;
        expect(doc.swagger).toBe('2.0');
        const tagged = new Set(Object.values(doc.definitions).flatMap((d) => (d['x-kubernetes-group-version-kind'] ?? []).map((g) => `${g.group}/${g.version}/${g.kind}`)));
        const listed: string[] = [];
        for (const root of ['/api', '/apis']) {
          const res = await cluster.api.request('GET', root, { headers: { accept: AGGREGATED } });
          for (const group of res.json<AggregatedList>().items) for (const v of group.versions) for (const r of v.resources) listed.push(`${r.responseKind.group}/${r.responseKind.version}/${r.responseKind.kind}`);
        }
        expect(listed.length).toBeGreaterThan(40);
        expect(listed.filter((gvk) => !tagged.has(gvk))).toEqual([]);
        expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']).toHaveProperty('patch');
      });

      it('explain --output=plaintext-openapiv2 describes fields from the v2 document', async () => {
        const text = ok(await k(['explain', 'deployment.spec.strategy', '--output=plaintext-openapiv2']));
        expect(text).toMatch(/^KIND:\s+Deployment$/m);
        expect(text).toMatch(/^VERSION:\s+apps\/v1$/m);
        expect(text).toMatch(/^RESOURCE: strategy <Object>$/m);
        expect(text).toMatch(/^ {3}rollingUpdate\t<Object>$/m);
        expect(text).toMatch(/^ {3}type\t<string>$/m);
      });

      it('explain deployment.spec works', async () => {
        const text = ok(await k(['explain', 'deployment.spec']));
        expect(text).toMatch(/replicas\s+<integer>/);
        expect(text).toMatch(/template\s+<(Object|PodTemplateSpec)> -required-/);
      });

      it('apply --validate=true catches an unknown field in a List item against the v2 schema, as kubectl words it', async () => {
        const ns = await cluster.newNamespace('v2-validate');
        const list = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed, namespace: ${ns}}
  data: {a: b}
  bogus: 1
`;
        const result = await k(['apply', '--validate=true', '-f', '-'], { stdin: list });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('error validating data: ValidationError(ConfigMap): unknown field "bogus" in io.k8s.api.core.v1.ConfigMap');
        expect(await cluster.read(`/api/v1/namespaces/${ns}/configmaps/listed`)).toBeNull();
        // Without the unknown field the same List goes through.
        ok(await k(['apply', '--validate=true', '-f', '-'], { stdin: list.replace('  bogus: 1\n', '') }));
        expect(await cluster.read(`/api/v1/namespaces/${ns}/configmaps/listed`)).toMatchObject({ data: { a: 'b' } });
      });

      it('apply --validate=true refuses an unknown field of a single object', async () => {
        const ns = await cluster.newNamespace('v2-strict');
        const result = await k(['apply', '--validate=true', '-f', '-'], { stdin: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: strict, namespace: ${ns}}\nbogus: 1\n` });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('unknown field "bogus"');
      });

      it('apply merges containers by name (kubectl 1.27 patches with the v2 merge keys)', async () => {
        const ns = await cluster.newNamespace('v2-apply');
        ok(await k(['apply', '-f', '-'], { stdin: deploymentYaml(ns, 'nginx:1.27') }));
        // A container added by someone else: a three-way merge by name keeps it.
        const added = await cluster.api.request('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/web`, {
          body: JSON.stringify([{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'sidecar', image: 'busybox:1.36' } }]),
          headers: { 'content-type': 'application/json-patch+json' },
        });
        expect(added.status, added.body).toBe(200);
        ok(await k(['apply', '-f', '-'], { stdin: deploymentYaml(ns, 'nginx:1.28') }));
        const stored = (await cluster.read(`/apis/apps/v1/namespaces/${ns}/deployments/web`)) as { spec: { template: { spec: { containers: Array<{ name: string; image: string }> } } } };
        expect(stored.spec.template.spec.containers.map((c) => [c.name, c.image])).toEqual([
          ['main', 'nginx:1.28'],
          ['sidecar', 'busybox:1.36'],
        ]);
      });

      it('legacy discovery carries storageVersionHash as kube-apiserver computes it', async () => {
        const hashes = async (path: string): Promise<Map<string, string | undefined>> => {
          const list = JSON.parse(ok(await k(['get', '--raw', path]))) as { resources: Array<{ name: string; storageVersionHash?: string }> };
          return new Map(list.resources.map((r) => [r.name, r.storageVersionHash]));
        };
        const core = await hashes('/api/v1');
        expect(core.get('configmaps')).toBe('qFsyl6wFWjQ=');
        expect(core.get('pods')).toBe('xPOwRZ+Yhw8=');
        expect(core.get('namespaces')).toBe('Q3oi5N2YM8M=');
        expect(core.get('pods/status')).toBeUndefined();
        const apps = await hashes('/apis/apps/v1');
        expect(apps.get('deployments')).toBe('8aSe+NMegvE=');
        expect(apps.get('deployments/scale')).toBeUndefined();
        expect((await hashes('/apis/events.k8s.io/v1')).get('events')).toBe('r2yiGXH7wu8=');
        expect((await hashes('/apis/authorization.k8s.io/v1')).get('selfsubjectaccessreviews')).toBeUndefined();
      });
    });

    it('answers JSON or protobuf as asked, with one ETag, 304 on If-None-Match, 406 otherwise', async () => {
      const json = await cluster.api.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toBe('application/json');
      expect(json.headers['vary']).toBe('Accept');
      const etag = json.headers['etag'] as string;
      expect(etag).toMatch(/^"[0-9A-F]{128}"$/);

      // What client-go sends, and the spelling kube-openapi answers with.
      for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', PROTOBUF]) {
        const pb = await cluster.api.request('GET', '/openapi/v2', { headers: { accept } });
        expect(pb.status).toBe(200);
        expect(pb.headers['content-type']).toBe(PROTOBUF);
        expect(pb.headers['etag']).toBe(etag);
        expect(Number(pb.headers['content-length'])).toBeGreaterThan(100_000);
        // gnostic Document field 1, swagger = "2.0".
        expect(pb.body.startsWith('\n\x032.0')).toBe(true);
      }
      expect((await cluster.api.request('GET', '/openapi/v2', { headers: { accept: '*/*' } })).headers['content-type']).toBe('application/json');

      const again = await cluster.api.request('GET', '/openapi/v2', { headers: { accept: PROTOBUF, 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect((await cluster.api.request('GET', '/openapi/v2', { headers: { accept: 'application/json', 'if-none-match': '"other"' } })).status).toBe(200);

      const refused = await cluster.api.request('GET', '/openapi/v2', { headers: { accept: 'text/html' } });
      expect(refused.status).toBe(406);
      expect(refused.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });

      // The v3 documents revalidate the same way, and refuse what they are not served as.
      const v3 = await cluster.api.request('GET', '/openapi/v3/apis/apps/v1');
      expect(v3.headers['content-type']).toBe('application/json');
      expect(v3.headers['vary']).toBe('Accept');
      const v3Refused = await cluster.api.request('GET', '/openapi/v3/apis/apps/v1', { headers: { accept: 'text/html' } });
      expect(v3Refused.status).toBe(406);
      expect(v3Refused.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
      expect((await cluster.api.request('GET', '/openapi/v3/apis/apps/v1', { headers: { 'if-none-match': v3.headers['etag'] as string } })).status).toBe(304);
    });

    it('aggregated discovery has no storageVersionHash, as APIResourceDiscovery has no such field', async () => {
      for (const root of ['/api', '/apis']) {
        const res = await cluster.api.request('GET', root, { headers: { accept: AGGREGATED } });
        expect(res.status).toBe(200);
        expect(res.body).toContain('"resource":"');
        expect(res.body).not.toContain('storageVersionHash');
      }
    });

    it("a space's document has the space's kinds and nothing above it", async () => {
      const created = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 'v2t' } } });
      expect(created.status, created.body).toBe(201);
      await waitForTenantPhase(cluster, 'v2t', 'Active');
      const user = await userKubeconfig(cluster, { tenant: 'v2t', user: 'dana' });
      const res = await user.api.request('GET', '/openapi/v2');
      expect(res.status).toBe(200);
      const doc = res.json<Swagger>();
      expect(doc.definitions).toHaveProperty(['io.k8s.api.core.v1.ConfigMap']);
      expect(res.body).not.toContain('io.k8s.api.core.v1.Tenant');
      expect(res.headers['etag']).not.toBe((await cluster.api.request('GET', '/openapi/v2')).headers['etag']);
      user.api.close();
    });
  });
});
