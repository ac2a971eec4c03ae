/**
 * PodSecurity admission, as k8s.io/pod-security-admission in kube-apiserver: a namespace's labels
 * `pod-security.kubernetes.io/<mode>[-version]` (modes enforce, warn, audit) name a level of the
 * Pod Security Standards (privileged, baseline, restricted) and a version (`latest`, `v1.<n>`).
 * - Pods (create, and updates that change an image or add an ephemeral container): a violation of
 *   the enforce level is 403 `pods "p" is forbidden: violates PodSecurity "restricted:latest": …`;
 *   of the warn level a `Warning` header `would violate PodSecurity "…": …`. The request's audit
 *   event carries `pod-security.kubernetes.io/enforce-policy` (`<level>:<version>`) and, for a
 *   violation of the audit level, `pod-security.kubernetes.io/audit-violations` (`would violate
 *   PodSecurity "…": …`), also when the pod is refused.
 * - Workloads (deployments, jobs, …): their pod template is checked at the warn and audit levels
 *   (warnings and audit annotations only), as upstream; an enforce level set without a warn level
 *   warns at the enforce level (kube 1.26).
 * - Namespaces: invalid labels are 422; a stricter enforce level warns about existing pods that
 *   violate it (at most 3,000 checked, one of each controller first); an exempt namespace given a
 *   policy warns that it will be ignored.
 * Exemptions (users, runtime classes, namespaces) are space-qualified (`t1/ci-bot`, `t1/legacy`),
 * since a bare name would exempt it in every space; by default only the system space's
 * `kube-system` is exempt. An exempted request's audit event says why:
 * `pod-security.kubernetes.io/exempt` = `namespace`, `user` or `runtimeClass`.
 */
import type { UserInfo } from '../../access.js';
import { admissionForbidden, invalid } from '../../registry/api-errors.js';
import { aggregateText, fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/generic-store.js';
import type { KubeObject, ObjectMeta } from '../../registry/object.js';
import { SYSTEM_TENANT } from '../../spaces.js';
import { evaluatePod, forbiddenDetail, forbiddenReason, type CheckedPodSpec, type Level, type LevelVersion, type PolicyVersion, type Violation } from './checks.js';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'warn', 'audit'] as const;
type Mode = (typeof MODES)[number];
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];

export interface PodSecurityExemptions {
  /** `<tenant>/<user>`: requests of these users are not checked. */
  usernames: string[];
  /** Pods of these runtime classes are not checked. */
  runtimeClasses: string[];
  /** `<tenant>/<namespace>`: pods in these namespaces are not checked. */
  namespaces: string[];
}

/** As a cluster would configure it: the control plane's own namespace, in the system space only. */
export const DEFAULT_POD_SECURITY_EXEMPTIONS: PodSecurityExemptions = { usernames: [], runtimeClasses: [], namespaces: [`${SYSTEM_TENANT}/kube-system`] };

export interface PodSecurityDeps {
  readNamespace(tenant: string, name: string): Promise<KubeObject | undefined>;
  /** The pods of a namespace, for the warnings about existing pods when the enforce level changes. */
  podsIn(tenant: string, namespace: string): KubeObject[];
  exemptions: PodSecurityExemptions;
}

type Policy = Record<Mode, LevelVersion>;

/** Kinds whose objects hold a pod template, and where. */
const TEMPLATE_PATHS: Record<string, string[]> = {
  '/replicationcontrollers': ['spec', 'template'],
  '/podtemplates': ['template'],
  'apps/deployments': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

function levelVersionText(lv: LevelVersion): string {
  return `${lv.level}:${lv.version === 'latest' ? 'latest' : `v1.${lv.version.minor}`}`;
}

function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return levelVersionText(a) === levelVersionText(b);
}

const LEVEL_RANK: Record<Level, number> = { privileged: 0, baseline: 1, restricted: 2 };

