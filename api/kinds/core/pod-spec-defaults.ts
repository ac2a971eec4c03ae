/**
 * Defaults of a PodSpec wherever it appears (pods, pod templates, and the templates of Deployments,
 * Jobs, ...), following Kubernetes' v1 defaulting: restart and DNS policies, grace period,
 * scheduler, container pull policy and termination message, probe timings, volume modes.
 * Pod-only defaults (those Kubernetes applies to Pod objects, or through admission) are in `pod.ts`.
 *
 * @example
 *   const spec = { containers: [{ name: 'web', image: 'nginx' }] };
 *   defaultPodSpec(spec);
 *   spec.restartPolicy;                    // 'Always'
 *   spec.containers[0].imagePullPolicy;    // 'Always' (no tag means :latest)
 */
import { canonicalizeResourceList } from '../../validation/quantity.js';
import type { Container, PodSpec, PodTemplateSpec, Probe, ProbeHandler, Volume } from './types.js';

/** File mode 0644, written in decimal as the API stores it. */
const DEFAULT_FILE_MODE = 0o644;
const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

/**
 * The tag of an image reference, as Kubernetes' image parser reads it: `latest` when there is
 * neither a tag nor a digest, '' when there is only a digest (or no image at all).
 */
function imageTag(image: string): string {
  if (image === '') return '';
  const withoutDigest = image.split('@')[0]!;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const lastColon = withoutDigest.lastIndexOf(':');
  if (lastColon > lastSlash) return withoutDigest.slice(lastColon + 1);
  return image.includes('@') ? '' : 'latest';
}

function defaultHandler(handler: ProbeHandler | undefined): void {
  if (!handler) return;
  if (handler.httpGet) {
    handler.httpGet.path ||= '/';
    handler.httpGet.scheme ||= 'HTTP';
  }
  if (handler.grpc) handler.grpc.service ??= '';
}

function defaultProbe(probe: Probe | undefined): void {
  if (!probe) return;
  defaultHandler(probe);
  probe.timeoutSeconds ||= 1;
  probe.periodSeconds ||= 10;
  probe.successThreshold ||= 1;
  probe.failureThreshold ||= 3;
}

function defaultContainer(container: Container): void {
  container.imagePullPolicy ||= imageTag(container.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  container.terminationMessagePath ||= '/dev/termination-log';
  container.terminationMessagePolicy ||= 'File';
  // Kubernetes always prints the (non-pointer) resources struct, empty or not.
  container.resources ??= {};
  canonicalizeResourceList(container.resources.limits);
  canonicalizeResourceList(container.resources.requests);
  for (const port of container.ports ?? []) port.protocol ||= 'TCP';
  for (const env of container.env ?? []) {
    const fieldRef = env.valueFrom?.fieldRef;
    if (fieldRef) fieldRef.apiVersion ||= 'v1';
  }
  defaultProbe(container.livenessProbe);
  defaultProbe(container.readinessProbe);
  defaultProbe(container.startupProbe);
  defaultHandler(container.lifecycle?.postStart);
  defaultHandler(container.lifecycle?.preStop);
}

interface ProjectionSource {
  downwardAPI?: { items?: Array<{ fieldRef?: { apiVersion?: string } }> };
  serviceAccountToken?: { expirationSeconds?: number };
}

/** A volume with no source is an emptyDir; sources get their file modes and settings. */
function defaultVolume(volume: Volume): void {
  const sources = Object.keys(volume).filter((k) => k !== 'name' && volume[k] !== undefined && volume[k] !== null);
  if (sources.length === 0) volume.emptyDir = {};
  if (volume.hostPath) volume.hostPath.type ??= '';
  if (volume.secret) volume.secret.defaultMode ??= DEFAULT_FILE_MODE;
  if (volume.configMap) volume.configMap.defaultMode ??= DEFAULT_FILE_MODE;
  if (volume.downwardAPI) {
    volume.downwardAPI.defaultMode ??= DEFAULT_FILE_MODE;
    for (const item of volume.downwardAPI.items ?? []) {
      const fieldRef = (item as { fieldRef?: { apiVersion?: string } }).fieldRef;
      if (fieldRef) fieldRef.apiVersion ||= 'v1';
    }
  }
  if (volume.projected) {
    volume.projected.defaultMode ??= DEFAULT_FILE_MODE;
    for (const source of (volume.projected.sources ?? []) as ProjectionSource[]) {
      if (source.serviceAccountToken) source.serviceAccountToken.expirationSeconds ??= DEFAULT_TOKEN_EXPIRATION_SECONDS;
      for (const item of source.downwardAPI?.items ?? []) if (item.fieldRef) item.fieldRef.apiVersion ||= 'v1';
    }
  }
  const template = volume.ephemeral?.volumeClaimTemplate as { spec?: { volumeMode?: string } } | undefined;
  if (template?.spec) template.spec.volumeMode ??= 'Filesystem';
}

/** Defaults of a PodSpec in any object (Kubernetes' SetDefaults_PodSpec and the types within). */
export function defaultPodSpec(spec: PodSpec): void {
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  spec.schedulerName ||= 'default-scheduler';
  // The deprecated serviceAccount alias mirrors serviceAccountName, as Kubernetes' conversion keeps it.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
  for (const v of spec.volumes ?? []) defaultVolume(v);
}

/** Defaults of a pod template (RC, PodTemplate, and every workload kind's `spec.template`). */
export function defaultPodTemplateSpec(template: PodTemplateSpec | undefined): void {
  if (!template) return;
  template.spec ??= {};
  defaultPodSpec(template.spec);
}
