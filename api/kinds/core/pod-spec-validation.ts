/**
 * Validation of a PodSpec wherever it appears (pods, pod templates, and the templates of the
 * workload kinds in other groups), worded as Kubernetes' ValidatePodSpec words it.
 *
 * @example
 *   validatePodTemplateSpec(deployment.spec.template, 'spec.template')
 *   // [{ field: 'spec.template.spec.containers[0].image', message: 'Required value' }, ...]
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index } from '../../validation/field-path.js';
import { validateIP } from '../../validation/ip.js';
import { validateLabelSelector } from '../../validation/label-selector.js';
import { isValidLabelValue, validateAnnotations, validateLabels, validateQualifiedName } from '../../validation/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { inclusiveRangeError } from '../../validation/ports.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers, validateSeccompProfile, type ContainerContext } from './container-validation.js';
import type { PodSecurityContext, PodSpec, PodTemplateSpec, Toleration } from './types.js';
import { validateVolumes } from './volume-validation.js';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const MAX_INT32 = 2147483647;
const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 32;
const MAX_DNS_SEARCH_LIST_CHARS = 2048;

export interface PodSpecValidationOptions {
  /** The spec is a Pod's own (not a template): host ports must then equal container ports on the host network. */
  resourceIsPod?: boolean;
}

function validateEnum(value: string | undefined, supported: string[], path: string): FieldError[] {
  if (!value) return [fieldErrors.required(path)];
  return supported.includes(value) ? [] : [fieldErrors.notSupported(path, value, supported)];
}

function validateSubdomainField(value: string | undefined, path: string): FieldError[] {
  return value ? isDNS1123Subdomain(value).map((m) => fieldErrors.invalid(path, value, m)) : [];
}

function validateLabelField(value: string | undefined, path: string): FieldError[] {
  return value ? isDNS1123Label(value).map((m) => fieldErrors.invalid(path, value, m)) : [];
}

interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

function validateNodeSelectorRequirement(req: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErrors.required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErrors.forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldErrors.required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErrors.invalid(child(path, 'operator'), req.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateQualifiedName(req.key ?? '', child(path, 'key')));
  values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((m) => fieldErrors.invalid(index(child(path, 'values'), i), v, m))));
  return errs;
}

function validateNodeSelectorTerm(term: NodeSelectorTerm, path: string): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((r, i) => validateNodeSelectorRequirement(r, index(child(path, 'matchExpressions'), i))),
    ...(term.matchFields ?? []).flatMap((r, i) => validateNodeSelectorRequirement(r, index(child(path, 'matchFields'), i))),
  ];
}

/** A NodeSelector (node affinity, PersistentVolume node affinity): at least one term. */
export function validateNodeSelector(selector: { nodeSelectorTerms?: NodeSelectorTerm[] }, path: string): FieldError[] {
  const termsPath = child(path, 'nodeSelectorTerms');
  const terms = selector.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [fieldErrors.required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, index(termsPath, i)));
}

function validateWeight(weight: number | undefined, path: string): FieldError[] {
  return weight === undefined || weight <= 0 || weight > 100 ? [fieldErrors.invalid(path, weight ?? 0, 'must be in the range 1-100')] : [];
}