/** The namespace's policy and what is wrong with its labels (kube's PolicyToEvaluate). */
function policyOf(labels: Record<string, string> | undefined): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const has = (key: string): boolean => labels?.[key] !== undefined;
  const entry = (mode: Mode): LevelVersion => {
    const levelKey = `${LABEL_PREFIX}${mode}`;
    const versionKey = `${levelKey}-version`;
    const levelValue = labels?.[levelKey];
    const versionValue = labels?.[versionKey];
    let level: Level = 'privileged';
    if (levelValue !== undefined) {
      if (LEVELS.includes(levelValue as Level)) level = levelValue as Level;
      else {
        // An unknown enforce level is the most restrictive one; audit and warn fail open.
        level = mode === 'enforce' ? 'restricted' : 'privileged';
        errors.push(fieldErrors.invalid(`metadata.labels[${levelKey}]`, levelValue, `must be one of ${LEVELS.join(', ')}`));
      }
    }
    let version: PolicyVersion = 'latest';
    if (versionValue !== undefined && versionValue !== 'latest') {
      const match = /^v1\.(0|[1-9][0-9]*)$/.exec(versionValue);
      if (match) version = { minor: Number(match[1]) };
      else errors.push(fieldErrors.invalid(`metadata.labels[${versionKey}]`, versionValue, 'must be "latest" or "v1.x"'));
    }
    return { level, version };
  };
  const policy: Policy = { enforce: entry('enforce'), audit: entry('audit'), warn: entry('warn') };
  // Since kube 1.26 an enforce level set without a warn level warns at the enforce level too, so
  // that workloads (checked with warnings only) show what their pods will meet.
  const enforceSet = has(`${LABEL_PREFIX}enforce`) && LEVELS.includes(labels![`${LABEL_PREFIX}enforce`] as Level);
  if (!has(`${LABEL_PREFIX}warn`) && enforceSet && LEVEL_RANK[policy.enforce.level] > LEVEL_RANK[policy.warn.level]) {
    policy.warn = { level: policy.enforce.level, version: has(`${LABEL_PREFIX}warn-version`) ? policy.warn.version : policy.enforce.version };
  }
  return { policy, errors };
}

function fullyPrivileged(policy: Policy): boolean {
  return MODES.every((mode) => policy[mode].level === 'privileged');
}

function templateOf(obj: KubeObject, path: string[]): { metadata?: ObjectMeta; spec?: CheckedPodSpec } | undefined {
  let at: unknown = obj;
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return at as { metadata?: ObjectMeta; spec?: CheckedPodSpec } | undefined;
}

const SECCOMP_CONTAINER_ANNOTATION = 'container.seccomp.security.alpha.kubernetes.io/';

interface UpdatedContainer {
  name?: string;
  image?: string;
}

/**
 * A pod update PodSecurity looks at, as upstream's isSignificantPodUpdate: the fields of a running
 * pod that may still change and matter to a check (images, containers' seccomp annotations, added
 * ephemeral containers). Anything else (a binding's nodeName, tolerations, status) keeps the pod as
 * it was admitted.
 */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as Record<string, UpdatedContainer[] | undefined>;
  const oldSpec = (old.spec ?? {}) as Record<string, UpdatedContainer[] | undefined>;
  const annotations = pod.metadata.annotations ?? {};
  const oldAnnotations = old.metadata.annotations ?? {};
  const changed = (c: UpdatedContainer, o: UpdatedContainer): boolean => {
    const key = `${SECCOMP_CONTAINER_ANNOTATION}${c.name ?? ''}`;
    return c.image !== o.image || annotations[key] !== oldAnnotations[key];
  };
  for (const field of ['containers', 'initContainers']) {
    const now = spec[field] ?? [];
    const before = oldSpec[field] ?? [];
    if (now.length !== before.length) return true;
    if (now.some((c, i) => changed(c, before[i]!))) return true;
  }
  const oldEphemeral = oldSpec.ephemeralContainers ?? [];
  return (spec.ephemeralContainers ?? []).some((c) => {
    const o = oldEphemeral.find((e) => e.name === c.name);
    return o === undefined || changed(c, o);
  });
}

/** Upstream's bound on the existing pods a namespace's new enforce level is checked against. */
const MAX_PODS_TO_CHECK = 3000;

/**
 * The pods to check against a new enforce level, as upstream's prioritizePods: one pod of each
 * controller (and every pod without one) first, its controller's other pods after, since they
 * most likely share its template and its verdict.
 */
function prioritizedPods(candidates: KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const replicas: KubeObject[] = [];
  const seen = new Set<string>();
  for (const pod of candidates) {
    const controller = pod.metadata.ownerReferences?.find((ref) => ref.controller === true);
    if (!controller) first.push(pod);
    else if (seen.has(controller.uid)) replicas.push(pod);
    else {
      seen.add(controller.uid);
      first.push(pod);
    }
  }
  return [...first, ...replicas];
}

/** What exempted a request, upstream's `pod-security.kubernetes.io/exempt` audit annotation. */
type Exemption = 'user' | 'namespace' | 'runtimeClass';

/**
 * Adds a PodSecurity audit annotation to the request's audit event, under the labels' prefix as
 * kube-apiserver's plugin does: `exempt`, `enforce-policy`, `audit-violations`, `error`.
 */
