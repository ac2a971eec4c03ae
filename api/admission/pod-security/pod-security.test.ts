import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../access.js';
import { deployments } from '../../kinds/apps/deployment.js';
import { namespaces } from '../../kinds/core/namespace.js';
import { pods } from '../../kinds/core/pod.js';
import type { AdmissionAttributes } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { ApiError } from '../../status.js';
import type { CheckedPodSpec } from './checks.js';
import { DEFAULT_POD_SECURITY_EXEMPTIONS, podSecurityAdmission, type PodSecurityExemptions } from './pod-security.js';

const PRIVILEGED_DETAIL = 'privileged (container "c" must not set securityContext.privileged=true)';
const RESTRICTED_DETAIL =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

/** A pod spec the restricted level accepts. */
const hardened = (): CheckedPodSpec => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
});
const plain = (): CheckedPodSpec => ({ containers: [{ name: 'c' }] });
const privileged = (): CheckedPodSpec => ({ containers: [{ name: 'c', securityContext: { privileged: true } }] });

/** A pod; its spec as the checks read it, plus whatever else a test sets (an image, a node, a runtime class). */
function pod(name: string, namespace: string, spec: CheckedPodSpec | Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec } as KubeObject;
}

function deployment(namespace: string, spec: CheckedPodSpec): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace }, spec: { template: { spec } } } as KubeObject;
}

function namespace(name: string, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } } as KubeObject;
}

/** Namespaces (and their pods) by tenant. */
interface World {
  namespaces: Record<string, Record<string, Record<string, string>>>;
  pods?: Record<string, KubeObject[]>;
}

function plugin(world: World, exemptions: PodSecurityExemptions = DEFAULT_POD_SECURITY_EXEMPTIONS) {
  return podSecurityAdmission({
    readNamespace: async (tenant, name) => {
      const labels = world.namespaces[tenant]?.[name];
      return labels === undefined ? undefined : namespace(name, labels);
    },
    podsIn: (tenant, ns) => world.pods?.[`${tenant}/${ns}`] ?? [],
    exemptions,
  });
}

type Attrs = AdmissionAttributes & { warnings: string[]; auditAnnotations: Map<string, string> };

function attrs(tenant: string, object: KubeObject, def: ResourceDefinition, more: Partial<AdmissionAttributes> = {}): Attrs {
  const user: UserInfo = { name: 'alice', uid: 'u1', groups: [], tenant, extra: {} };
  return {
    operation: 'create',
    def,
    tenant,
    namespace: def === namespaces ? undefined : object.metadata.namespace,
    object,
    old: undefined,
    user,
    warnings: [],
    auditAnnotations: new Map(),
    ...more,
  };
}

const podAttrs = (tenant: string, object: KubeObject, more?: Partial<AdmissionAttributes>) => attrs(tenant, object, pods as ResourceDefinition, more);

