/**
 * The Pod Security Standards' checks, as k8s.io/pod-security-admission's `policy/check_*.go`:
 * each looks at a pod's metadata and spec and answers a reason and a detail in upstream's exact
 * words. A level is the ordered list of its checks (baseline's by ID, then restricted's by ID, as
 * upstream sorts them so messages are stable); `restrictedVolumes` replaces `hostPathVolumes`.
 *
 * @example
 *   evaluatePod({ level: 'restricted', version: 'latest' }, pod.metadata, pod.spec)
 *   // ['allowPrivilegeEscalation != false (container "c" must set …)', …] joined by ", "
 */
import type { ObjectMeta } from '../../registry/object.js';

export type Level = 'privileged' | 'baseline' | 'restricted';

/** `latest`, or a Kubernetes minor version (1.<minor>). */
export type PolicyVersion = 'latest' | { minor: number };

export interface LevelVersion {
  level: Level;
  version: PolicyVersion;
}

/** The parts of a container's security context the checks read. */
interface ContainerSecurity {
  allowPrivilegeEscalation?: boolean;
  appArmorProfile?: { type?: string };
  capabilities?: { add?: string[]; drop?: string[] };
  privileged?: boolean;
  procMount?: string;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  seccompProfile?: { type?: string };
  windowsOptions?: { hostProcess?: boolean };
}

interface CheckedContainer {
  name?: string;
  ports?: Array<{ hostPort?: number }>;
  securityContext?: ContainerSecurity;
}

/** The pod spec as the checks read it (any pod, template or ephemeral container list). */
export interface CheckedPodSpec {
  containers?: CheckedContainer[];
  initContainers?: CheckedContainer[];
  ephemeralContainers?: CheckedContainer[];
  hostIPC?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  securityContext?: Omit<ContainerSecurity, 'allowPrivilegeEscalation' | 'capabilities' | 'privileged' | 'procMount'> & { sysctls?: Array<{ name?: string }> };
  volumes?: Array<Record<string, unknown> & { name?: string }>;
}

/** A failed check: upstream's ForbiddenReason and ForbiddenDetail. */
export interface Violation {
  reason: string;
  detail: string;
}

type CheckFn = (meta: ObjectMeta, spec: CheckedPodSpec, version: PolicyVersion) => Violation | undefined;

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** The first policy version (1.<minor>) the check belongs to. */
  since: number;
  check: CheckFn;
}

function joinQuote(items: string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` / `containers "a", "b"`. */
function containersText(names: string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** Init containers, containers, then ephemeral containers, as upstream's visitContainers. */
function containersOf(spec: CheckedPodSpec): CheckedContainer[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

function namesWhere(spec: CheckedPodSpec, bad: (c: CheckedContainer) => boolean): string[] {
  return containersOf(spec)
    .filter(bad)
    .map((c) => c.name ?? '');
}

/** Sorted, distinct: Go's sets.String List(). */
function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

function atLeast(version: PolicyVersion, minor: number): boolean {
  return version === 'latest' || version.minor >= minor;
}

// ---- baseline --------------------------------------------------------------------------------

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const appArmorProfile: CheckFn = (meta, spec) => {
  const allowedType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
  const setters: string[] = [];
  const values = new Set<string>();
  const podType = spec.securityContext?.appArmorProfile;
  if (podType && !allowedType(podType.type)) {
    setters.push('pod');
    values.add(podType.type ?? '');
  }
  const bad = containersOf(spec).filter((c) => c.securityContext?.appArmorProfile && !allowedType(c.securityContext.appArmorProfile.type));
  for (const c of bad) values.add(c.securityContext!.appArmorProfile!.type ?? '');
  if (bad.length > 0) setters.push(containersText(bad.map((c) => c.name ?? '')));
  const badValues = sortedSet(values);
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  if (annotations.length > 0) {
    badValues.push(...annotations);
    setters.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (setters.length === 0) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValues.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValues)}`,
  };
};

const DEFAULT_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: CheckFn = (_meta, spec) => {
  const extra: string[] = [];
  const bad = namesWhere(spec, (c) => {
    const added = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    extra.push(...added);
    return added.length > 0;
  });
  if (bad.length === 0) return undefined;
  return { reason: 'non-default capabilities', detail: `${containersText(bad)} must not include ${joinQuote(sortedSet(extra))} in securityContext.capabilities.add` };
};

const hostNamespaces: CheckFn = (_meta, spec) => {
  const used = [spec.hostNetwork && 'hostNetwork', spec.hostPID && 'hostPID', spec.hostIPC && 'hostIPC'].filter((n): n is string => typeof n === 'string');
  return used.length === 0 ? undefined : { reason: 'host namespaces', detail: sortedSet(used).join(', ') };
};