function annotate(attrs: AdmissionAttributes, key: 'exempt' | 'enforce-policy' | 'audit-violations' | 'error', value: string): void {
  attrs.auditAnnotations?.set(`${LABEL_PREFIX}${key}`, value);
}

export function podSecurityAdmission(deps: PodSecurityDeps): AdmissionPlugin {
  const exemptNamespace = (tenant: string, namespace: string): boolean => deps.exemptions.namespaces.includes(`${tenant}/${namespace}`);
  const exemptUser = (user: UserInfo | undefined): boolean => user !== undefined && deps.exemptions.usernames.includes(`${user.tenant ?? ''}/${user.name}`);
  const exemptRuntimeClass = (spec: { runtimeClassName?: string }): boolean =>
    spec.runtimeClassName !== undefined && spec.runtimeClassName !== '' && deps.exemptions.runtimeClasses.includes(spec.runtimeClassName);

  /** The namespace or user exemption of a pod or workload write, annotated; undefined when none applies. */
  function exemption(attrs: AdmissionAttributes): Exemption | undefined {
    const found: Exemption | undefined = exemptNamespace(attrs.tenant, attrs.namespace!) ? 'namespace' : exemptUser(attrs.user) ? 'user' : undefined;
    if (found) annotate(attrs, 'exempt', found);
    return found;
  }

  async function namespacePolicy(tenant: string, namespace: string): Promise<{ policy: Policy; errors: FieldError[] }> {
    const ns = await deps.readNamespace(tenant, namespace);
    return policyOf(ns?.metadata.labels);
  }

  /**
   * kube's EvaluatePod for a pod (`enforce`) or a workload's template: annotates the enforce policy
   * (pods only) and the audit level's violations, refuses a pod violating the enforce level, and
   * warns of the warn level's violations on a request it lets through.
   */
  function evaluate(attrs: AdmissionAttributes, checked: { policy: Policy; errors: FieldError[] }, meta: ObjectMeta, spec: CheckedPodSpec & { runtimeClassName?: string }, enforce: boolean): void {
    if (exemptRuntimeClass(spec)) {
      annotate(attrs, 'exempt', 'runtimeClass');
      return;
    }
    const { policy, errors } = checked;
    if (errors.length > 0) annotate(attrs, 'error', `Failed to parse policy: ${aggregateText(errors)}`);
    // Modes that share a level and version share one evaluation.
    const results = new Map<string, Violation[]>();
    const violationsAt = (lv: LevelVersion): Violation[] => {
      const key = levelVersionText(lv);
      let found = results.get(key);
      if (!found) results.set(key, (found = evaluatePod(lv, meta, spec)));
      return found;
    };
    let refusal: string | undefined;
    if (enforce) {
      annotate(attrs, 'enforce-policy', levelVersionText(policy.enforce));
      const violations = violationsAt(policy.enforce);
      if (violations.length > 0) refusal = `violates PodSecurity ${JSON.stringify(levelVersionText(policy.enforce))}: ${forbiddenDetail(violations)}`;
    }
    const audited = violationsAt(policy.audit);
    if (audited.length > 0) annotate(attrs, 'audit-violations', `would violate PodSecurity ${JSON.stringify(levelVersionText(policy.audit))}: ${forbiddenDetail(audited)}`);
    if (refusal) throw admissionForbidden(attrs.def, attrs.object, refusal);
    const warned = violationsAt(policy.warn);
    if (warned.length > 0) attrs.warnings?.push(`would violate PodSecurity ${JSON.stringify(levelVersionText(policy.warn))}: ${forbiddenDetail(warned)}`);
  }

  async function admitPod(attrs: AdmissionAttributes): Promise<void> {
    const { operation, object, old, subresource } = attrs;
    if (subresource !== undefined && subresource !== 'ephemeralcontainers') return;
    if (exemption(attrs)) return;
    const checked = await namespacePolicy(attrs.tenant, attrs.namespace!);
    if (checked.errors.length === 0 && fullyPrivileged(checked.policy)) {
      annotate(attrs, 'enforce-policy', 'privileged:latest');
      return;
    }
    if (operation === 'update' && old && !significantPodUpdate(object, old)) return;
    evaluate(attrs, checked, object.metadata, (object.spec ?? {}) as CheckedPodSpec, true);
  }

  async function admitWorkload(attrs: AdmissionAttributes, path: string[]): Promise<void> {
    if (attrs.subresource !== undefined) return;
    if (exemption(attrs)) return;
    const checked = await namespacePolicy(attrs.tenant, attrs.namespace!);
    if (checked.errors.length === 0 && checked.policy.warn.level === 'privileged' && checked.policy.audit.level === 'privileged') return;
    const template = templateOf(attrs.object, path);
    if (!template?.spec) return;
    evaluate(attrs, checked, template.metadata ?? {}, template.spec, false);
  }

  /** kube's exemptNamespaceWarning: the modes an exempt namespace's labels set to more than privileged, which will be ignored. */
  function exemptNamespaceWarning(name: string, policy: Policy, labels: Record<string, string> | undefined): string | undefined {
    if (fullyPrivileged(policy)) return undefined;
    const parts = MODES.filter((mode) => policy[mode].level !== 'privileged' && (labels?.[`${LABEL_PREFIX}${mode}`] !== undefined || labels?.[`${LABEL_PREFIX}${mode}-version`] !== undefined))
      .map((mode) => `${mode}=${levelVersionText(policy[mode])}`);
    return `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
  }

  /**
   * kube's ValidateNamespace: invalid labels are refused (on update only when they changed); an
   * exempt namespace given a policy warns that it will be ignored; a stricter enforce level warns
   * about the namespace's pods that break it (kube's EvaluatePodsInNamespace).
   */
  function admitNamespace(attrs: AdmissionAttributes): void {
    const name = attrs.object.metadata.name ?? '';
    const labels = attrs.object.metadata.labels;
    const { policy, errors } = policyOf(labels);
    const exempt = exemptNamespace(attrs.tenant, name);
    if (attrs.operation === 'create' || !attrs.old) {
      if (errors.length > 0) throw invalid(attrs.def, name, errors);
      const warning = exempt ? exemptNamespaceWarning(name, policy, labels) : undefined;
      if (warning) attrs.warnings?.push(warning);
      return;
    }
    const before = policyOf(attrs.old.metadata.labels);
    if (errors.length > 0 && (before.errors.length === 0 || JSON.stringify(errors) !== JSON.stringify(before.errors))) throw invalid(attrs.def, name, errors);
    const enforce = policy.enforce;
    if (sameLevelVersion(before.policy.enforce, enforce) || enforce.level === 'privileged') return;
    const sameVersion = JSON.stringify(enforce.version) === JSON.stringify(before.policy.enforce.version);
    if (sameVersion && LEVEL_RANK[enforce.level] <= LEVEL_RANK[before.policy.enforce.level]) return;
    if (exempt) {
      const warning = exemptNamespaceWarning(name, policy, labels);
      if (warning) attrs.warnings?.push(warning);
      return;
    }
    const candidates = prioritizedPods(deps.podsIn(attrs.tenant, name).filter((pod) => !exemptRuntimeClass((pod.spec ?? {}) as { runtimeClassName?: string })));
    const checked = candidates.slice(0, MAX_PODS_TO_CHECK);
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of checked) {
      const violations = evaluatePod(enforce, pod.metadata, (pod.spec ?? {}) as CheckedPodSpec);
      if (violations.length === 0) continue;
      const reason = forbiddenReason(violations);
      const podName = pod.metadata.name ?? '';
      const seen = byReason.get(reason);
      if (!seen) byReason.set(reason, { first: podName, count: 1 });
      else byReason.set(reason, { first: podName < seen.first ? podName : seen.first, count: seen.count + 1 });
    }
    if (checked.length < candidates.length) attrs.warnings?.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${candidates.length} existing pods`);
    if (byReason.size === 0) return;
    attrs.warnings?.push(`existing pods in namespace ${JSON.stringify(name)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionText(enforce))}`);
    const podWarnings = [...byReason].map(([reason, { first, count }]) => {
      const others = count === 1 ? '' : count === 2 ? ' (and 1 other pod)' : ` (and ${count - 1} other pods)`;
      return `${first}${others}: ${reason}`;
    });
    // Sorted, as upstream, so the order does not depend on the listing.
    attrs.warnings?.push(...podWarnings.sort());
  }

  return {
    async admit(attrs) {
      const { operation, def, namespace } = attrs;
      // As kube-apiserver's plugin, which handles creates and updates only.
      if (operation === 'delete') return;
      if (def.group === '' && def.resource === 'namespaces') {
        if (attrs.subresource === undefined) admitNamespace(attrs);
        return;
      }
      if (namespace === undefined) return;
      if (def.group === '' && def.resource === 'pods') return admitPod(attrs);
      const path = TEMPLATE_PATHS[`${def.group}/${def.resource}`];
      if (path) return admitWorkload(attrs, path);
    },
  };
}