/** The ApiError the admission (a plugin's `admit` result) ends in. */
async function refusal(admit: unknown): Promise<ApiError> {
  try {
    await admit;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the request to be refused');
}

/** The request's PodSecurity audit annotations, without the prefix. */
function annotations(a: Attrs): Record<string, string> {
  return Object.fromEntries([...a.auditAnnotations].map(([k, v]) => [k.replace('pod-security.kubernetes.io/', ''), v]));
}

describe('PodSecurity admission', () => {
  describe('enforce, warn and audit modes', () => {
    it('refuses a pod violating the enforce level, in kube\'s words, and annotates the policy', async () => {
      const p = plugin({ namespaces: { t1: { locked: { 'pod-security.kubernetes.io/enforce': 'baseline' } } } });
      const a = podAttrs('t1', pod('p', 'locked', privileged()));
      const err = await refusal(p.admit(a));
      expect(err.code).toBe(403);
      expect(err.message).toBe(`pods "p" is forbidden: violates PodSecurity "baseline:latest": ${PRIVILEGED_DETAIL}`);
      expect(annotations(a)).toEqual({ 'enforce-policy': 'baseline:latest' });
      expect(a.warnings).toEqual([]);
    });

    it('lets a pod violating only the warn level through with kube\'s warning', async () => {
      const p = plugin({ namespaces: { t1: { watched: { 'pod-security.kubernetes.io/warn': 'restricted' } } } });
      const a = podAttrs('t1', pod('p', 'watched', plain()));
      await p.admit(a);
      expect(a.warnings).toEqual([`would violate PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`]);
      expect(annotations(a)).toEqual({ 'enforce-policy': 'privileged:latest' });
    });

    it('annotates the audit level\'s violations, without a warning or a refusal', async () => {
      const p = plugin({ namespaces: { t1: { audited: { 'pod-security.kubernetes.io/audit': 'restricted' } } } });
      const a = podAttrs('t1', pod('p', 'audited', plain()));
      await p.admit(a);
      expect(a.warnings).toEqual([]);
      expect(a.auditAnnotations.get('pod-security.kubernetes.io/audit-violations')).toBe(`would violate PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`);
      expect(a.auditAnnotations.get('pod-security.kubernetes.io/enforce-policy')).toBe('privileged:latest');
    });

    it('annotates the audit violations of a pod it refuses too, and no warning', async () => {
      const labels = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' };
      const p = plugin({ namespaces: { t1: { both: labels } } });
      const a = podAttrs('t1', pod('p', 'both', privileged()));
      await refusal(p.admit(a));
      expect(annotations(a)['enforce-policy']).toBe('baseline:latest');
      expect(annotations(a)['audit-violations']).toMatch(/^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext.privileged=true\), allowPrivilegeEscalation != false/);
      expect(a.warnings).toEqual([]);
    });

    it('annotates no violation for a pod that meets the audit level', async () => {
      const p = plugin({ namespaces: { t1: { audited: { 'pod-security.kubernetes.io/audit': 'restricted' } } } });
      const a = podAttrs('t1', pod('p', 'audited', hardened()));
      await p.admit(a);
      expect(annotations(a)).toEqual({ 'enforce-policy': 'privileged:latest' });
    });

    it('answers a namespace without labels with the privileged policy alone', async () => {
      const p = plugin({ namespaces: { t1: { open: {} } } });
      const a = podAttrs('t1', pod('p', 'open', privileged()));
      await p.admit(a);
      expect(annotations(a)).toEqual({ 'enforce-policy': 'privileged:latest' });
      expect(a.warnings).toEqual([]);
    });

    it('annotates labels it cannot parse, failing open for warn and audit', async () => {
      // A namespace labelled before PodSecurity checked its labels.
      const p = plugin({ namespaces: { t1: { odd: { 'pod-security.kubernetes.io/warn': 'loud', 'pod-security.kubernetes.io/audit-version': 'v2' } } } });
      const a = podAttrs('t1', pod('p', 'odd', privileged()));
      await p.admit(a);
      expect(a.warnings).toEqual([]);
      expect(annotations(a)).toEqual({
        error:
          'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v2": must be "latest" or "v1.x", ' +
          'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted]',
        'enforce-policy': 'privileged:latest',
      });
    });

    it('checks nothing on delete', async () => {
      const p = plugin({ namespaces: { t1: { locked: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } });
      const a = podAttrs('t1', pod('p', 'locked', privileged()), { operation: 'delete' });
      await p.admit(a);
      expect(a.auditAnnotations.size).toBe(0);
    });
  });

  describe('levels and versions', () => {
    it('holds each level to its own checks', async () => {
      const p = plugin({
        namespaces: {
          t1: {
            base: { 'pod-security.kubernetes.io/enforce': 'baseline' },
            strict: { 'pod-security.kubernetes.io/enforce': 'restricted' },
          },
        },
      });
      await p.admit(podAttrs('t1', pod('p', 'base', plain())));
      await p.admit(podAttrs('t1', pod('p', 'strict', hardened())));
      const err = await refusal(p.admit(podAttrs('t1', pod('p', 'strict', plain()))));
      expect(err.message).toBe(`pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`);
    });

    it('applies the checks of the version the label names', async () => {
      // runAsUser=0 is a restricted violation from v1.23 on.
      const root = { ...hardened(), securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } } };
      const p = plugin({
        namespaces: {
          t1: {
            old: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.22' },
            new: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.23' },
          },
        },
      });
      const a = podAttrs('t1', pod('p', 'old', root));
      await p.admit(a);
      expect(annotations(a)).toEqual({ 'enforce-policy': 'restricted:v1.22' });
      const err = await refusal(p.admit(podAttrs('t1', pod('p', 'new', root))));
      expect(err.message).toBe('pods "p" is forbidden: violates PodSecurity "restricted:v1.23": runAsUser=0 (pod must not set runAsUser=0)');
    });

    it('annotates the audit version, as for enforce', async () => {
      const p = plugin({ namespaces: { t1: { a: { 'pod-security.kubernetes.io/audit': 'baseline', 'pod-security.kubernetes.io/audit-version': 'v1.25' } } } });
      const a = podAttrs('t1', pod('p', 'a', privileged()));
      await p.admit(a);
      expect(annotations(a)['audit-violations']).toBe(`would violate PodSecurity "baseline:v1.25": ${PRIVILEGED_DETAIL}`);
    });
  });

  describe('workloads', () => {
    it('warns of a template violating the enforce level when no warn level is set, and never refuses', async () => {
      const p = plugin({ namespaces: { t1: { locked: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.28' } } } });
      const a = attrs('t1', deployment('locked', privileged()), deployments as ResourceDefinition);
      await p.admit(a);
      expect(a.warnings).toEqual([`would violate PodSecurity "baseline:v1.28": ${PRIVILEGED_DETAIL}`]);
      // Workloads are not enforced, so no enforce policy is annotated.
      expect(a.auditAnnotations.size).toBe(0);
    });

    it('warns at the warn level alone when one is set', async () => {
      const p = plugin({ namespaces: { t1: { quiet: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'privileged' } } } });
      const a = attrs('t1', deployment('quiet', privileged()), deployments as ResourceDefinition);
      await p.admit(a);
      expect(a.warnings).toEqual([]);
    });

    it('annotates a template\'s audit violations', async () => {
      const p = plugin({ namespaces: { t1: { audited: { 'pod-security.kubernetes.io/audit': 'baseline' } } } });
      const a = attrs('t1', deployment('audited', privileged()), deployments as ResourceDefinition);
      await p.admit(a);
      expect(annotations(a)).toEqual({ 'audit-violations': `would violate PodSecurity "baseline:latest": ${PRIVILEGED_DETAIL}` });
      expect(a.warnings).toEqual([]);
    });
  });

  describe('pod updates', () => {
    const world: World = { namespaces: { t1: { locked: { 'pod-security.kubernetes.io/enforce': 'baseline' } } } };

    it('checks an update that changes an image', async () => {
      const withImage = (image: string) => pod('p', 'locked', { containers: [{ name: 'c', image, securityContext: { privileged: true } }] });
      const old = withImage('a');
      const updated = withImage('b');
      await refusal(plugin(world).admit(podAttrs('t1', updated, { operation: 'update', old })));
    });

    it('leaves an update that changes nothing a check reads, such as a binding\'s node', async () => {
      const old = pod('p', 'locked', privileged());
      const updated = pod('p', 'locked', { ...privileged(), nodeName: 'node-1' });
      await plugin(world).admit(podAttrs('t1', updated, { operation: 'update', old }));
    });
  });

  describe('exemptions', () => {
    const strict = { 'pod-security.kubernetes.io/enforce': 'restricted' };

    it('exempts a user of one space only', async () => {
      const p = plugin({ namespaces: { t1: { locked: strict }, t2: { locked: strict } } }, { usernames: ['t1/ci-bot'], runtimeClasses: [], namespaces: [] });
      const bot = (tenant: string): UserInfo => ({ name: 'ci-bot', uid: 'u', groups: [], tenant, extra: {} });
      const a = podAttrs('t1', pod('p', 'locked', privileged()), { user: bot('t1') });
      await p.admit(a);
      expect(annotations(a)).toEqual({ exempt: 'user' });
      await refusal(p.admit(podAttrs('t2', pod('p', 'locked', privileged()), { user: bot('t2') })));
    });

    it('exempts pods of a runtime class', async () => {
      const p = plugin({ namespaces: { t1: { locked: strict } } }, { usernames: [], runtimeClasses: ['kata'], namespaces: [] });
      const a = podAttrs('t1', pod('p', 'locked', { ...privileged(), runtimeClassName: 'kata' }));
      await p.admit(a);
      expect(annotations(a)).toEqual({ exempt: 'runtimeClass' });
      await refusal(p.admit(podAttrs('t1', pod('p', 'locked', { ...privileged(), runtimeClassName: 'gvisor' }))));
    });

    it('exempts t1/legacy, not t2\'s namespace of the same name', async () => {
      const p = plugin({ namespaces: { t1: { legacy: strict }, t2: { legacy: strict } } }, { usernames: [], runtimeClasses: [], namespaces: ['t1/legacy'] });
      const a = podAttrs('t1', pod('p', 'legacy', privileged()));
      await p.admit(a);
      expect(annotations(a)).toEqual({ exempt: 'namespace' });
      const workload = attrs('t1', deployment('legacy', privileged()), deployments as ResourceDefinition);
      await p.admit(workload);
      expect(workload.warnings).toEqual([]);
      expect(annotations(workload)).toEqual({ exempt: 'namespace' });
      const other = podAttrs('t2', pod('p', 'legacy', privileged()));
      const err = await refusal(p.admit(other));
      expect(err.message).toMatch(/^pods "p" is forbidden: violates PodSecurity "restricted:latest": /);
      expect(annotations(other)['exempt']).toBeUndefined();
    });

    it('exempts the system space\'s kube-system by default, not a tenant\'s', async () => {
      const p = plugin({ namespaces: { system: { 'kube-system': strict }, t1: { 'kube-system': strict } } });
      const a = podAttrs('system', pod('p', 'kube-system', privileged()));
      await p.admit(a);
      expect(annotations(a)).toEqual({ exempt: 'namespace' });
      await refusal(p.admit(podAttrs('t1', pod('p', 'kube-system', privileged()))));
    });
  });

  describe('namespaces', () => {
    const nsAttrs = (tenant: string, object: KubeObject, more?: Partial<AdmissionAttributes>) => attrs(tenant, object, namespaces as ResourceDefinition, more);

    it('refuses an unknown level with 422, in upstream\'s words (field.Invalid)', async () => {
      const err = await refusal(plugin({ namespaces: {} }).admit(nsAttrs('t1', namespace('n', { 'pod-security.kubernetes.io/enforce': 'strict' }))));
      expect(err.code).toBe(422);
      expect(err.message).toBe('Namespace "n" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
    });

    it('validates labels whoever writes them, exempt users too', async () => {
      const p = plugin({ namespaces: {} }, { usernames: ['t1/alice'], runtimeClasses: [], namespaces: [] });
      await refusal(p.admit(nsAttrs('t1', namespace('n', { 'pod-security.kubernetes.io/audit-version': 'v2' }))));
    });

    it('warns about existing pods when the enforce level tightens, sorted, with counts', async () => {
      const world: World = {
        namespaces: {},
        pods: { 't1/shop': [pod('b', 'shop', privileged()), pod('a', 'shop', privileged()), pod('c', 'shop', plain()), pod('z', 'shop', privileged())] },
      };
      const a = nsAttrs('t1', namespace('shop', { 'pod-security.kubernetes.io/enforce': 'baseline' }), { operation: 'update', old: namespace('shop') });
      await plugin(world).admit(a);
      expect(a.warnings).toEqual(['existing pods in namespace "shop" violate the new PodSecurity enforce level "baseline:latest"', 'a (and 2 other pods): privileged']);
      const relaxed = nsAttrs('t1', namespace('shop', { 'pod-security.kubernetes.io/enforce': 'baseline' }), {
        operation: 'update',
        old: namespace('shop', { 'pod-security.kubernetes.io/enforce': 'restricted' }),
      });
      await plugin(world).admit(relaxed);
      expect(relaxed.warnings).toEqual([]);
    });

    it('checks at most 3,000 existing pods, one of each controller first, and says so', async () => {
      const owned = (i: number) => {
        const p = pod(`r-${String(i).padStart(4, '0')}`, 'big', privileged());
        p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }];
        return p;
      };
      // The standalone pods come last in the listing, after 3,000 replicas of one controller.
      const listed = [...Array.from({ length: 3000 }, (_, i) => owned(i)), pod('x', 'big', plain()), pod('y', 'big', { hostNetwork: true })];
      const a = nsAttrs('t1', namespace('big', { 'pod-security.kubernetes.io/enforce': 'baseline' }), { operation: 'update', old: namespace('big') });
      await plugin({ namespaces: {}, pods: { 't1/big': listed } }).admit(a);
      expect(a.warnings).toEqual([
        'new PodSecurity enforce level only checked against the first 3000 of 3002 existing pods',
        'existing pods in namespace "big" violate the new PodSecurity enforce level "baseline:latest"',
        'r-0000 (and 2997 other pods): privileged',
        'y: host namespaces',
      ]);
    });

    it('never looks at another space\'s pods of a same-named namespace', async () => {
      const world: World = { namespaces: {}, pods: { 't2/shop': [pod('a', 'shop', privileged())] } };
      const a = nsAttrs('t1', namespace('shop', { 'pod-security.kubernetes.io/enforce': 'baseline' }), { operation: 'update', old: namespace('shop') });
      await plugin(world).admit(a);
      expect(a.warnings).toEqual([]);
    });

    it('warns that an exempt namespace\'s policy will be ignored', async () => {
      const p = plugin({ namespaces: {} }, { usernames: [], runtimeClasses: [], namespaces: ['t1/legacy'] });
      const labels = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' };
      const created = nsAttrs('t1', namespace('legacy', labels));
      await p.admit(created);
      expect(created.warnings).toEqual(['namespace "legacy" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:latest) will be ignored']);
      const elsewhere = nsAttrs('t2', namespace('legacy', labels));
      await p.admit(elsewhere);
      expect(elsewhere.warnings).toEqual([]);
    });
  });
});
