/**
 * PodSecurity admission, as k8s.io/pod-security-admission in kube-apiserver: a namespace's labels
 * `pod-security.kubernetes.io/<mode>[-version]` (modes enforce, warn, audit) name a level of the
 * Pod Security Standards (privileged, baseline, restricted) and a version (`latest`, `v1.<n>`).
 * - Pods (create, and updates that change their spec or annotations, ephemeral containers
 *   included): a violation of the enforce level is 403 `pods "p" is forbidden: violates
 *   PodSecurity "restricted:latest": …`; of the warn level a `Warning` header `would violate
 *   PodSecurity "…": …`. Audit has no audit log to write to yet, so it is read and validated only.
 * - Workloads (deployments, jobs, …): their pod template is checked at the enforce and warn levels
 *   with warnings only, as upstream.
 * - Namespaces: invalid labels are 422; a new enforce level warns about existing pods that violate it.
 * Exemptions (users, runtime classes, namespaces) are space-qualified (`t1/ci-bot`, `t1/legacy`),
 * since a bare name would exempt it in every space; by default only the system space's
 * `kube-system` is exempt.
 */
import type { UserInfo } from '../../access.js';
import { admissionForbidden, invalid } from '../../registry/api-errors.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/generic-store.js';
import type { KubeObject, ObjectMeta } from '../../registry/object.js';
import { SYSTEM_TENANT } from '../../spaces.js';
import { evaluatePod, forbiddenDetail, forbiddenReason, type CheckedPodSpec, type Level, type LevelVersion, type PolicyVersion } from './checks.js';

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

/** The namespace's policy and what is wrong with its labels (kube's PolicyToEvaluate). */
function policyOf(labels: Record<string, string> | undefined): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const entry = (mode: Mode): LevelVersion => {
    const levelKey = `${LABEL_PREFIX}${mode}`;
    const versionKey = `${levelKey}-version`;
    const levelValue = labels?.[levelKey];
    const versionValue = labels?.[versionKey];
    let level: Level = 'privileged';
    if (levelValue !== undefined) {
      if (LEVELS.includes(levelValue as Level)) level = levelValue as Level;
      else {
        // An unknown level is the most restrictive one.
        level = 'restricted';
        errors.push(fieldErrors.notSupported(`metadata.labels[${levelKey}]`, levelValue, LEVELS));
      }
    }
    let version: PolicyVersion = 'latest';
    if (versionValue !== undefined && versionValue !== 'latest') {
      const match = /^v1\.(0|[1-9][0-9]*)$/.exec(versionValue);
      if (match) version = { minor: Number(match[1]) };
      else errors.push(fieldErrors.invalid(`metadata.labels[${versionKey}]`, versionValue, "must be 'latest' or 'v1.x'"));
    }
    return { level, version };
  };
  return { policy: { enforce: entry('enforce'), warn: entry('warn'), audit: entry('audit') }, errors };
}

function templateOf(obj: KubeObject, path: string[]): { metadata?: ObjectMeta; spec?: CheckedPodSpec } | undefined {
  let at: unknown = obj;
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return at as { metadata?: ObjectMeta; spec?: CheckedPodSpec } | undefined;
}

/** A pod update PodSecurity looks at: one that changes the spec (but images) or the annotations, as upstream's isSignificantPodUpdate. */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const withoutImages = (spec: unknown): string =>
    JSON.stringify(spec, (key, value: unknown) => (key === 'image' ? undefined : value));
  return withoutImages(pod.spec) !== withoutImages(old.spec) || JSON.stringify(pod.metadata.annotations ?? {}) !== JSON.stringify(old.metadata.annotations ?? {});
}

