/**
 * What the Endpoints and EndpointSlice controllers agree on about a Service and its pods, as
 * Kubernetes' `pkg/controller/util/endpoint` and `podutil` say it: which pods a service selects
 * (its own space and namespace only: the pods are read from there), which of them are ready, the
 * port each service port reaches on a pod (`FindPort`, named target ports included), and the
 * address a pod gets.
 *
 * @example
 *   for (const pod of selectedPods(service, podLister)) targetPort(pod, service.spec.ports[0]) // 8080
 */
import type { ObjectReference, Pod, Service, ServicePort } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { Lister } from '../runtime/lister.js';

/** The annotation both controllers set to when the change they publish was triggered. */
export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
/** The label a headless service's Endpoints and EndpointSlices carry. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/** Whether a map selector (a Service's) selects these labels; an empty one selects nothing here. */
export function selects(selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}

/** Whether the service's endpoints are the controllers' to write: it has a selector. */
export function hasSelector(service: Service): boolean {
  return Object.keys(service.spec?.selector ?? {}).length > 0;
}

export function isHeadless(service: Service): boolean {
  return service.spec?.clusterIP === 'None';
}

/** The pods of the service's own space and namespace its selector matches. */
export function selectedPods(service: Service, pods: Lister<Pod>): Pod[] {
  const tenant = service.metadata.tenant ?? '';
  const namespace = service.metadata.namespace ?? '';
  return pods.list({ tenant, namespace }).filter((pod) => selects(service.spec?.selector, pod.metadata.labels));
}

/** The services of a pod's space and namespace selecting it (by its labels now or before a change). */
export function servicesSelecting(pod: KubeObject, services: Lister<Service>): Service[] {
  const tenant = pod.metadata.tenant ?? '';
  const namespace = pod.metadata.namespace ?? '';
  return services.list({ tenant, namespace }).filter((svc) => selects(svc.spec?.selector, pod.metadata.labels));
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Kubernetes' ShouldPodBeInEndpoints: a pod with an IP that has not finished (a Never pod that
 * failed or any pod that succeeded is gone for good); a terminating one only if asked.
 */
export function belongsInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** The pod's IPv4 address, the one family served here. */
export function podIPv4(pod: Pod): string | undefined {
  const ips = [pod.status?.podIP, ...(pod.status?.podIPs ?? []).map((p) => p.ip)];
  return ips.find((ip): ip is string => ip !== undefined && /^\d+\.\d+\.\d+\.\d+$/.test(ip));
}

/** podutil.FindPort: the container port a service port reaches on this pod, or undefined when a named port is missing. */
export function targetPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (target === undefined) return undefined;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = port.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    for (const cp of c.ports ?? []) if (cp.name === target && (cp.protocol ?? 'TCP') === protocol) return cp.containerPort;
  }
  return undefined;
}

export function podReference(pod: Pod): ObjectReference {
  return { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
}

/** A pod's hostname in the service: only a headless service named as the pod's subdomain gives one. */
export function endpointHostname(pod: Pod, service: Service): string | undefined {
  const spec = pod.spec as { hostname?: string; subdomain?: string } | undefined;
  return spec?.hostname && spec.subdomain === service.metadata.name && isHeadless(service) ? spec.hostname : undefined;
}

/** The service's labels as its endpoints carry them, with the headless mark when it is one. */
export function endpointLabels(service: Service): Record<string, string> {
  const labels: Record<string, string> = { ...service.metadata.labels };
  if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return labels;
}

/** RFC 3339 with nanoseconds, as Go's time.RFC3339Nano writes a trigger time. */
export function triggerTime(now = Date.now()): string {
  return new Date(now).toISOString().replace(/\.?0*Z$/, 'Z');
}