const hostPathVolumes: CheckFn = (_meta, spec) => {
  const names = (spec.volumes ?? []).filter((v) => v.hostPath !== undefined && v.hostPath !== null).map((v) => v.name ?? '');
  return names.length === 0 ? undefined : { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
};

const hostPorts: CheckFn = (_meta, spec) => {
  const ports: string[] = [];
  const bad = namesWhere(spec, (c) => {
    const used = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0).map((p) => String(p.hostPort));
    ports.push(...used);
    return used.length > 0;
  });
  if (bad.length === 0) return undefined;
  const distinct = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail: `${containersText(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  };
};

const privileged: CheckFn = (_meta, spec) => {
  const bad = namesWhere(spec, (c) => c.securityContext?.privileged === true);
  return bad.length === 0 ? undefined : { reason: 'privileged', detail: `${containersText(bad)} must not set securityContext.privileged=true` };
};

const procMount: CheckFn = (_meta, spec) => {
  const types: string[] = [];
  const bad = namesWhere(spec, (c) => {
    const mount = c.securityContext?.procMount;
    if (mount === undefined || mount === 'Default') return false;
    types.push(mount);
    return true;
  });
  return bad.length === 0 ? undefined : { reason: 'procMount', detail: `${containersText(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
};

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

const seLinuxOptions: CheckFn = (_meta, spec) => {
  const badTypes = new Set<string>();
  let setUser = false;
  let setRole = false;
  const valid = (opts: { type?: string; user?: string; role?: string }): boolean => {
    let ok = true;
    if (!SELINUX_TYPES.has(opts.type ?? '')) {
      ok = false;
      badTypes.add(opts.type ?? '');
    }
    if (opts.user) {
      ok = false;
      setUser = true;
    }
    if (opts.role) {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const setters: string[] = [];
  const podOptions = spec.securityContext?.seLinuxOptions;
  if (podOptions && !valid(podOptions)) setters.push('pod');
  const bad = namesWhere(spec, (c) => c.securityContext?.seLinuxOptions !== undefined && !valid(c.securityContext.seLinuxOptions));
  if (bad.length > 0) setters.push(containersText(bad));
  if (setters.length === 0) return undefined;
  const data: string[] = [];
  // Upstream names a forbidden user or role only beside a forbidden type.
  if (badTypes.size > 0) {
    data.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sortedSet(badTypes))}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
  }
  return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
};

const validSeccomp = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';

/** Who sets a seccomp profile type other than RuntimeDefault or Localhost (`pod`, `containers "a"`), the types set, and whether the pod sets a valid one. */
function badSeccompSetters(spec: CheckedPodSpec): { setters: string[]; values: string[]; podValid: boolean } {
  const setters: string[] = [];
  const values = new Set<string>();
  const pod = spec.securityContext?.seccompProfile;
  if (pod && !validSeccomp(pod.type)) {
    setters.push('pod');
    values.add(pod.type ?? '');
  }
  const bad = namesWhere(spec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (!profile || validSeccomp(profile.type)) return false;
    values.add(profile.type ?? '');
    return true;
  });
  if (bad.length > 0) setters.push(containersText(bad));
  return { setters, values: sortedSet(values), podValid: pod !== undefined && validSeccomp(pod.type) };
}

function seccompSettersViolation(setters: string[], values: string[]): Violation {
  return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}` };
}

const seccompProfileBaseline: CheckFn = (_meta, spec) => {
  const { setters, values } = badSeccompSetters(spec);
  return setters.length === 0 ? undefined : seccompSettersViolation(setters, values);
};

/** Safe sysctls by the policy version that allowed them. */
const SAFE_SYSCTLS: Array<[number, string[]]> = [
  [0, ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range']],
  [27, ['net.ipv4.ip_unprivileged_port_start']],
  [29, ['net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];

const sysctls: CheckFn = (_meta, spec, version) => {
  const safe = new Set(SAFE_SYSCTLS.filter(([minor]) => atLeast(version, minor)).flatMap(([, names]) => names));
  const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name ?? '').filter((name) => !safe.has(name));
  return bad.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: bad.join(', ') };
};

const windowsHostProcess: CheckFn = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad = namesWhere(spec, (c) => c.securityContext?.windowsOptions?.hostProcess === true);
  if (bad.length > 0) setters.push(containersText(bad));
  return setters.length === 0 ? undefined : { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
};

// ---- restricted ------------------------------------------------------------------------------

const allowPrivilegeEscalation: CheckFn = (_meta, spec) => {
  const bad = namesWhere(spec, (c) => c.securityContext?.allowPrivilegeEscalation !== false);
  return bad.length === 0 ? undefined : { reason: 'allowPrivilegeEscalation != false', detail: `${containersText(bad)} must set securityContext.allowPrivilegeEscalation=false` };
};

const capabilitiesRestricted: CheckFn = (_meta, spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const forbidden: string[] = [];
  for (const c of containersOf(spec)) {
    const caps = c.securityContext?.capabilities;
    if (!caps) {
      missingDrop.push(c.name ?? '');
      continue;
    }
    if (!(caps.drop ?? []).includes('ALL')) missingDrop.push(c.name ?? '');
    const added = (caps.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length > 0) {
      adding.push(c.name ?? '');
      forbidden.push(...added);
    }
  }
  const details: string[] = [];
  if (missingDrop.length > 0) details.push(`${containersText(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0) details.push(`${containersText(adding)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`);
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

const ALLOWED_RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_TYPES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];

const restrictedVolumes: CheckFn = (_meta, spec) => {
  const present = (v: Record<string, unknown>, type: string): boolean => v[type] !== undefined && v[type] !== null;
  const names: string[] = [];
  const types = new Set<string>();
  for (const v of spec.volumes ?? []) {
    if (ALLOWED_RESTRICTED_VOLUMES.some((t) => present(v, t))) continue;
    names.push(v.name ?? '');
    types.add(RESTRICTED_VOLUME_TYPES.find((t) => present(v, t)) ?? 'unknown');
  }
  if (names.length === 0) return undefined;
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('restricted volume type', 'restricted volume types', types.size)} ${joinQuote(sortedSet(types))}`,
  };
};

const runAsNonRoot: CheckFn = (_meta, spec) => {
  const setters: string[] = [];
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  const podNonRoot = podValue === true;
  const explicit = namesWhere(spec, (c) => c.securityContext?.runAsNonRoot === false);
  const implicit = namesWhere(spec, (c) => c.securityContext?.runAsNonRoot === undefined && !podNonRoot);
  if (explicit.length > 0) setters.push(containersText(explicit));
  if (setters.length > 0) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersText(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckFn = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad = namesWhere(spec, (c) => c.securityContext?.runAsUser === 0);
  if (bad.length > 0) setters.push(containersText(bad));
  return setters.length === 0 ? undefined : { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
};

const seccompProfileRestricted: CheckFn = (_meta, spec) => {
  const { setters, values, podValid } = badSeccompSetters(spec);
  if (setters.length > 0) return seccompSettersViolation(setters, values);
  const implicit = namesWhere(spec, (c) => c.securityContext?.seccompProfile === undefined && !podValid);
  if (implicit.length > 0) {
    return { reason: 'seccompProfile', detail: `pod or ${containersText(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  }
  return undefined;
};

/** Every check, in upstream's order: baseline IDs sorted, then restricted IDs sorted (Go's byte order). */
const CHECKS: Check[] = [
  { id: 'appArmorProfile', level: 'baseline', since: 0, check: appArmorProfile },
  { id: 'capabilities_baseline', level: 'baseline', since: 0, check: capabilitiesBaseline },
  { id: 'hostNamespaces', level: 'baseline', since: 0, check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', since: 0, check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', since: 0, check: hostPorts },
  { id: 'privileged', level: 'baseline', since: 0, check: privileged },
  { id: 'procMount', level: 'baseline', since: 0, check: procMount },
  { id: 'seLinuxOptions', level: 'baseline', since: 0, check: seLinuxOptions },
  { id: 'seccompProfile_baseline', level: 'baseline', since: 0, check: seccompProfileBaseline },
  { id: 'sysctls', level: 'baseline', since: 0, check: sysctls },
  { id: 'windowsHostProcess', level: 'baseline', since: 0, check: windowsHostProcess },
  { id: 'allowPrivilegeEscalation', level: 'restricted', since: 8, check: allowPrivilegeEscalation },
  { id: 'capabilities_restricted', level: 'restricted', since: 22, check: capabilitiesRestricted },
  { id: 'restrictedVolumes', level: 'restricted', since: 0, check: restrictedVolumes },
  { id: 'runAsNonRoot', level: 'restricted', since: 0, check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', since: 23, check: runAsUser },
  { id: 'seccompProfile_restricted', level: 'restricted', since: 19, check: seccompProfileRestricted },
];

/** The violations of a pod (or pod template) at a level and version, in upstream's order; none for privileged. */
export function evaluatePod(lv: LevelVersion, meta: ObjectMeta, spec: CheckedPodSpec): Violation[] {
  if (lv.level === 'privileged') return [];
  const checks = CHECKS.filter(
    (c) => atLeast(lv.version, c.since) && (c.level === 'baseline' || lv.level === 'restricted') && !(lv.level === 'restricted' && c.id === 'hostPathVolumes'),
  );
  return checks.map((c) => c.check(meta, spec, lv.version)).filter((v): v is Violation => v !== undefined);
}

/** `reason (detail), reason (detail)`: upstream's AggregateCheckResult.ForbiddenDetail. */
export function forbiddenDetail(violations: Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}

/** `reason, reason`: upstream's ForbiddenReason, for the warnings about existing pods. */
export function forbiddenReason(violations: Violation[]): string {
  return violations.map((v) => v.reason).join(', ');
}