interface PodAffinityTerm {
  labelSelector?: Parameters<typeof validateLabelSelector>[0];
  namespaceSelector?: Parameters<typeof validateLabelSelector>[0];
  namespaces?: string[];
  topologyKey?: string;
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: string): FieldError[] {
  const errs = [...validateLabelSelector(term.labelSelector, child(path, 'labelSelector')), ...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'))];
  for (const ns of term.namespaces ?? []) errs.push(...isDNS1123Label(ns).map((m) => fieldErrors.invalid(child(path, 'namespace'), ns, m)));
  if (!term.topologyKey) errs.push(fieldErrors.required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateQualifiedName(term.topologyKey ?? '', child(path, 'topologyKey')));
  return errs;
}

interface PodAffinityRules {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: Array<{ weight?: number; podAffinityTerm?: PodAffinityTerm }>;
}

function validatePodAffinityRules(rules: PodAffinityRules, path: string): FieldError[] {
  const required = child(path, 'requiredDuringSchedulingIgnoredDuringExecution');
  const preferred = child(path, 'preferredDuringSchedulingIgnoredDuringExecution');
  return [
    ...(rules.requiredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t, i) => validatePodAffinityTerm(t, index(required, i))),
    ...(rules.preferredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((w, i) => [
      ...validateWeight(w.weight, child(index(preferred, i), 'weight')),
      ...validatePodAffinityTerm(w.podAffinityTerm ?? {}, child(index(preferred, i), 'podAffinityTerm')),
    ]),
  ];
}

interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: Array<{ weight?: number; preference?: NodeSelectorTerm }>;
  };
  podAffinity?: PodAffinityRules;
  podAntiAffinity?: PodAffinityRules;
}

function validateAffinity(affinity: Affinity | undefined, path: string): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const node = affinity.nodeAffinity;
  if (node) {
    const np = child(path, 'nodeAffinity');
    if (node.requiredDuringSchedulingIgnoredDuringExecution) {
      errs.push(...validateNodeSelector(node.requiredDuringSchedulingIgnoredDuringExecution, child(np, 'requiredDuringSchedulingIgnoredDuringExecution')));
    }
    (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const tp = index(child(np, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      errs.push(...validateWeight(term.weight, child(tp, 'weight')), ...validateNodeSelectorTerm(term.preference ?? {}, child(tp, 'preference')));
    });
  }
  if (affinity.podAffinity) errs.push(...validatePodAffinityRules(affinity.podAffinity, child(path, 'podAffinity')));
  if (affinity.podAntiAffinity) errs.push(...validatePodAffinityRules(affinity.podAntiAffinity, child(path, 'podAntiAffinity')));
  return errs;
}