export function podSecurityAdmission(deps: PodSecurityDeps): AdmissionPlugin {
  const exemptNamespace = (tenant: string, namespace: string): boolean => deps.exemptions.namespaces.includes(`${tenant}/${namespace}`);
  const exemptUser = (user: UserInfo | undefined): boolean => user !== undefined && deps.exemptions.usernames.includes(`${user.tenant ?? ''}/${user.name}`);

  async function namespacePolicy(tenant: string, namespace: string): Promise<Policy> {
    const ns = await deps.readNamespace(tenant, namespace);
    return policyOf(ns?.metadata.labels).policy;
  }

  /** The warning of a level a pod (template) violates, or undefined. */
  function warning(lv: LevelVersion, meta: ObjectMeta, spec: CheckedPodSpec): string | undefined {
    const violations = evaluatePod(lv, meta, spec);
    return violations.length === 0 ? undefined : `would violate PodSecurity ${JSON.stringify(levelVersionText(lv))}: ${forbiddenDetail(violations)}`;
  }

  async function admitPod(attrs: AdmissionAttributes): Promise<void> {
    const { operation, object, old, subresource } = attrs;
    if (subresource !== undefined && subresource !== 'ephemeralcontainers') return;
    if (operation === 'update' && old && !significantPodUpdate(object, old)) return;
    const spec = (object.spec ?? {}) as CheckedPodSpec & { runtimeClassName?: string };
    if (spec.runtimeClassName && deps.exemptions.runtimeClasses.includes(spec.runtimeClassName)) return;
    const policy = await namespacePolicy(attrs.tenant, attrs.namespace!);
    const violations = evaluatePod(policy.enforce, object.metadata, spec);
    if (violations.length > 0) {
      throw admissionForbidden(attrs.def, object, `violates PodSecurity ${JSON.stringify(levelVersionText(policy.enforce))}: ${forbiddenDetail(violations)}`);
    }
    if (!sameLevelVersion(policy.warn, policy.enforce)) {
      const text = warning(policy.warn, object.metadata, spec);
      if (text) attrs.warnings?.push(text);
    }
  }

  async function admitWorkload(attrs: AdmissionAttributes, path: string[]): Promise<void> {
    if (attrs.subresource !== undefined) return;
    const template = templateOf(attrs.object, path);
    if (!template?.spec) return;
    const policy = await namespacePolicy(attrs.tenant, attrs.namespace!);
    const meta = template.metadata ?? {};
    const texts = [warning(policy.enforce, meta, template.spec)];
    if (!sameLevelVersion(policy.warn, policy.enforce)) texts.push(warning(policy.warn, meta, template.spec));
    for (const text of texts) if (text) attrs.warnings?.push(text);
  }

  /** Invalid labels are refused; a changed enforce level warns about the namespace's pods that break it (kube's EvaluatePodsInNamespace). */
  function admitNamespace(attrs: AdmissionAttributes): void {
    const name = attrs.object.metadata.name ?? '';
    const { policy, errors } = policyOf(attrs.object.metadata.labels);
    if (errors.length > 0) throw invalid(attrs.def, name, errors);
    if (attrs.operation !== 'update' || !attrs.old) return;
    const before = policyOf(attrs.old.metadata.labels).policy;
    if (sameLevelVersion(before.enforce, policy.enforce)) return;
    if (exemptNamespace(attrs.tenant, name)) {
      attrs.warnings?.push(`namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${levelVersionText(policy.enforce)}) will be ignored`);
      return;
    }
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of deps.podsIn(attrs.tenant, name)) {
      const spec = (pod.spec ?? {}) as CheckedPodSpec & { runtimeClassName?: string };
      if (spec.runtimeClassName && deps.exemptions.runtimeClasses.includes(spec.runtimeClassName)) continue;
      const violations = evaluatePod(policy.enforce, pod.metadata, spec);
      if (violations.length === 0) continue;
      const reason = forbiddenReason(violations);
      const podName = pod.metadata.name ?? '';
      const seen = byReason.get(reason);
      if (!seen) byReason.set(reason, { first: podName, count: 1 });
      else byReason.set(reason, { first: podName < seen.first ? podName : seen.first, count: seen.count + 1 });
    }
    if (byReason.size === 0) return;
    attrs.warnings?.push(`existing pods in namespace ${JSON.stringify(name)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionText(policy.enforce))}`);
    for (const [reason, { first, count }] of byReason) {
      const others = count === 1 ? '' : count === 2 ? ' (and 1 other pod)' : ` (and ${count - 1} other pods)`;
      attrs.warnings?.push(`${first}${others}: ${reason}`);
    }
  }

  return {
    async admit(attrs) {
      const { operation, def, tenant, namespace } = attrs;
      if (operation === 'delete' || exemptUser(attrs.user)) return;
      if (def.group === '' && def.resource === 'namespaces') {
        if (attrs.subresource === undefined) admitNamespace(attrs);
        return;
      }
      if (namespace === undefined || exemptNamespace(tenant, namespace)) return;
      if (def.group === '' && def.resource === 'pods') return admitPod(attrs);
      const path = TEMPLATE_PATHS[`${def.group}/${def.resource}`];
      if (path) return admitWorkload(attrs, path);
    },
  };
}
