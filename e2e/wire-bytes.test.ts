/**
 * Our JSON bytes against the bytes kube-apiserver writes for the same answers, derived by hand
 * from Go's encoding rules: struct field order (TypeMeta first, `metav1.Status` as kind,
 * apiVersion, metadata, status, message, reason, details, code), omitempty, sorted map keys,
 * `<`, `>` and `&` escaped, and the trailing newline of `json.Encoder`, also after each watch
 * event. Pretty printing as `isPrettyPrint` decides (curl, Wget, browsers, `?pretty`), also for
 * the real curl, and Content-Types exactly as Go writes them. Our one
 * addition to Go's bytes is `metadata.tenant`, after Go's ObjectMeta fields. Then numeric
 * quantities (`cpu: 0.5`) through stock kubectl 1.27 and 1.33, stored in canonical form.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kubeconfigToken } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

const CURL = { 'user-agent': 'curl/8.5.0' };

interface Meta {
  uid: string;
  resourceVersion: string;
  creationTimestamp: string;
}

/** The ConfigMap below as kube-apiserver writes it (manager `wire-test`), plus our tenant. */
function configMapBytes(ns: string, m: Meta, typeMeta = true): string {
  const head = typeMeta ? '"kind":"ConfigMap","apiVersion":"v1",' : '';
  return (
    `{${head}"metadata":{"name":"cm","namespace":"${ns}","uid":"${m.uid}","resourceVersion":"${m.resourceVersion}","creationTimestamp":"${m.creationTimestamp}",` +
    `"labels":{"a":"2","b":"1"},"annotations":{"note":"x \\u003c y \\u0026\\u0026 y \\u003e z"},` +
    `"managedFields":[{"manager":"wire-test","operation":"Update","apiVersion":"v1","time":"${m.creationTimestamp}","fieldsType":"FieldsV1",` +
    `"fieldsV1":{"f:data":{".":{},"f:a":{},"f:z":{}},"f:metadata":{"f:annotations":{".":{},"f:note":{}},"f:labels":{".":{},"f:a":{},"f:b":{}}}}}],"tenant":"system"},` +
    `"data":{"a":"\\u003chtml\\u003e","z":"1"}}`
  );
}

