/**
 * CustomResourceDefinitions end to end (issue 12, first steps): each space has its own CRDs, which
 * stock kubectl applies, lists (NAME, CREATED AT) and waits on (Established); an invalid one is
 * 422 with kube's causes; `kubectl create -f` validation, which lists CRDs, works; and an
 * Established CRD's custom resources are served in its space only, by its own schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const versions: KubectlVersion[] = ['1.27', '1.33'];
const kubectlPath = kubectlForTests(versions);
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'crontabs.stable.example.com';

/** The CronTab CRD of the Kubernetes documentation ("Extend the Kubernetes API with CustomResourceDefinitions"). */
function cronTabCrd(properties: Record<string, unknown> = { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } }) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'stable.example.com',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } } }],
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    },
  };
}

describe.each(backendCases(kubectlPath !== undefined))('CRDs on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;
    let bob: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, CRDS);
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, CRDS);
    });

    afterAll(async () => {
      for (const u of [alice, bob]) u?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('applies the CronTab CRD with kubectl 1.27 and 1.33, and waits for it to be Established', async () => {
      const manifest = toYaml(cronTabCrd());
      const first = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: manifest, version: '1.27' });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${NAME} created`);
      for (const version of versions) {
        const wait = await kubectl.run(['wait', '--for=condition=Established', `crd/${NAME}`, '--timeout=20s'], { kubeconfig: alice.kubeconfig, version });
        expect(wait.code, wait.stderr).toBe(0);
        expect(wait.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${NAME} condition met`);
        const again = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: manifest, version });
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${NAME} unchanged`);
      }
      const crd = (await alice.api.request('GET', `${CRDS}/${NAME}`)).json<{ metadata: { tenant: string }; status: Record<string, unknown> }>();
      expect(crd.metadata.tenant).toBe('t1');
      expect(crd.status).toMatchObject({
        acceptedNames: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] },
        storedVersions: ['v1'],
        conditions: [
          { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts' },
          { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' },
        ],
      });
    });

    it('lists CRDs with NAME and CREATED AT, by every name kubectl knows them by', async () => {
      const created = (await alice.api.request('GET', `${CRDS}/${NAME}`)).json<{ metadata: { creationTimestamp: string } }>().metadata.creationTimestamp;
      for (const version of versions) {
        for (const name of ['crd', 'crds', 'customresourcedefinitions.apiextensions.k8s.io']) {
          const got = await kubectl.run(['get', name], { kubeconfig: alice.kubeconfig, version });
          expect(got.code, got.stderr).toBe(0);
          const [header, row, ...rest] = got.stdout.trimEnd().split('\n');
          expect(header?.split(/\s{2,}/)).toEqual(['NAME', 'CREATED AT']);
          expect(row?.split(/\s+/)).toEqual([NAME, created]);
          expect(rest).toEqual([]);
        }
      }
    });

    it('keeps each space’s CRDs to itself: t2 sees none, and may define its own of the same name', async () => {
      for (const version of versions) {
        const none = await kubectl.run(['get', 'crd'], { kubeconfig: bob.kubeconfig, version });
        expect(none.code, none.stderr).toBe(0);
        expect(none.stdout).toBe('');
        expect(none.stderr.trim()).toBe('No resources found');
      }
      const own = await kubectl.run(['apply', '-f', '-'], { kubeconfig: bob.kubeconfig, stdin: toYaml(cronTabCrd({ schedule: { type: 'string' } })), version: '1.33' });
      expect(own.code, own.stderr).toBe(0);
      expect(own.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${NAME} created`);
      const schemaPath = 'jsonpath={.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties}';
      const theirs = await kubectl.run(['get', 'crd', NAME, '-o', schemaPath], { kubeconfig: bob.kubeconfig });
      expect(JSON.parse(theirs.stdout)).toEqual({ schedule: { type: 'string' } });
      const mine = await kubectl.run(['get', 'crd', NAME, '-o', schemaPath], { kubeconfig: alice.kubeconfig });
      expect(Object.keys(JSON.parse(mine.stdout) as object)).toEqual(['cronSpec', 'image', 'replicas']);
      const wait = await kubectl.run(['wait', '--for=condition=Established', `crd/${NAME}`, '--timeout=20s'], { kubeconfig: bob.kubeconfig });
      expect(wait.code, wait.stderr).toBe(0);
    });

    it('explains CRDs, recursive schema included', async () => {
      for (const version of versions) {
        const names = await kubectl.run(['explain', 'crd.spec.names'], { kubeconfig: alice.kubeconfig, version });
        expect(names.code, names.stderr).toBe(0);
        expect(names.stdout).toMatch(/^KIND:\s+CustomResourceDefinition$/m);
        expect(names.stdout).toMatch(/^\s+plural\s+<string> -required-$/m);
        const nested = await kubectl.run(['explain', 'crd.spec.versions.schema.openAPIV3Schema.properties'], { kubeconfig: alice.kubeconfig, version });
        expect(nested.code, nested.stderr).toBe(0);
        expect(nested.stdout).toMatch(/properties\s+<map\[string\]JSONSchemaProps>/);
      }
    });

    it('refuses an invalid CRD with 422 and kube’s causes', async () => {
      const bad = cronTabCrd();
      bad.metadata.name = 'crontab.stable.example.com';
      bad.spec.scope = 'Everywhere';
      bad.spec.versions[0]!.storage = false;
      const res = await alice.api.request('POST', CRDS, { json: bad });
      expect(res.status, res.body).toBe(422);
      const status = res.json<{ reason: string; details: { name: string; group: string; kind: string; causes: Array<{ field: string; message: string }> } }>();
      expect(status.reason).toBe('Invalid');
      expect(status.details).toMatchObject({ name: 'crontab.stable.example.com', group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' });
      expect(status.details.causes.map((c) => `${c.field}: ${c.message.replace(/Invalid value: \[\{.*\}\]:/, 'Invalid value: ...:')}`)).toEqual([
        'metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group',
        'spec.scope: Unsupported value: "Everywhere": supported values: "Cluster", "Namespaced"',
        'spec.versions: Invalid value: ...: must have exactly one version marked as storage version',
        'status.storedVersions: Invalid value: []: must have at least one stored version',
      ]);
      const byKubectl = await kubectl.run(['create', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: toYaml(bad), version: '1.33' });
      expect(byKubectl.code).toBe(1);
      expect(byKubectl.stderr).toContain('The CustomResourceDefinition "crontab.stable.example.com" is invalid:');
    });

    it('creates a SelfSubjectAccessReview with kubectl create -f (its validation lists CRDs)', async () => {
      const review = toYaml({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } });
      for (const version of versions) {
        const res = await kubectl.run(['create', '-f', '-', '-o', 'jsonpath={.status.allowed}'], { kubeconfig: alice.kubeconfig, stdin: review, version });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toBe('true');
      }
    });

    it('serves CronTabs in discovery of the space whose CRD is Established', async () => {
      for (const version of versions) {
        const listed = await kubectl.run(['api-resources', '--api-group=stable.example.com'], { kubeconfig: alice.kubeconfig, version });
        expect(listed.code, listed.stderr).toBe(0);
        const table = parseTable(listed.stdout);
        expect(table.row('crontabs')).toMatchObject({ SHORTNAMES: 'ct', APIVERSION: 'stable.example.com/v1', NAMESPACED: 'true', KIND: 'CronTab' });
      }
      const group = (await alice.api.request('GET', '/apis/stable.example.com/v1')).json<{ resources: Array<{ name: string; kind: string }> }>();
      expect(group.resources.map((r) => [r.name, r.kind])).toEqual([['crontabs', 'CronTab']]);
    });

    it('creates, reads, lists, watches, patches and deletes CronTabs with kubectl, each space with its own schema', async () => {
      const cronTab = (extra: Record<string, unknown> = {}) =>
        toYaml({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object', namespace: 'default' }, spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', ...extra } });
      // Fields the schema lacks: refused by kubectl's default strict validation, pruned with a warning otherwise.
      const strict = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab({ unknownField: 1 }), version: '1.33' });
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.unknownField"');
      const created = await kubectl.run(['apply', '--validate=warn', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab({ unknownField: 1 }), version: '1.33' });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object created');
      expect(created.stderr).toContain('unknown field "spec.unknownField"');
      for (const version of versions) {
        const got = await kubectl.run(['get', 'ct'], { kubeconfig: alice.kubeconfig, version });
        expect(got.code, got.stderr).toBe(0);
        expect(parseTable(got.stdout).header).toEqual(['NAME', 'AGE']);
        expect(parseTable(got.stdout).row('my-new-cron-object')).toBeDefined();
      }
      const spec = await kubectl.run(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.spec}'], { kubeconfig: alice.kubeconfig });
      expect(JSON.parse(spec.stdout)).toEqual({ cronSpec: '* * * * */5', image: 'my-awesome-cron-image' });

      const merge = await kubectl.run(['patch', 'ct', 'my-new-cron-object', '--type=merge', '-p', '{"spec":{"replicas":3}}'], { kubeconfig: alice.kubeconfig });
      expect(merge.code, merge.stderr).toBe(0);
      const json = await kubectl.run(['patch', 'ct', 'my-new-cron-object', '--type=json', '-p', '[{"op":"replace","path":"/spec/image","value":"other"}]'], { kubeconfig: alice.kubeconfig });
      expect(json.code, json.stderr).toBe(0);
      const strategic = await kubectl.run(['patch', 'ct', 'my-new-cron-object', '-p', '{"spec":{"replicas":4}}'], { kubeconfig: alice.kubeconfig });
      expect(strategic.code).toBe(1);
      expect(strategic.stderr).toContain('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
      const patched = await kubectl.run(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.spec.image} {.metadata.generation}'], { kubeconfig: alice.kubeconfig });
      expect(patched.stdout).toBe('3 other 3');
      const applied = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab({ replicas: 5 }), version: '1.27' });
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout.trim()).toBe('crontab.stable.example.com/my-new-cron-object configured');

      const watched = await alice.api.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs?watch=true&timeoutSeconds=1');
      expect(watched.status).toBe(200);
      expect(JSON.parse(watched.body.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { kind: 'CronTab', metadata: { name: 'my-new-cron-object' }, spec: { replicas: 5 } } });

      // t2 has a CronTab kind of its own (a CRD with another schema), and none of t1's objects.
      const theirs = await kubectl.run(['get', 'ct', '-A'], { kubeconfig: bob.kubeconfig });
      expect(theirs.code, theirs.stderr).toBe(0);
      expect(theirs.stderr.trim()).toBe('No resources found');
      const own = await kubectl.run(['apply', '--validate=warn', '-f', '-'], { kubeconfig: bob.kubeconfig, stdin: cronTab({ schedule: 'daily' }) });
      expect(own.code, own.stderr).toBe(0);
      const ownSpec = await kubectl.run(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec}'], { kubeconfig: bob.kubeconfig });
      expect(JSON.parse(ownSpec.stdout)).toEqual({ schedule: 'daily' });

      const deleted = await kubectl.run(['delete', 'ct', 'my-new-cron-object'], { kubeconfig: alice.kubeconfig });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout.trim()).toBe('crontab.stable.example.com "my-new-cron-object" deleted');
      expect((await bob.api.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object')).status).toBe(200);
    });

    it('serves every served version over one storage: None conversion rewrites apiVersion, a deprecated version warns, storedVersions grows', async () => {
      const WIDGETS = 'widgets.versions.example.com';
      const version = (name: string, extra: Record<string, unknown> = {}) => ({
        name,
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
        ...extra,
      });
      const widgets = (versions: unknown[]) => ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: WIDGETS },
        spec: { group: 'versions.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions },
      });
      const created = await alice.api.request('POST', CRDS, { json: widgets([version('v1beta1', { deprecated: true }), version('v1', { storage: true }), version('v2alpha1', { deprecated: true, deprecationWarning: 'v2alpha1 "is" gone soon' })]) });
      expect(created.status, created.body).toBe(201);
      const wait = await kubectl.run(['wait', '--for=condition=Established', `crd/${WIDGETS}`, '--timeout=20s'], { kubeconfig: alice.kubeconfig });
      expect(wait.code, wait.stderr).toBe(0);
      const group = (await alice.api.request('GET', '/apis/versions.example.com')).json<{ versions: Array<{ version: string }>; preferredVersion: { version: string } }>();
      expect([group.versions.map((v) => v.version), group.preferredVersion.version]).toEqual([['v1', 'v1beta1', 'v2alpha1'], 'v1']);

      const ns = (v: string) => `/apis/versions.example.com/${v}/namespaces/default/widgets`;
      const old = await alice.api.request('POST', ns('v1beta1'), { json: { apiVersion: 'versions.example.com/v1beta1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } } });
      expect(old.status, old.body).toBe(201);
      expect(old.headers['warning']).toBe('299 - "versions.example.com/v1beta1 Widget is deprecated; use versions.example.com/v1 Widget"');
      expect(old.json<{ apiVersion: string }>().apiVersion).toBe('versions.example.com/v1beta1');
      for (const v of ['v1', 'v1beta1', 'v2alpha1']) {
        const got = await alice.api.request('GET', `${ns(v)}/w`);
        expect(got.json<{ apiVersion: string; spec: unknown }>()).toMatchObject({ apiVersion: `versions.example.com/${v}`, spec: { size: 1 } });
        const listed = await alice.api.request('GET', ns(v));
        expect(listed.json<{ apiVersion: string; items: Array<{ apiVersion: string }> }>().items.map((i) => i.apiVersion)).toEqual([`versions.example.com/${v}`]);
      }
      expect((await alice.api.request('GET', `${ns('v1')}/w`)).headers['warning']).toBeUndefined();
      expect((await alice.api.request('GET', `${ns('v2alpha1')}/w`)).headers['warning']).toBe('299 - "v2alpha1 \\"is\\" gone soon"');
      const watched = await alice.api.request('GET', `${ns('v2alpha1')}?watch=true&timeoutSeconds=1`);
      expect(watched.headers['warning']).toBe('299 - "v2alpha1 \\"is\\" gone soon"');
      expect(JSON.parse(watched.body.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { apiVersion: 'versions.example.com/v2alpha1', metadata: { name: 'w' } } });
      for (const kubectlVersion of versions) {
        const got = await kubectl.run(['get', 'widgets.v1beta1.versions.example.com', 'w', '-o', 'jsonpath={.apiVersion}'], { kubeconfig: alice.kubeconfig, version: kubectlVersion });
        expect(got.code, got.stderr).toBe(0);
        expect(got.stdout).toBe('versions.example.com/v1beta1');
        expect(got.stderr).toContain('Warning: versions.example.com/v1beta1 Widget is deprecated; use versions.example.com/v1 Widget');
      }

      // The storage version moves to v2alpha1: both are listed as stored, and old objects still read in every version.
      const crd = (await alice.api.request('GET', `${CRDS}/${WIDGETS}`)).json<{ metadata: { resourceVersion: string }; status: { storedVersions: string[] } }>();
      expect(crd.status.storedVersions).toEqual(['v1']);
      const moved = await alice.api.request('PUT', `${CRDS}/${WIDGETS}`, {
        json: { ...widgets([version('v1beta1', { deprecated: true }), version('v1'), version('v2alpha1', { storage: true })]), metadata: { name: WIDGETS, resourceVersion: crd.metadata.resourceVersion } },
      });
      expect(moved.status, moved.body).toBe(200);
      expect(moved.json<{ status: { storedVersions: string[] } }>().status.storedVersions).toEqual(['v1', 'v2alpha1']);
      expect((await alice.api.request('POST', ns('v1'), { json: { apiVersion: 'versions.example.com/v1', kind: 'Widget', metadata: { name: 'w2' } } })).status).toBe(201);
      for (const name of ['w', 'w2']) expect((await alice.api.request('GET', `${ns('v1beta1')}/${name}`)).json<{ apiVersion: string }>().apiVersion).toBe('versions.example.com/v1beta1');
      const removed = await kubectl.run(['delete', 'crd', WIDGETS], { kubeconfig: alice.kubeconfig });
      expect(removed.code, removed.stderr).toBe(0);
    });

    it('prints a version’s columns (priority 1 with -o wide), lists it in category all, scales it, selects on its fields and explains it', async () => {
      const PRINTED = 'printed.columns.example.com';
      const printed = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: PRINTED },
        spec: {
          group: 'columns.example.com',
          scope: 'Namespaced',
          names: { plural: 'printed', singular: 'printedone', kind: 'Printed', shortNames: ['pr'], categories: ['all'] },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
              selectableFields: [{ jsonPath: '.spec.color' }],
              additionalPrinterColumns: [
                { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec', description: 'The cron spec' },
                { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
                { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
                { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
              ],
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: { type: 'object', description: 'What the printed one should be.', properties: { cronSpec: { type: 'string', description: 'When it runs.' }, replicas: { type: 'integer' }, color: { type: 'string' } } },
                    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
                  },
                },
              },
            },
          ],
        },
      };
      const created = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: toYaml(printed), version: '1.33' });
      expect(created.code, created.stderr).toBe(0);
      expect((await kubectl.run(['wait', '--for=condition=Established', `crd/${PRINTED}`, '--timeout=20s'], { kubeconfig: alice.kubeconfig })).code).toBe(0);
      const one = (name: string, color: string, replicas: number) => ({ apiVersion: 'columns.example.com/v1', kind: 'Printed', metadata: { name, namespace: 'default' }, spec: { cronSpec: '*/5 * * * *', replicas, color } });
      const applied = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: [one('red-one', 'red', 1), one('blue-one', 'blue', 2)].map((o) => toYaml(o)).join('---\n'), version: '1.33' });
      expect(applied.code, applied.stderr).toBe(0);
      for (const version of versions) {
        const plain = await kubectl.run(['get', 'pr'], { kubeconfig: alice.kubeconfig, version });
        expect(plain.code, plain.stderr).toBe(0);
        expect(parseTable(plain.stdout).header).toEqual(['NAME', 'SPEC', 'REPLICAS', 'AGE']);
        expect(parseTable(plain.stdout).row('red-one')).toMatchObject({ SPEC: '*/5 * * * *', REPLICAS: '1' });
        const wide = await kubectl.run(['get', 'printed', '-o', 'wide'], { kubeconfig: alice.kubeconfig, version });
        expect(parseTable(wide.stdout).header).toEqual(['NAME', 'SPEC', 'REPLICAS', 'AGE', 'COLOR']);
        expect(parseTable(wide.stdout).row('blue-one')).toMatchObject({ COLOR: 'blue', REPLICAS: '2' });
        const all = await kubectl.run(['get', 'all'], { kubeconfig: alice.kubeconfig, version });
        expect(all.code, all.stderr).toBe(0);
        expect(all.stdout).toContain('printed.columns.example.com/red-one');
        expect(all.stdout).toContain('service/kubernetes');
      }
      const selected = await kubectl.run(['get', 'printed', '--field-selector', 'spec.color=red', '-o', 'name'], { kubeconfig: alice.kubeconfig, version: '1.33' });
      expect(selected.code, selected.stderr).toBe(0);
      expect(selected.stdout.trim()).toBe('printed.columns.example.com/red-one');
      const scaled = await kubectl.run(['scale', 'printed/blue-one', '--replicas=4'], { kubeconfig: alice.kubeconfig, version: '1.33' });
      expect(scaled.code, scaled.stderr).toBe(0);
      expect(scaled.stdout.trim()).toBe('printed.columns.example.com/blue-one scaled');
      expect((await kubectl.run(['get', 'printed', 'blue-one', '-o', 'jsonpath={.spec.replicas}'], { kubeconfig: alice.kubeconfig })).stdout).toBe('4');
      for (const version of versions) {
        const explained = await kubectl.run(['explain', 'printed.spec'], { kubeconfig: alice.kubeconfig, version });
        expect(explained.code, explained.stderr).toBe(0);
        expect(explained.stdout).toMatch(/^KIND:\s+Printed$/m);
        expect(explained.stdout).toContain('What the printed one should be.');
        expect(explained.stdout).toMatch(/^\s+cronSpec\s+<string>$/m);
      }
      expect((await kubectl.run(['explain', 'printed.spec'], { kubeconfig: bob.kubeconfig })).code).toBe(1);
    });

    it('deletes a CRD: the cleanup finalizer is released and it goes', async () => {
      const deleted = await kubectl.run(['delete', 'crd', NAME], { kubeconfig: bob.kubeconfig, version: '1.33' });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io "${NAME}" deleted`);
      await eventually('t2 CRD to be gone', async () => (await bob.api.request('GET', `${CRDS}/${NAME}`)).status === 404);
      // Its custom resources went first, and the kind is no longer served in t2 (still in t1).
      expect((await bob.api.request('GET', '/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object')).status).toBe(404);
      expect((await bob.api.request('GET', '/apis/stable.example.com/v1')).status).toBe(404);
      expect((await alice.api.request('GET', '/apis/stable.example.com/v1')).status).toBe(200);
      // t1's of the same name is untouched.
      expect((await alice.api.request('GET', `${CRDS}/${NAME}`)).status).toBe(200);
    });

    it('keeps kubectl’s discovery cache per space (each tenant kubeconfig has its space’s URL); aggregated discovery revalidates by ETag', async () => {
      // One HOME for both users: kubectl caches discovery on disk by server URL.
      const t1 = await kubectl.run(['get', 'printed'], { kubeconfig: alice.kubeconfig, version: '1.33' });
      expect(t1.code, t1.stderr).toBe(0);
      const t2 = await kubectl.run(['get', 'printed'], { kubeconfig: bob.kubeconfig, version: '1.33' });
      expect(t2.code).toBe(1);
      expect(t2.stderr).toContain('the server doesn\'t have a resource type "printed"');
      const noKind = await kubectl.run(['apply', '-f', '-'], { kubeconfig: bob.kubeconfig, stdin: toYaml({ apiVersion: 'columns.example.com/v1', kind: 'Printed', metadata: { name: 'x', namespace: 'default' } }), version: '1.33' });
      expect(noKind.code).toBe(1);
      expect(noKind.stderr).toContain('no matches for kind "Printed" in version "columns.example.com/v1"');
      for (const u of [alice, bob]) expect(parseYaml(await readFile(u.kubeconfig, 'utf8')).clusters[0].cluster.server).toBe(`${cluster.server.url}/tenants/${u === alice ? 't1' : 't2'}`);

      const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
      const first = await bob.api.request('GET', '/apis', { headers: { accept } });
      const etag = first.headers['etag'] as string;
      expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
      expect((await bob.api.request('GET', '/apis', { headers: { accept } })).headers['etag']).toBe(etag);
      const unchanged = await bob.api.request('GET', '/apis', { headers: { accept, 'if-none-match': etag } });
      expect([unchanged.status, unchanged.body]).toEqual([304, '']);
      expect((await alice.api.request('GET', '/apis', { headers: { accept } })).headers['etag']).not.toBe(etag);
      const own = cronTabCrd();
      own.metadata.name = 'crontabs.again.example.com';
      own.spec.group = 'again.example.com';
      expect((await bob.api.request('POST', CRDS, { json: own })).status).toBe(201);
      await eventually('t2’s discovery to change', async () => (await bob.api.request('GET', '/apis', { headers: { accept, 'if-none-match': etag } })).status === 200);
      const listed = await kubectl.run(['get', 'crontabs.again.example.com'], { kubeconfig: bob.kubeconfig, version: '1.33' });
      expect(listed.code, listed.stderr).toBe(0);
    });
  });
});
