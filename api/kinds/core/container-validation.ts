/**
 * Validation of a pod's containers (regular, init and ephemeral): names, image, ports,
 * environment, mounts, resources, probes, lifecycle hooks and security context, worded as
 * Kubernetes words them.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { isConfigMapKey } from '../../validation/config-map-key.js';
import { fieldNotFound } from '../../validation/field-not-found.js';
import { child, index } from '../../validation/field-path.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { inclusiveRangeError, isValidPortName, isValidPortNum, validatePortNumOrName } from '../../validation/ports.js';
import { validateResourceRequirements } from './resource-validation.js';
import type { Container, ContainerPort, EphemeralContainer, EnvFromSource, EnvVar, Probe, ProbeHandler, SecurityContext, Volume, VolumeDevice, VolumeMount } from './types.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './volume-validation.js';

export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const MAX_USER_ID = 2147483647;
const RELAXED_ENV_NAME_MSG = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** What container validation needs to know about the pod around it. */
export interface ContainerContext {
  /** The pod's volumes that passed validation, by name. */
  volumes: ReadonlyMap<string, Volume>;
  terminationGracePeriodSeconds: number | undefined;
  restartPolicy: string | undefined;
}

/** Environment variable names (Kubernetes' relaxed rule, on by default since 1.32). */
function envVarNameErrors(name: string): string[] {
  if (name.length === 0) return ['environment variable name must be non-empty'];
  return [...name].some((c) => c < ' ' || c > '~' || c === '=') ? [RELAXED_ENV_NAME_MSG] : [];
}

function validateContainerPorts(ports: readonly ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const p = index(path, i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => fieldErrors.invalid(child(p, 'name'), port.name, m)));
      else if (names.has(port.name)) errs.push(fieldErrors.duplicate(child(p, 'name'), port.name));
      else names.add(port.name);
    }
    if (!port.containerPort) errs.push(fieldErrors.required(child(p, 'containerPort')));
    else errs.push(...isValidPortNum(port.containerPort).map((m) => fieldErrors.invalid(child(p, 'containerPort'), port.containerPort, m)));
    if (port.hostPort) errs.push(...isValidPortNum(port.hostPort).map((m) => fieldErrors.invalid(child(p, 'hostPort'), port.hostPort, m)));
    if (!port.protocol) errs.push(fieldErrors.required(child(p, 'protocol')));
    else if (!PROTOCOLS.includes(port.protocol)) errs.push(fieldErrors.notSupported(child(p, 'protocol'), port.protocol, PROTOCOLS));
  });
  return errs;
}

function validateKeyRef(ref: { key?: string; name?: string }, path: string): FieldError[] {
  const errs = isDNS1123Subdomain(ref.name ?? '').map((m) => fieldErrors.invalid(child(path, 'name'), ref.name ?? '', m));
  if (!ref.key) errs.push(fieldErrors.required(child(path, 'key')));
  else errs.push(...isConfigMapKey(ref.key).map((m) => fieldErrors.invalid(child(path, 'key'), ref.key, m)));
  return errs;
}

