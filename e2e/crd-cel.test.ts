/**
 * CEL validation rules of CRDs end to end (issue 12, point 3): stock kubectl applies a CRD whose
 * schema carries `x-kubernetes-validations`, a custom resource breaking a rule is refused with the
 * message kubectl prints for kube-apiserver, a transition rule keeps a field immutable, a rule
 * that does not compile or is estimated too expensive refuses the CRD itself, and
 * messageExpression, reason and fieldPath shape the error as kube's do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const versions: KubectlVersion[] = ['1.27', '1.33'];
const kubectlPath = kubectlForTests(versions);
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'crontabs.stable.example.com';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** The CronTab CRD of the Kubernetes documentation, with the rules of its "Validation rules" section. */
function cronTabCrd(name = NAME, spec: Record<string, unknown> = {}) {
  const plural = name.split('.')[0]!;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural, kind: plural === 'crontabs' ? 'CronTab' : 'Other' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': [
                    { rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' },
                    { rule: 'self.replicas <= self.maxReplicas', messageExpression: "'replicas should be smaller than or equal to ' + string(self.maxReplicas)", reason: 'FieldValueForbidden', fieldPath: '.replicas' },
                  ],
                  properties: {
                    cronSpec: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: "self.split(' ').size() == 5", message: 'cronSpec must have five fields' }] },
                    image: { type: 'string', maxLength: 256, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'image is immutable' }] },
                    replicas: { type: 'integer' },
                    minReplicas: { type: 'integer' },
                    maxReplicas: { type: 'integer' },
                    endpoint: { type: 'string', maxLength: 256, 'x-kubernetes-validations': [{ rule: "isURL(self) && url(self).getScheme() == 'https'", message: 'endpoint must be an https URL' }] },
                    tags: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 32 }, 'x-kubernetes-validations': [{ rule: 'self.isSorted()', message: 'tags must be sorted' }] },
                  },
                  ...spec,
                },
              },
            },
          },
        },
      ],
    },
  };
}

const cronTabObject = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, namespace: 'default' },
  spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 2, minReplicas: 1, maxReplicas: 5, ...spec },
});
const cronTab = (name: string, spec: Record<string, unknown>) => toYaml(cronTabObject(name, spec));

describe.each(backendCases(kubectlPath !== undefined))('CEL rules of CRDs on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, CRDS);
    });

    afterAll(async () => {
      alice?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('applies a CRD with validation rules, and accepts a CronTab that keeps them', async () => {
      const applied = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: toYaml(cronTabCrd()), version: '1.33' });
      expect(applied.code, applied.stderr).toBe(0);
      const wait = await kubectl.run(['wait', '--for=condition=Established', `crd/${NAME}`, '--timeout=20s'], { kubeconfig: alice.kubeconfig, version: '1.33' });
      expect(wait.code, wait.stderr).toBe(0);
      await eventually('crontabs served', async () => (await alice.api.request('GET', CRONTABS)).status === 200);
      for (const version of versions) {
        const ok = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab(`ok-${version.replace('.', '')}`, { endpoint: 'https://example.com/x', tags: ['a', 'b'] }), version });
        expect(ok.code, ok.stderr).toBe(0);
        expect(ok.stdout.trim()).toBe(`crontab.stable.example.com/ok-${version.replace('.', '')} created`);
      }
    });

    it('refuses a CronTab that breaks a rule, with the message kubectl prints for kube-apiserver', async () => {
      for (const version of versions) {
        const bad = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab('bad', { minReplicas: 3 }), version });
        expect(bad.code).toBe(1);
        expect(bad.stderr.trim()).toBe('The CronTab "bad" is invalid: spec: Invalid value: "object": replicas should be greater than or equal to minReplicas.');
        const several = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab('bad', { cronSpec: '* *', replicas: 9, tags: ['b', 'a'] }), version });
        expect(several.code).toBe(1);
        expect(several.stderr.trim()).toBe(
          [
            'The CronTab "bad" is invalid: ',
            '* spec.replicas: Forbidden: replicas should be smaller than or equal to 5',
            '* spec.cronSpec: Invalid value: "string": cronSpec must have five fields',
            '* spec.tags: Invalid value: "array": tags must be sorted',
          ].join('\n'),
        );
      }
      const res = await alice.api.request('POST', CRONTABS, { json: cronTabObject('bad', { endpoint: 'http://example.com' }) });
      expect(res.status).toBe(422);
      expect(res.json<{ details: { causes: unknown[] } }>().details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "string": endpoint must be an https URL', field: 'spec.endpoint' }]);
    });

    it('keeps a field immutable with a transition rule (self == oldSelf), which create does not run', async () => {
      const changed = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab('ok-133', { image: 'other-image', endpoint: 'https://example.com/x', tags: ['a', 'b'] }), version: '1.33' });
      expect(changed.code).toBe(1);
      expect(changed.stderr.trim()).toBe('The CronTab "ok-133" is invalid: spec.image: Invalid value: "string": image is immutable');
      const scaled = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: cronTab('ok-133', { replicas: 3, endpoint: 'https://example.com/x', tags: ['a', 'b'] }), version: '1.33' });
      expect(scaled.code, scaled.stderr).toBe(0);
      expect(scaled.stdout.trim()).toBe('crontab.stable.example.com/ok-133 configured');
    });

    it('refuses a CRD whose rule does not compile, as kube-apiserver words it', async () => {
      const crd = cronTabCrd('others.stable.example.com', { 'x-kubernetes-validations': [{ rule: 'self.foo == 1' }] });
      const res = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: toYaml(crd), version: '1.33' });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        [
          'The CustomResourceDefinition "others.stable.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.foo == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'foo\'',
          ' | self.foo == 1',
          ' | ....^',
        ].join('\n'),
      );
    });

    it('refuses a CRD whose rule is estimated too expensive', async () => {
      const crd = cronTabCrd('others.stable.example.com');
      const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as { properties: Record<string, unknown> };
      spec.properties.hosts = { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))', message: 'hosts must be unique' }] };
      const res = await kubectl.run(['apply', '-f', '-'], { kubeconfig: alice.kubeconfig, stdin: toYaml(crd), version: '1.33' });
      expect(res.code).toBe(1);
      const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
      expect(res.stderr.trim()).toBe(
        [
          'The CustomResourceDefinition "others.stable.example.com" is invalid: ',
          `* spec.validation.openAPIV3Schema.properties[spec].properties[hosts].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
          '* spec.validation.openAPIV3Schema.properties[spec].properties[hosts].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
          `* spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
        ].join('\n'),
      );
      expect((await alice.api.request('GET', `${CRDS}/others.stable.example.com`)).status).toBe(404);
    });
  });
});
