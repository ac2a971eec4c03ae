/**
 * Admission policies per space, with stock kubectl (1.27 and 1.33) on both backends (issue 18):
 * a ValidatingAdmissionPolicy in t1 with a param ConfigMap limits Deployment replicas per
 * namespace, refused in kube-apiserver's words, while t2 is unaffected; Warn and Audit actions
 * give kubectl's `Warning:` line and the audit annotation; a MutatingAdmissionPolicy sets a default
 * label on t1's pods only; and a system-space policy labelled for every space refuses `:latest`
 * images in t1 and t2, which t1's admin can neither see nor delete.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { configMap, deployment, namespace, toYamlStream, type Manifest } from './harness/manifests.js';
import { createInSpace, eventually, spaceAdmin, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);
const GROUP = 'admissionregistration.k8s.io';

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    resources: [{ group: "apps", resources: [deployments] }]
  - level: None
`;

interface AuditEvent {
  verb: string;
  objectRef?: { resource: string; name?: string; tenant?: string };
  annotations: Record<string, string>;
}

const deploymentRule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };

function replicaLimitPolicy(): Manifest {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replica-limit' },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'replicas must be at most ' + params.data.maxReplicas", reason: 'Forbidden' }],
    },
  };
}

function binding(name: string, policyName: string, validationActions: string[], paramRef?: Record<string, unknown>, labels?: Record<string, string>): Manifest {
  return { apiVersion: `${GROUP}/v1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name, ...(labels ? { labels } : {}) }, spec: { policyName, validationActions, ...(paramRef ? { paramRef } : {}) } };
}

describe.each(backendCases(kubectlPath !== undefined))('admission policies on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let t1: UserCredentials;
    let t2: UserCredentials;
    let auditDir: string;

    async function auditEvents(): Promise<AuditEvent[]> {
      const text = await readFile(join(auditDir, 'audit.log'), 'utf8').catch(() => '');
      return text.split('\n').slice(0, -1).map((l) => JSON.parse(l) as AuditEvent);
    }

    const apply = (who: UserCredentials | undefined, manifests: Manifest[], version: KubectlVersion = '1.33') =>
      kubectl.run(['apply', '-f', '-'], { ...(who ? { kubeconfig: who.kubeconfig } : {}), stdin: toYamlStream(manifests), version });

    /** Waits until the policy acts: a server-side dry run of `manifest` is refused with `text`. */
    async function waitForRefusal(who: UserCredentials, manifest: Manifest, text: string): Promise<void> {
      await eventually(`a dry run to be refused with ${text}`, async () => {
        const res = await kubectl.run(['create', '--dry-run=server', '-f', '-'], { kubeconfig: who.kubeconfig, stdin: toYamlStream([manifest]) });
        return res.code !== 0 && res.stderr.includes(text);
      });
    }

    beforeAll(async () => {
      auditDir = await mkdtemp(join(tmpdir(), 'kube-spaces-audit-'));
      await writeFile(join(auditDir, 'policy.yaml'), AUDIT_POLICY);
      cluster = await startCluster(backend, { extraArgs: [`--audit-policy-file=${join(auditDir, 'policy.yaml')}`, `--audit-log-path=${join(auditDir, 'audit.log')}`] });
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      for (const tenant of ['t1', 't2']) {
        const res = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: tenant } } });
        expect(res.status, res.body).toBe(201);
      }
      await eventually('t1 and t2 to be Active', async () => {
        const phases = await Promise.all(['t1', 't2'].map(async (t) => ((await cluster.read(`/api/v1/tenants/${t}`))?.status as { phase?: string } | undefined)?.phase));
        return phases.every((p) => p === 'Active');
      });
      [t1, t2] = await Promise.all([spaceAdmin(cluster, 't1', 'admin'), spaceAdmin(cluster, 't2', 'admin')]);
      for (const tenant of ['t1', 't2']) await createInSpace(cluster, tenant, namespace('shop'));
      await createInSpace(cluster, 't1', configMap('shop', 'replica-limits', { maxReplicas: '3' }));
    });

    afterAll(async () => {
      t1?.api.close();
      t2?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
      if (auditDir) await rm(auditDir, { recursive: true, force: true });
    });

    it('limits t1\'s replicas with a param ConfigMap, in kube\'s words; t2 is unaffected', async () => {
      const created = await apply(t1, [replicaLimitPolicy(), binding('replica-limit', 'replica-limit', ['Deny'], { name: 'replica-limits', parameterNotFoundAction: 'Deny' })]);
      expect(created.code, created.stderr).toBe(0);
      const listed = await kubectl.run(['get', 'validatingadmissionpolicies,validatingadmissionpolicybindings'], { kubeconfig: t1.kubeconfig });
      expect(listed.stdout).toMatch(/^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nvalidatingadmissionpolicy\.admissionregistration\.k8s\.io\/replica-limit\s+1\s+v1\/ConfigMap\s+/);
      expect(listed.stdout).toMatch(/NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nvalidatingadmissionpolicybinding\.admissionregistration\.k8s\.io\/replica-limit\s+replica-limit\s+\*\/replica-limits\s+/);
      const message = `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: replicas must be at most 3`;
      await waitForRefusal(t1, deployment('shop', 'web', 5), message);
      for (const version of VERSIONS) {
        const refused = await apply(t1, [deployment('shop', 'web', 5)], version);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr.trim()).toBe(`Error from server (Forbidden): error when creating "STDIN": ${message}`);
      }
      const allowed = await apply(t1, [deployment('shop', 'web', 3)]);
      expect(allowed.code, allowed.stderr).toBe(0);
      // t2 has the same namespace and no policy.
      const other = await apply(t2, [deployment('shop', 'web', 5)]);
      expect(other.code, other.stderr).toBe(0);
    });

    it('answers the authorizer variable from the space\'s own RBAC: only those who may delete ConfigMaps create guarded ones', async () => {
      const guarded = (name: string): Manifest => ({ ...configMap('shop', name), metadata: { name, namespace: 'shop', labels: { guarded: 'please' } } });
      const policy: Manifest = {
        apiVersion: `${GROUP}/v1`,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'guarded-by-deleters' },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
          matchConditions: [{ name: 'guarded', expression: "has(object.metadata.labels) && 'guarded' in object.metadata.labels" }],
          validations: [{ expression: "authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).check('delete').allowed()", message: 'only those who may delete ConfigMaps here create guarded ones' }],
        },
      };
      expect((await apply(t1, [policy, binding('guarded-by-deleters', 'guarded-by-deleters', ['Deny'])])).code).toBe(0);
      // maker may create ConfigMaps in shop, not delete them; the admin may do both.
      const maker = await userKubeconfig(cluster, { tenant: 't1', user: 'maker' });
      try {
        await createInSpace(cluster, 't1',
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'maker', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] }] },
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'maker', namespace: 'shop' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'maker' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'maker' }] },
        );
        // No reason given: kube's default, Invalid (422).
        const message = `The configmaps "guarded-1" is invalid: : ValidatingAdmissionPolicy 'guarded-by-deleters' with binding 'guarded-by-deleters' denied request: only those who may delete ConfigMaps here create guarded ones`;
        await waitForRefusal(maker, guarded('guarded-1'), message);
        const refused = await kubectl.run(['create', '-f', '-'], { kubeconfig: maker.kubeconfig, stdin: toYamlStream([guarded('guarded-1')]) });
        expect(refused.stderr.trim()).toBe(message); // kubectl prints an Invalid Status by its message alone
        expect((await maker.api.request('POST', '/api/v1/namespaces/shop/configmaps', { json: configMap('shop', 'plain-1') })).status).toBe(201);
        expect((await apply(t1, [guarded('guarded-2')])).code).toBe(0);
      } finally {
        maker.api.close();
        await kubectl.run(['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', 'guarded-by-deleters'], { kubeconfig: t1.kubeconfig });
      }
    });

    it('type-checks a policy against the kinds it matches, in status.typeChecking', async () => {
      const typo: Manifest = {
        apiVersion: `${GROUP}/v1`,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'typo' },
        spec: { matchConstraints: { resourceRules: [deploymentRule] }, validations: [{ expression: 'object.spec.replicas > 0' }, { expression: 'object.spec.replica > 0' }] },
      };
      expect((await apply(t1, [typo])).code).toBe(0);
      const status = async (name: string) => (await t1.api.request('GET', `/apis/${GROUP}/v1/validatingadmissionpolicies/${name}`)).json() as { status?: Record<string, unknown> };
      await eventually('the typo policy\'s status', async () => (await status('typo')).status?.observedGeneration === 1);
      expect((await status('typo')).status).toEqual({
        observedGeneration: 1,
        typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[1].expression', warning: "ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 0\n | ...........^" }] },
      });
      await eventually('the replica-limit policy\'s status', async () => (await status('replica-limit')).status?.observedGeneration === 1);
      expect((await status('replica-limit')).status).toEqual({ observedGeneration: 1, typeChecking: {} });
      expect((await kubectl.run(['delete', 'validatingadmissionpolicy', 'typo'], { kubeconfig: t1.kubeconfig })).code).toBe(0);
    });

    it('warns with kubectl\'s Warning line and writes the audit annotation, without refusing', async () => {
      const policy = {
        apiVersion: `${GROUP}/v1`,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'few-replicas' },
        spec: { matchConstraints: { resourceRules: [deploymentRule] }, validations: [{ expression: 'object.spec.replicas <= 1', message: 'prefer one replica' }] },
      };
      expect((await apply(t1, [policy, binding('few-replicas', 'few-replicas', ['Warn', 'Audit'])])).code).toBe(0);
      await eventually('the warning', async () => {
        const res = await kubectl.run(['create', '--dry-run=server', '-f', '-'], { kubeconfig: t1.kubeconfig, stdin: toYamlStream([deployment('shop', 'warned', 2)]) });
        return res.code === 0 && res.stderr.includes('Warning:');
      });
      const created = await apply(t1, [deployment('shop', 'warned', 2)], '1.27');
      expect(created.code, created.stderr).toBe(0);
      expect(created.stderr).toContain("Warning: Validation failed for ValidatingAdmissionPolicy 'few-replicas' with binding 'few-replicas': prefer one replica");
      // A create's objectRef has no name (the URL has none); the annotation is what tells it.
      const annotated = (e: AuditEvent): boolean => e.verb === 'create' && e.objectRef?.tenant === 't1' && 'validation.policy.admission.k8s.io/validation_failure' in e.annotations;
      await eventually('the audit annotation', async () => (await auditEvents()).some(annotated));
      const event = (await auditEvents()).find(annotated)!;
      expect(JSON.parse(event.annotations['validation.policy.admission.k8s.io/validation_failure']!)).toEqual([
        { message: 'prefer one replica', policy: 'few-replicas', binding: 'few-replicas', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
      ]);
      // t2's deployments are neither warned nor annotated.
      const other = await apply(t2, [deployment('shop', 'warned', 2)]);
      expect(other.code, other.stderr).toBe(0);
      expect(other.stderr).not.toContain('Warning:');
    });

    it('sets a default label on t1\'s pods with a MutatingAdmissionPolicy, and on t1\'s only', async () => {
      const policy: Manifest = {
        apiVersion: `${GROUP}/v1alpha1`,
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'default-team' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
          matchConditions: [{ name: 'no-team', expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels)" }],
          failurePolicy: 'Fail',
          reinvocationPolicy: 'Never',
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'team': 'shop'}}}" } }],
        },
      };
      const mapBinding: Manifest = { apiVersion: `${GROUP}/v1alpha1`, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'default-team' }, spec: { policyName: 'default-team' } };
      const created = await apply(t1, [policy, mapBinding]);
      expect(created.code, created.stderr).toBe(0);
      const listed = await kubectl.run(['get', 'mutatingadmissionpolicies'], { kubeconfig: t1.kubeconfig });
      expect(listed.stdout).toMatch(/^NAME\s+MUTATIONS\s+PARAMKIND\s+AGE\ndefault-team\s+1\s+<unset>\s+/);
      // Written as v1alpha1, read in every served version (v1 since Kubernetes 1.36).
      for (const version of ['v1', 'v1beta1']) {
        const read = await t1.api.request('GET', `/apis/${GROUP}/${version}/mutatingadmissionpolicies/default-team`);
        expect(read.status, read.body).toBe(200);
        expect(read.json()).toMatchObject({ apiVersion: `${GROUP}/${version}`, kind: 'MutatingAdmissionPolicy', spec: { reinvocationPolicy: 'Never' } });
      }
      const manual = (name: string, labels?: Record<string, string>): Manifest => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'shop', ...(labels ? { labels } : {}) },
        spec: { schedulerName: 'e2e-manual', containers: [{ name: 'c', image: 'nginx:1.27' }] },
      });
      await eventually('the mutation', async () => {
        const res = await kubectl.run(['create', '--dry-run=server', '-o', 'jsonpath={.metadata.labels.team}', '-f', '-'], { kubeconfig: t1.kubeconfig, stdin: toYamlStream([manual('probe')]) });
        return res.stdout === 'shop';
      });
      for (const [who, version] of [[t1, '1.27'], [t2, '1.33']] as const) {
        const res = await kubectl.run(['create', '-f', '-'], { kubeconfig: who.kubeconfig, stdin: toYamlStream([manual('labelled'), manual('own', { team: 'mine' })]), version });
        expect(res.code, res.stderr).toBe(0);
      }
      const label = async (who: UserCredentials, pod: string) => (await kubectl.run(['get', 'pod', pod, '-n', 'shop', '-o', 'jsonpath={.metadata.labels.team}'], { kubeconfig: who.kubeconfig })).stdout;
      expect(await label(t1, 'labelled')).toBe('shop');
      expect(await label(t1, 'own')).toBe('mine');
      expect(await label(t2, 'labelled')).toBe('');
    });

    it('applies a system-space policy labelled for every space to t1 and t2, out of their reach', async () => {
      const marked = { 'kube-spaces.io/all-spaces': 'true' };
      const policy: Manifest = {
        apiVersion: `${GROUP}/v1`,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'no-latest', labels: marked },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }] },
          validations: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must not use the latest tag', reason: 'Forbidden' }],
        },
      };
      const created = await apply(undefined, [policy, binding('no-latest', 'no-latest', ['Deny'], undefined, marked)]);
      expect(created.code, created.stderr).toBe(0);
      const latestPod: Manifest = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'latest', namespace: 'shop' }, spec: { schedulerName: 'e2e-manual', containers: [{ name: 'c', image: 'nginx:latest' }] } };
      const message = `pods "latest" is forbidden: ValidatingAdmissionPolicy 'no-latest' with binding 'no-latest' denied request: images must not use the latest tag`;
      for (const who of [t1, t2]) {
        await waitForRefusal(who, latestPod, message);
        const run = await kubectl.run(['run', 'latest', '-n', 'shop', '--image=nginx:latest', '--overrides={"spec":{"schedulerName":"e2e-manual"}}'], { kubeconfig: who.kubeconfig, version: '1.27' });
        expect(run.code).not.toBe(0);
        expect(run.stderr.trim()).toBe(`Error from server (Forbidden): ${message}`);
      }
      const pinned = await kubectl.run(['run', 'pinned', '-n', 'shop', '--image=nginx:1.27', '--overrides={"spec":{"schedulerName":"e2e-manual"}}'], { kubeconfig: t1.kubeconfig });
      expect(pinned.code, pinned.stderr).toBe(0);
      // t1's admin sees only t1's policies, and cannot delete the system's.
      const listed = await kubectl.run(['get', 'validatingadmissionpolicies', '-o', 'name'], { kubeconfig: t1.kubeconfig });
      expect(listed.stdout.split('\n').filter(Boolean).sort()).toEqual(['validatingadmissionpolicy.admissionregistration.k8s.io/few-replicas', 'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit']);
      const deleted = await kubectl.run(['delete', 'validatingadmissionpolicy', 'no-latest'], { kubeconfig: t1.kubeconfig });
      expect(deleted.code).not.toBe(0);
      expect(deleted.stderr.trim()).toBe('Error from server (NotFound): validatingadmissionpolicies.admissionregistration.k8s.io "no-latest" not found');
      expect((await kubectl.run(['get', 'validatingadmissionpolicy', 'no-latest', '-o', 'name'])).stdout.trim()).toBe('validatingadmissionpolicy.admissionregistration.k8s.io/no-latest');
      // Without the label, the system's policy is the system space's only.
      const unmarked = await kubectl.run(['label', 'validatingadmissionpolicybinding', 'no-latest', 'kube-spaces.io/all-spaces-']);
      expect(unmarked.code, unmarked.stderr).toBe(0);
      await eventually('t1 to run a latest image again', async () => {
        const res = await kubectl.run(['create', '--dry-run=server', '-f', '-'], { kubeconfig: t1.kubeconfig, stdin: toYamlStream([latestPod]) });
        return res.code === 0;
      });
    });
  });
});