/** `json.MarshalIndent`'s bytes for the compact JSON `compact`: two spaces, Go's escapes, no trailing newline. */
function goIndented(compact: string): string {
  return JSON.stringify(JSON.parse(compact), null, 2).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

describe.each(backendCases())('wire bytes on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let ns: string;
    let meta: Meta;
    let createdBody: string;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      ns = await cluster.newNamespace('wire');
      // Keys in an order Go would not write them, and characters Go escapes.
      const res = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=wire-test`, {
        json: { data: { z: '1', a: '<html>' }, metadata: { labels: { b: '1', a: '2' }, annotations: { note: 'x < y && y > z' }, name: 'cm' }, kind: 'ConfigMap', apiVersion: 'v1' },
      });
      if (res.status !== 201) throw new Error(`creating the configmap: ${res.status} ${res.body}`);
      meta = res.json<{ metadata: Meta }>().metadata;
      createdBody = res.body;
    });
    afterAll(() => cluster?.cleanup());

    it('the created object', () => {
      expect(createdBody).toBe(`${configMapBytes(ns, meta)}\n`);
    });

    it('a 404 Status (core group: no group in its details)', async () => {
      const res = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/absent`);
      expect(res.status).toBe(404);
      expect(res.body).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"absent\\" not found","reason":"NotFound","details":{"name":"absent","kind":"configmaps"},"code":404}\n',
      );
    });

    it('a 404 Status of a named group', async () => {
      const res = await cluster.api.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/absent`);
      expect(res.body).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"absent\\" not found","reason":"NotFound","details":{"name":"absent","group":"apps","kind":"deployments"},"code":404}\n',
      );
    });

    it('a 409 AlreadyExists Status', async () => {
      const res = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } });
      expect(res.status).toBe(409);
      expect(res.body).toBe(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"cm\\" already exists","reason":"AlreadyExists","details":{"name":"cm","kind":"configmaps"},"code":409}\n',
      );
    });

    it('a 422 Invalid Status with its causes', async () => {
      const res = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { 'a<b': 'x' } } });
      expect(res.status).toBe(422);
      const why = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
      const cause = `Invalid value: \\"a\\u003cb\\": ${why}`;
      expect(res.body).toBe(
        `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ConfigMap \\"cm\\" is invalid: data[a\\u003cb]: ${cause}","reason":"Invalid",` +
          `"details":{"name":"cm","kind":"ConfigMap","causes":[{"reason":"FieldValueInvalid","message":"${cause}","field":"data[a\\u003cb]"}]},"code":422}\n`,
      );
    });

    it('an object', async () => {
      const res = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/cm`);
      expect(res.body).toBe(`${configMapBytes(ns, meta)}\n`);
    });

    it('a list: items without kind and apiVersion', async () => {
      // The selector leaves out the namespace's kube-root-ca.crt.
      const res = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=a%3D2`);
      const rv = res.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
      expect(res.body).toBe(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"${rv}"},"items":[${configMapBytes(ns, meta, false)}]}\n`);
    });

    it('a watch event: one JSON line, never indented (even for curl)', async () => {
      const res = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=a%3D2&watch=true&resourceVersion=0&timeoutSeconds=1`, { headers: CURL });
      expect(res.body).toBe(`{"type":"ADDED","object":${configMapBytes(ns, meta)}}\n`);
    });

    it('indents for curl, Wget and browsers and for ?pretty=true, without the trailing newline; ?pretty=false wins over the User-Agent', async () => {
      const compact = `${configMapBytes(ns, meta)}\n`;
      const indented = goIndented(compact);
      const get = (query: string, headers: Record<string, string> = {}) => cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/cm${query}`, { headers }).then((r) => r.body);
      expect(await get('', CURL)).toBe(indented);
      expect(await get('', { 'user-agent': 'Wget/1.21.4' })).toBe(indented);
      expect(await get('', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' })).toBe(indented);
      expect(await get('?pretty=true', { 'user-agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef' })).toBe(indented);
      expect(await get('', { accept: 'application/json;pretty=1' })).toBe(indented);
      expect(await get('?pretty=false', CURL)).toBe(compact);
      expect(await get('', { 'user-agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abcdef' })).toBe(compact);
      // Errors too: a Status is written by the same serializer.
      const missing = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/absent`, { headers: CURL });
      expect(missing.body).toBe(
        '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "configmaps \\"absent\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "absent",\n    "kind": "configmaps"\n  },\n  "code": 404\n}',
      );
    });

    it('real curl gets the indented object; with ?pretty=false the compact bytes', async () => {
      const token = await kubeconfigToken(cluster.server.adminKubeconfig);
      const curl = (query: string): string => {
        const run = spawnSync('curl', ['-sS', '--cacert', join(cluster.server.dataDir, 'ca.crt'), '-H', `Authorization: Bearer ${token}`, `${cluster.server.url}/api/v1/namespaces/${ns}/configmaps/cm${query}`], { encoding: 'utf8', timeout: 20_000 });
        expect(run.status, run.stderr).toBe(0);
        return run.stdout;
      };
      const compact = `${configMapBytes(ns, meta)}\n`;
      expect(curl('')).toBe(goIndented(compact));
      expect(curl('?pretty=false')).toBe(compact);
    });

    it('keys named like JavaScript object members and a null label value are stored and written as Go does', async () => {
      const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"js-keys","labels":{"a":null}},"data":{"z":"1","constructor":"c","__proto__":"p"}}';
      const created = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body, headers: { 'content-type': 'application/json' } });
      expect(created.status, created.body).toBe(201);
      const read = await cluster.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/js-keys`);
      expect(read.body).toContain('"labels":{"a":""}');
      expect(read.body).toContain('"data":{"__proto__":"p","constructor":"c","z":"1"}}\n');
    });

    it('Content-Types exactly as kube-apiserver writes them (no charset, parameters unquoted)', async () => {
      const typeOf = async (path: string, accept?: string) => (await cluster.api.request('GET', path, { headers: accept ? { accept } : {} })).headers['content-type'];
      expect(await typeOf(`/api/v1/namespaces/${ns}/configmaps/cm`)).toBe('application/json');
      expect(await typeOf(`/api/v1/namespaces/${ns}/configmaps/absent`)).toBe('application/json');
      expect(await typeOf(`/api/v1/namespaces/${ns}/configmaps`)).toBe('application/json');
      expect(await typeOf(`/api/v1/namespaces/${ns}/configmaps/cm`, 'application/yaml')).toBe('application/yaml');
      expect(await typeOf('/version')).toBe('application/json');
      expect(await typeOf('/api/v1')).toBe('application/json');
      for (const version of ['v2', 'v2beta1']) {
        const asked = `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
        expect(await typeOf('/apis', asked)).toBe(asked);
      }
    });

    it('/version indented without a trailing newline, as WriteRawJSON', async () => {
      const res = await cluster.api.request('GET', '/version');
      expect(res.body).toMatch(/^\{\n {2}"major": "1",\n {2}"minor": "\d+",\n[\s\S]*\n\}$/);
    });

    it('a fractional quantity sent as a JSON number is stored canonical, and an IntOrString refuses one', async () => {
      const pod = (cpu: unknown, port: unknown) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `q-${String(port)}`.replace('.', '-') },
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu } }, livenessProbe: { tcpSocket: { port } } }] },
      });
      const created = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/pods`, { json: pod(0.5, 8080) });
      expect(created.status, created.body).toBe(201);
      expect(created.body).toContain('"resources":{"limits":{"cpu":"500m"},"requests":{"cpu":"500m"}}');
      const refused = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/pods`, { json: pod('1', 80.5) });
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({
        reason: 'BadRequest',
        message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 80.5 into Go struct field TCPSocketAction.spec.containers.livenessProbe.tcpSocket.port of type int32',
      });
    });
  });

  describe.skipIf(skip || kubectlPath === undefined)('stock kubectl applies numeric quantities', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
    });
    afterAll(async () => {
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it.each(VERSIONS)('kubectl %s: cpu 0.5 and memory 1.5 in a ReplicationController and a Pod read back as 500m and 1500m', async (version) => {
      const ns = await cluster.newNamespace(`quantity-${version.replace('.', '-')}`);
      const container = { name: 'web', image: 'nginx', resources: { limits: { cpu: 0.5, memory: 1.5 }, requests: { cpu: 0.25 } } };
      const manifests = [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: ns }, spec: { containers: [container] } },
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          metadata: { name: 'web', namespace: ns },
          spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } },
        },
      ];
      const apply = await kubectl.run(['apply', '-f', '-'], { version, stdin: manifests.map((m) => stringify(m)).join('---\n') });
      expect(apply.stderr).toBe('');
      expect(apply.stdout).toBe('pod/web created\nreplicationcontroller/web created\n');
      const read = await kubectl.run(['get', 'pod/web', 'rc/web', '-n', ns, '-o', 'jsonpath={range .items[*]}{.kind} {..resources.limits.cpu} {..resources.limits.memory} {..resources.requests.cpu}{"\\n"}{end}'], { version });
      expect(read.stderr).toBe('');
      expect(read.stdout).toBe('Pod 500m 1500m 250m\nReplicationController 500m 1500m 250m\n');
    });
  });
});