export function validateTolerations(tolerations: readonly Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = index(path, i);
    if (t.key) errs.push(...validateQualifiedName(t.key, child(p, 'key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(fieldErrors.invalid(child(p, 'operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(fieldErrors.invalid(child(p, 'effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length > 0) errs.push(fieldErrors.invalid(child(p, 'operator'), t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(fieldErrors.invalid(child(p, 'operator'), t.value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErrors.notSupported(child(p, 'operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(fieldErrors.notSupported(child(p, 'effect'), t.effect, TAINT_EFFECTS));
  });
  return errs;
}

function validatePodSecurityContext(sc: PodSecurityContext | undefined, spec: PodSpec, path: string): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  for (const field of ['fsGroup', 'runAsUser', 'runAsGroup'] as const) {
    const id = sc[field];
    if (id !== undefined && (id < 0 || id > MAX_INT32)) errs.push(fieldErrors.invalid(child(path, field), id, inclusiveRangeError(0, MAX_INT32)));
  }
  (sc.supplementalGroups ?? []).forEach((gid, i) => {
    if (gid < 0 || gid > MAX_INT32) errs.push(fieldErrors.invalid(index(child(path, 'supplementalGroups'), i), gid, inclusiveRangeError(0, MAX_INT32)));
  });
  if (spec.shareProcessNamespace && spec.hostPID) {
    errs.push(fieldErrors.invalid(child(path, 'shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const names = new Set<string>();
  (sc.sysctls ?? []).forEach((s, i) => {
    const np = child(index(child(path, 'sysctls'), i), 'name');
    const name = s.name ?? '';
    if (!name) errs.push(fieldErrors.required(np));
    else if (name.length > 253 || !/^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/.test(name)) {
      errs.push(fieldErrors.invalid(np, name, 'must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$'));
    } else if (names.has(name)) {
      errs.push(fieldErrors.duplicate(np, name));
    }
    names.add(name);
  });
  if (sc.fsGroupChangePolicy !== undefined && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    errs.push(fieldErrors.notSupported(child(path, 'fsGroupChangePolicy'), sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, child(path, 'seccompProfile')));
  return errs;
}

function validateDNSConfig(spec: PodSpec, path: string): FieldError[] {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!config) return [fieldErrors.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((config.nameservers ?? []).length === 0) return [fieldErrors.required(child(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  const nameservers = config.nameservers ?? [];
  const searches = config.searches ?? [];
  if (nameservers.length > MAX_DNS_NAMESERVERS) errs.push(fieldErrors.invalid(child(path, 'nameservers'), nameservers, `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => errs.push(...validateIP(ns, index(child(path, 'nameservers'), i))));
  if (searches.length > MAX_DNS_SEARCH_PATHS) errs.push(fieldErrors.invalid(child(path, 'searches'), searches, `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`));
  if (searches.join(' ').length > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(fieldErrors.invalid(child(path, 'searches'), searches, `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`));
  }
  searches.forEach((s, i) => {
    if (s === '.') return;
    const domain = s.replace(/\.$/, '');
    // Kubernetes relaxed this rule in 1.32 to allow underscores (for SRV-style names).
    errs.push(...isDNS1123Subdomain(domain.replaceAll('_', 'a')).map((m) => fieldErrors.invalid(index(child(path, 'searches'), i), domain, m)));
  });
  (config.options ?? []).forEach((o, i) => {
    if (!o.name) errs.push(fieldErrors.required(index(child(path, 'options'), i), 'must not be empty'));
  });
  return errs;
}

interface SpreadConstraint {
  labelSelector?: Parameters<typeof validateLabelSelector>[0];
  maxSkew?: number;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  topologyKey?: string;
  whenUnsatisfiable?: string;
}

function validateTopologySpread(constraints: readonly SpreadConstraint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (constraints ?? []).forEach((c, i) => {
    const p = index(path, i);
    if ((c.maxSkew ?? 0) <= 0) errs.push(fieldErrors.invalid(child(p, 'maxSkew'), c.maxSkew ?? 0, 'must be greater than zero'));
    if (!c.topologyKey) errs.push(fieldErrors.required(child(p, 'topologyKey'), 'can not be empty'));
    else errs.push(...validateQualifiedName(c.topologyKey, child(p, 'topologyKey')));
    const policies = ['DoNotSchedule', 'ScheduleAnyway'];
    if (!policies.includes(c.whenUnsatisfiable ?? '')) errs.push(fieldErrors.notSupported(child(p, 'whenUnsatisfiable'), c.whenUnsatisfiable ?? '', policies));
    const pair = `{${c.topologyKey ?? ''}, ${c.whenUnsatisfiable ?? ''}}`;
    if (seen.has(pair)) errs.push(fieldErrors.duplicate(child(p, '{topologyKey, whenUnsatisfiable}'), pair));
    seen.add(pair);
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(fieldErrors.invalid(child(p, 'minDomains'), c.minDomains, 'must be greater than 0'));
      else if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        errs.push(fieldErrors.invalid(child(p, 'minDomains'), c.minDomains, 'can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway'));
      }
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const value = c[field];
      if (value !== undefined && !['Honor', 'Ignore'].includes(value)) errs.push(fieldErrors.notSupported(child(p, field), value, ['Honor', 'Ignore']));
    }
    errs.push(...validateLabelSelector(c.labelSelector, child(p, 'labelSelector')));
  });
  return errs;
}

/** Everything in a PodSpec, as Kubernetes' ValidatePodSpec checks it. */
export function validatePodSpec(spec: PodSpec, path: string, opts: PodSpecValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined) errs.push(fieldErrors.required(child(path, 'terminationGracePeriodSeconds')));
  const volumes = validateVolumes(spec.volumes, child(path, 'volumes'));
  errs.push(...volumes.errs);
  const ctx: ContainerContext = { volumes: volumes.valid, terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds, restartPolicy: spec.restartPolicy };
  errs.push(...validateContainers(spec.containers, ctx, child(path, 'containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, child(path, 'initContainers')));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, [...(spec.containers ?? []), ...(spec.initContainers ?? [])], ctx, child(path, 'ephemeralContainers')));

  if (spec.hostNetwork) {
    (spec.containers ?? []).forEach((c, ci) => {
      (c.ports ?? []).forEach((port, pi) => {
        const hostPort = port.hostPort ?? 0;
        if ((opts.resourceIsPod || hostPort !== 0) && hostPort !== port.containerPort) {
          errs.push(fieldErrors.invalid(child(index(child(index(child(path, 'containers'), ci), 'ports'), pi), 'hostPort'), hostPort, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  errs.push(...validateEnum(spec.restartPolicy, RESTART_POLICIES, child(path, 'restartPolicy')));
  errs.push(...validateEnum(spec.dnsPolicy, DNS_POLICIES, child(path, 'dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validatePodSecurityContext(spec.securityContext, spec, child(path, 'securityContext')));
  (spec.imagePullSecrets ?? []).forEach((ref, i) => {
    if (Object.keys(ref).some((k) => k !== 'name')) errs.push(fieldErrors.invalid(index(child(path, 'imagePullSecrets'), i), ref, 'only name may be set'));
  });
  errs.push(...validateAffinity(spec.affinity as Affinity | undefined, child(path, 'affinity')));
  errs.push(...validateDNSConfig(spec, child(path, 'dnsConfig')));
  (spec.readinessGates ?? []).forEach((g, i) => errs.push(...validateQualifiedName(g.conditionType ?? '', child(index(child(path, 'readinessGates'), i), 'conditionType'))));
  const gates = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const p = index(child(path, 'schedulingGates'), i);
    errs.push(...validateQualifiedName(g.name ?? '', p));
    if (gates.has(g.name ?? '')) errs.push(fieldErrors.duplicate(p, g.name ?? ''));
    gates.add(g.name ?? '');
  });
  errs.push(...validateTopologySpread(spec.topologySpreadConstraints as SpreadConstraint[] | undefined, child(path, 'topologySpreadConstraints')));
  errs.push(...validateSubdomainField(spec.serviceAccountName, child(path, 'serviceAccountName')));
  errs.push(...validateSubdomainField(spec.nodeName, child(path, 'nodeName')));
  if (spec.activeDeadlineSeconds !== undefined && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > MAX_INT32)) {
    errs.push(fieldErrors.invalid(child(path, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds, inclusiveRangeError(1, MAX_INT32)));
  }
  errs.push(...validateLabelField(spec.hostname, child(path, 'hostname')));
  errs.push(...validateLabelField(spec.subdomain, child(path, 'subdomain')));
  errs.push(...validateTolerations(spec.tolerations, child(path, 'tolerations')));
  (spec.hostAliases ?? []).forEach((alias, i) => {
    const p = index(child(path, 'hostAliases'), i);
    errs.push(...validateIP(alias.ip ?? '', child(p, 'ip')));
    (alias.hostnames ?? []).forEach((h, j) => errs.push(...isDNS1123Subdomain(h).map((m) => fieldErrors.invalid(index(child(p, 'hostnames'), j), h, m))));
  });
  errs.push(...validateSubdomainField(spec.priorityClassName, child(path, 'priorityClassName')));
  if (spec.preemptionPolicy !== undefined) errs.push(...validateEnum(spec.preemptionPolicy, PREEMPTION_POLICIES, child(path, 'preemptionPolicy')));
  if (spec.os !== undefined && !['linux', 'windows'].includes(spec.os.name ?? '')) {
    errs.push(fieldErrors.notSupported(child(path, 'os', 'name'), spec.os.name ?? '', ['linux', 'windows']));
  }
  return errs;
}

/** A pod template: its labels and annotations, and its spec (ephemeral containers are not allowed). */
export function validatePodTemplateSpec(template: PodTemplateSpec | undefined, path: string): FieldError[] {
  if (!template) return [fieldErrors.required(path)];
  const errs = [...validateLabels(template.metadata?.labels, child(path, 'labels')), ...validateAnnotations(template.metadata?.annotations, child(path, 'annotations'))];
  errs.push(...validatePodSpec(template.spec ?? {}, child(path, 'spec')));
  if ((template.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldErrors.forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