const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const ENV_RESOURCE_FIELDS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function validateEnvVarSource(env: EnvVar, path: string): FieldError[] {
  const from = env.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources += 1;
    const fp = child(path, 'fieldRef');
    const fieldPath = from.fieldRef.fieldPath ?? '';
    const subscripted = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
    if (!fieldPath) errs.push(fieldErrors.required(child(fp, 'fieldPath')));
    else if (subscripted) errs.push(...validateQualifiedName(subscripted[1] === 'annotations' ? subscripted[2]!.toLowerCase() : subscripted[2]!, fp));
    else if (!ENV_FIELD_PATHS.includes(fieldPath)) errs.push(fieldErrors.notSupported(child(fp, 'fieldPath'), fieldPath, ENV_FIELD_PATHS));
  }
  if (from.resourceFieldRef) {
    sources += 1;
    const rp = child(path, 'resourceFieldRef');
    const resource = from.resourceFieldRef.resource ?? '';
    if (!resource) errs.push(fieldErrors.required(child(rp, 'resource')));
    else if (!ENV_RESOURCE_FIELDS.includes(resource) && !/^(requests|limits)\.hugepages-/.test(resource)) {
      errs.push(fieldErrors.notSupported(child(rp, 'resource'), resource, ENV_RESOURCE_FIELDS));
    }
  }
  if (from.configMapKeyRef) {
    sources += 1;
    errs.push(...validateKeyRef(from.configMapKeyRef, child(path, 'configMapKeyRef')));
  }
  if (from.secretKeyRef) {
    sources += 1;
    errs.push(...validateKeyRef(from.secretKeyRef, child(path, 'secretKeyRef')));
  }
  if (sources === 0) errs.push(fieldErrors.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (env.value) errs.push(fieldErrors.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(fieldErrors.invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

function validateEnv(vars: readonly EnvVar[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (vars ?? []).forEach((env, i) => {
    const p = index(path, i);
    if (!env.name) errs.push(fieldErrors.required(child(p, 'name')));
    else errs.push(...envVarNameErrors(env.name).map((m) => fieldErrors.invalid(child(p, 'name'), env.name, m)));
    errs.push(...validateEnvVarSource(env, child(p, 'valueFrom')));
  });
  return errs;
}

function validateEnvFrom(sources: readonly EnvFromSource[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (sources ?? []).forEach((source, i) => {
    const p = index(path, i);
    if (source.prefix) errs.push(...envVarNameErrors(source.prefix).map((m) => fieldErrors.invalid(child(p, 'prefix'), source.prefix, m)));
    const refs = [
      ['configMapRef', source.configMapRef],
      ['secretRef', source.secretRef],
    ] as const;
    let count = 0;
    for (const [field, ref] of refs) {
      if (!ref) continue;
      count += 1;
      if (!ref.name) errs.push(fieldErrors.required(child(p, field, 'name')));
      else errs.push(...isDNS1123Subdomain(ref.name).map((m) => fieldErrors.invalid(child(p, field, 'name'), ref.name, m)));
    }
    // Kubernetes reports these two at the list's path.
    if (count === 0) errs.push(fieldErrors.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldErrors.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(container: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const devicePaths = new Map((container.volumeDevices ?? []).map((d) => [d.name ?? '', d.devicePath ?? '']));
  const mountPoints = new Set<string>();
  (container.volumeMounts ?? []).forEach((mount: VolumeMount, i) => {
    const p = index(path, i);
    const name = mount.name ?? '';
    const mountPath = mount.mountPath ?? '';
    if (!name) errs.push(fieldErrors.required(child(p, 'name')));
    if (!ctx.volumes.has(name)) errs.push(fieldNotFound(child(p, 'name'), name));
    if (!mountPath) errs.push(fieldErrors.required(child(p, 'mountPath')));
    if (mountPoints.has(mountPath)) errs.push(fieldErrors.invalid(child(p, 'mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devicePaths.has(name)) errs.push(fieldErrors.invalid(child(p, 'name'), name, 'must not already exist in volumeDevices'));
    if ([...devicePaths.values()].includes(mountPath)) errs.push(fieldErrors.invalid(child(p, 'mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    // Kubernetes reports sub-path problems at the list's path, not the item's.
    if (mount.subPath) errs.push(...validateLocalDescendingPath(mount.subPath, child(path, 'subPath')));
    if (mount.subPathExpr) {
      if (mount.subPath) errs.push(fieldErrors.invalid(child(p, 'subPathExpr'), mount.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(mount.subPathExpr, child(path, 'subPathExpr')));
    }
    if (mount.mountPropagation !== undefined) {
      if (!MOUNT_PROPAGATIONS.includes(mount.mountPropagation)) {
        errs.push(fieldErrors.notSupported(child(path, 'mountPropagation'), mount.mountPropagation, MOUNT_PROPAGATIONS));
      } else if (mount.mountPropagation === 'Bidirectional' && !container.securityContext?.privileged) {
        errs.push(fieldErrors.forbidden(child(path, 'mountPropagation'), 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    const rro = (mount as { recursiveReadOnly?: string }).recursiveReadOnly;
    if (rro !== undefined) {
      if (!RECURSIVE_READ_ONLY.includes(rro)) errs.push(fieldErrors.notSupported(child(path, 'recursiveReadOnly'), rro, RECURSIVE_READ_ONLY));
      else if (rro !== 'Disabled' && !mount.readOnly) errs.push(fieldErrors.forbidden(child(path, 'recursiveReadOnly'), 'may only be specified when readOnly is true'));
    }
  });
  return errs;
}

function validateVolumeDevices(container: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map((container.volumeMounts ?? []).map((m) => [m.name ?? '', m.mountPath ?? '']));
  const names = new Set<string>();
  const paths = new Set<string>();
  (container.volumeDevices ?? []).forEach((device: VolumeDevice, i) => {
    const p = index(path, i);
    const name = device.name ?? '';
    const devicePath = device.devicePath ?? '';
    const volume = ctx.volumes.get(name);
    if (!name) errs.push(fieldErrors.required(child(p, 'name')));
    if (names.has(name)) errs.push(fieldErrors.invalid(child(p, 'name'), name, 'must be unique'));
    if (volume && !volume.persistentVolumeClaim && !volume.ephemeral) {
      errs.push(fieldErrors.invalid(child(p, 'name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!volume) errs.push(fieldNotFound(child(p, 'name'), name));
    if (!devicePath) errs.push(fieldErrors.required(child(p, 'devicePath')));
    if (paths.has(devicePath)) errs.push(fieldErrors.invalid(child(p, 'devicePath'), devicePath, 'must be unique'));
    if (devicePath && validatePathNoBacksteps(devicePath, p).length > 0) errs.push(fieldErrors.invalid(child(p, 'devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.has(name)) errs.push(fieldErrors.invalid(child(p, 'name'), name, 'must not already exist in volumeMounts'));
    if ([...mounts.values()].includes(devicePath)) errs.push(fieldErrors.invalid(child(p, 'devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}

function validateHandler(handler: ProbeHandler, grace: number | undefined, path: string, allowSleep: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const kinds = (['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const).filter((k) => handler[k] !== undefined && (allowSleep || k !== 'sleep'));
  kinds.slice(1).forEach((k) => errs.push(fieldErrors.forbidden(child(path, k), 'may not specify more than 1 handler type')));
  const first = kinds[0];
  if (first === undefined) return [fieldErrors.required(path, 'must specify a handler type')];
  const hp = child(path, first);
  switch (first) {
    case 'exec':
      if ((handler.exec?.command ?? []).length === 0) errs.push(fieldErrors.required(child(hp, 'command')));
      break;
    case 'httpGet': {
      const http = handler.httpGet!;
      if (!http.path) errs.push(fieldErrors.required(child(hp, 'path')));
      errs.push(...validatePortNumOrName(http.port, child(hp, 'port')));
      if (!HTTP_SCHEMES.includes(http.scheme ?? '')) errs.push(fieldErrors.notSupported(child(hp, 'scheme'), http.scheme ?? '', HTTP_SCHEMES));
      break;
    }
    case 'tcpSocket':
      errs.push(...validatePortNumOrName(handler.tcpSocket!.port, child(hp, 'port')));
      break;
    case 'grpc':
      errs.push(...validatePortNumOrName(handler.grpc!.port ?? 0, child(hp, 'port')));
      break;
    case 'sleep': {
      const seconds = handler.sleep!.seconds ?? 0;
      if (grace !== undefined && (seconds < 0 || seconds > grace)) {
        errs.push(fieldErrors.invalid(hp, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`));
      }
      break;
    }
  }
  return errs;
}

function validateProbe(probe: Probe | undefined, kind: 'liveness' | 'readiness' | 'startup', grace: number | undefined, path: string): FieldError[] {
  if (!probe) return [];
  const errs = validateHandler(probe, grace, path, false);
  for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    const value = probe[field] ?? 0;
    if (value < 0) errs.push(fieldErrors.invalid(child(path, field), value, 'must be greater than or equal to 0'));
  }
  if (probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds <= 0) {
    errs.push(fieldErrors.invalid(child(path, 'terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  if (kind !== 'readiness' && probe.successThreshold !== 1) errs.push(fieldErrors.invalid(child(path, 'successThreshold'), probe.successThreshold ?? 0, 'must be 1'));
  if (kind === 'readiness' && probe.terminationGracePeriodSeconds !== undefined) {
    errs.push(fieldErrors.invalid(child(path, 'terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateProbesAndLifecycle(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const grace = ctx.terminationGracePeriodSeconds;
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const handler = c.lifecycle?.[hook];
    if (handler) errs.push(...validateHandler(handler, grace, child(path, 'lifecycle', hook), true));
  }
  errs.push(...validateProbe(c.livenessProbe, 'liveness', grace, child(path, 'livenessProbe')));
  errs.push(...validateProbe(c.readinessProbe, 'readiness', grace, child(path, 'readinessProbe')));
  errs.push(...validateProbe(c.startupProbe, 'startup', grace, child(path, 'startupProbe')));
  return errs;
}

function validateIds(sc: { runAsUser?: number; runAsGroup?: number }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['runAsUser', 'runAsGroup'] as const) {
    const id = sc[field];
    if (id !== undefined && (id < 0 || id > MAX_USER_ID)) errs.push(fieldErrors.invalid(child(path, field), id, inclusiveRangeError(0, MAX_USER_ID)));
  }
  return errs;
}

export function validateSeccompProfile(profile: { type?: string } | undefined, path: string): FieldError[] {
  if (!profile) return [];
  const supported = ['Localhost', 'RuntimeDefault', 'Unconfined'];
  if (!profile.type) return [fieldErrors.required(child(path, 'type'), 'type is required when seccompProfile is set')];
  return supported.includes(profile.type) ? [] : [fieldErrors.notSupported(child(path, 'type'), profile.type, supported)];
}

function validateSecurityContext(sc: SecurityContext | undefined, path: string): FieldError[] {
  if (!sc) return [];
  const errs = validateIds(sc, path);
  if (sc.procMount !== undefined && !['Default', 'Unmasked'].includes(sc.procMount)) {
    errs.push(fieldErrors.notSupported(child(path, 'procMount'), sc.procMount, ['Default', 'Unmasked']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, child(path, 'seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged) errs.push(fieldErrors.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    if ((sc.capabilities?.add ?? []).includes('CAP_SYS_ADMIN')) {
      errs.push(fieldErrors.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return errs;
}

/** Checks every kind of container shares (Kubernetes' validateContainerCommon). */
function validateContainerCommon(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(fieldErrors.required(child(path, 'name')));
  else errs.push(...isDNS1123Label(c.name).map((m) => fieldErrors.invalid(child(path, 'name'), c.name, m)));
  if (!c.image) errs.push(fieldErrors.required(child(path, 'image')));
  if (!c.terminationMessagePolicy) errs.push(fieldErrors.required(child(path, 'terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(c.terminationMessagePolicy)) {
    errs.push(fieldErrors.notSupported(child(path, 'terminationMessagePolicy'), c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...validateContainerPorts(c.ports, child(path, 'ports')));
  errs.push(...validateEnv(c.env, child(path, 'env')));
  errs.push(...validateEnvFrom(c.envFrom, child(path, 'envFrom')));
  errs.push(...validateVolumeMounts(c, ctx, child(path, 'volumeMounts')));
  errs.push(...validateVolumeDevices(c, ctx, child(path, 'volumeDevices')));
  if (!c.imagePullPolicy) errs.push(fieldErrors.required(child(path, 'imagePullPolicy')));
  else if (!PULL_POLICIES.includes(c.imagePullPolicy)) errs.push(fieldErrors.notSupported(child(path, 'imagePullPolicy'), c.imagePullPolicy, PULL_POLICIES));
  errs.push(...validateResourceRequirements(c.resources, child(path, 'resources')));
  errs.push(...validateSecurityContext(c.securityContext, child(path, 'securityContext')));
  return errs;
}

/** Host ports must not collide (per protocol and host IP) within one set of containers running together. */
function checkHostPortConflicts(containers: readonly Container[], path: string): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const id = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${port.hostPort}`;
      if (seen.has(id)) errs.push(fieldErrors.duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id));
      seen.add(id);
    });
  });
  return errs;
}

export function validateContainers(containers: readonly Container[] | undefined, ctx: ContainerContext, path: string): FieldError[] {
  if (!containers || containers.length === 0) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, ctx, p));
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(child(p, 'name'), c.name ?? ''));
    else names.add(c.name ?? '');
    errs.push(...validateProbesAndLifecycle(c, ctx, p));
    if (c.restartPolicy !== undefined) errs.push(fieldErrors.forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

export function validateInitContainers(
  initContainers: readonly Container[] | undefined,
  containers: readonly Container[] | undefined,
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((containers ?? []).map((c) => c.name ?? ''));
  (initContainers ?? []).forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, ctx, p));
    let sidecar = false;
    if (c.restartPolicy !== undefined) {
      if (c.restartPolicy === 'Always') sidecar = true;
      else errs.push(fieldErrors.notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
    }
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(child(p, 'name'), c.name ?? ''));
    else if (c.name) names.add(c.name);
    errs.push(...checkHostPortConflicts([c], path));
    if (sidecar) {
      errs.push(...validateProbesAndLifecycle(c, ctx, p));
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[field] !== undefined) errs.push(fieldErrors.forbidden(child(p, field), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

/** Fields of a container that an ephemeral container may not set (it is never restarted, probed or given resources). */
const EPHEMERAL_FORBIDDEN_FIELDS = ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources', 'resizePolicy', 'restartPolicy'] as const;

/**
 * A pod's ephemeral containers: each a valid container whose name no other container of the pod
 * has, targeting (if at all) a container of the pod, and without the fields that make no sense
 * for a debugging container.
 */
export function validateEphemeralContainers(
  ephemeral: readonly EphemeralContainer[] | undefined,
  others: readonly Container[],
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(others.map((c) => c.name ?? ''));
  (ephemeral ?? []).forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, ctx, p));
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(child(p, 'name'), c.name ?? ''));
    else names.add(c.name ?? '');
    if (c.targetContainerName && !others.some((o) => o.name === c.targetContainerName)) errs.push(fieldNotFound(child(p, 'targetContainerName'), c.targetContainerName));
    for (const field of EPHEMERAL_FORBIDDEN_FIELDS) {
      // Go checks for zero values: clients send an empty `resources: {}`.
      const value = (c as Record<string, unknown>)[field];
      const set = value !== undefined && value !== null && !(typeof value === 'object' && Object.keys(value).length === 0);
      if (set) errs.push(fieldErrors.forbidden(child(p, field), 'cannot be set for an Ephemeral Container'));
    }
  });
  return errs;
}

/** Pod-only checks on containers (not applied to templates, for compatibility). */
export function validateContainersOnlyForPod(containers: readonly Container[] | undefined, path: string): FieldError[] {
  return (containers ?? []).flatMap((c, i) =>
    c.image !== undefined && c.image.trim() !== c.image ? [fieldErrors.invalid(child(index(path, i), 'image'), c.image, 'must not have leading or trailing whitespace')] : [],
  );
}
