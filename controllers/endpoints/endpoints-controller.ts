/**
 * The Endpoints controller (kube-controller-manager's `endpoint`), one instance over every space:
 * each Service with a selector gets an Endpoints object of its name listing the selected pods of
 * its own space and namespace — ready ones in `addresses`, the others in `notReadyAddresses`
 * (all in `addresses` with `publishNotReadyAddresses`) — with each service port resolved on the
 * pod (named target ports included), subsets grouped by identical ports. Services without a
 * selector are left alone (their Endpoints are written by hand); a deleted service's Endpoints go.
 * Writes only on change, as `system:controller:endpoint-controller`; queue keys are services.
 */
import type { EndpointAddress, EndpointPort, EndpointSubset, Endpoints, Pod, Service } from '../../api/kinds/core/types.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from '../../src/client/api-status.js';
import { endpoints as endpointsKind } from '../../api/kinds/core/endpoints.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeue, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import {
  belongsInEndpoints,
  endpointHostname,
  endpointLabels,
  hasSelector,
  isHeadless,
  isPodReady,
  LAST_CHANGE_TRIGGER_TIME,
  podIPv4,
  podReference,
  selectedPods,
  servicesSelecting,
  targetPort,
  triggerTime,
} from './service-pods.js';

/** Kubernetes' maxCapacity: an Endpoints object lists at most this many addresses, then says it truncated. */
const MAX_ADDRESSES = 1000;
const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';

export interface EndpointsControllerDeps {
  /** Acts as the endpoint controller. */
  client: KubeClient;
  services: Informer;
  pods: Informer;
  endpoints: Informer;
  log: { error(obj: object, msg: string): void };
}

const portKey = (p: EndpointPort): string => `${p.name ?? ''}/${p.port ?? 0}/${p.protocol ?? ''}/${p.appProtocol ?? ''}`;
const addressKey = (a: EndpointAddress): string => `${a.ip ?? ''}/${a.targetRef?.uid ?? ''}`;
const byAddress = (a: EndpointAddress, b: EndpointAddress): number => addressKey(a).localeCompare(addressKey(b), 'en');

/**
 * The subsets of a service's pods, repacked as Kubernetes' RepackSubsets: addresses with the same
 * ports share a subset; addresses and ports sorted, so the same pods always give the same subsets.
 */
export function endpointSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses ?? false;
  const ports = service.spec?.ports ?? [];
  const groups = new Map<string, { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }>();
  for (const pod of pods) {
    const ip = podIPv4(pod);
    if (!ip || !belongsInEndpoints(pod, publishNotReady)) continue;
    const hostname = endpointHostname(pod, service);
    const address: EndpointAddress = { ip, ...(hostname ? { hostname } : {}), ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}), targetRef: podReference(pod) };
    let podPorts: EndpointPort[];
    if (ports.length === 0) {
      // A headless service may have no ports: its addresses alone.
      if (!isHeadless(service)) continue;
      podPorts = [];
    } else {
      podPorts = ports.flatMap((p) => {
        const port = targetPort(pod, p);
        return port === undefined ? [] : [{ ...(p.name ? { name: p.name } : {}), port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }];
      });
      if (podPorts.length === 0) continue;
    }
    podPorts.sort((a, b) => portKey(a).localeCompare(portKey(b), 'en'));
    const key = podPorts.map(portKey).join(',');
    const group = groups.get(key) ?? { ports: podPorts, ready: [], notReady: [] };
    groups.set(key, group);
    (publishNotReady || isPodReady(pod) ? group.ready : group.notReady).push(address);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en'))
    .map(([, g]) => ({
      ...(g.ready.length > 0 ? { addresses: g.ready.sort(byAddress) } : {}),
      ...(g.notReady.length > 0 ? { notReadyAddresses: g.notReady.sort(byAddress) } : {}),
      ...(g.ports.length > 0 ? { ports: g.ports } : {}),
    }));
}

/** Keeps the first MAX_ADDRESSES addresses (ready ones first); true when some were dropped. */
function truncate(subsets: EndpointSubset[]): boolean {
  let left = MAX_ADDRESSES;
  let dropped = false;
  for (const field of ['addresses', 'notReadyAddresses'] as const) {
    for (const subset of subsets) {
      const list = subset[field];
      if (!list) continue;
      if (list.length > left) {
        subset[field] = list.slice(0, left);
        dropped = true;
      }
      left -= subset[field]!.length;
      if (subset[field]!.length === 0) delete subset[field];
    }
  }
  return dropped;
}

export async function reconcileEndpoints(deps: EndpointsControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const client = deps.client.space(key.tenant).namespace(key.namespace).resource(endpointsKind);
  const service = deps.services.get(key) as Service | undefined;
  const current = deps.endpoints.get(key) as Endpoints | undefined;
  try {
    if (!service) {
      if (current) await client.delete(key.name, { preconditions: { uid: current.metadata.uid } });
      return done;
    }
    if (!hasSelector(service)) return done;
    const subsets = endpointSubsets(service, selectedPods(service, deps.pods.lister<Pod>()));
    const truncated = truncate(subsets);
    const labels = endpointLabels(service);
    if (current && semanticEqual(current.subsets ?? [], subsets) && semanticEqual(current.metadata.labels ?? {}, labels) && (current.metadata.annotations?.[OVER_CAPACITY] === 'truncated') === truncated) return done;
    const annotations: Record<string, string> = { ...current?.metadata.annotations, [LAST_CHANGE_TRIGGER_TIME]: triggerTime() };
    if (truncated) annotations[OVER_CAPACITY] = 'truncated';
    else delete annotations[OVER_CAPACITY];
    const next: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { ...current?.metadata, name: key.name, namespace: key.namespace, labels, annotations }, subsets };
    if (current) await client.update(next);
    else await client.create(next);
  } catch (err) {
    // Changed or made meanwhile: the informer brings the newer one; read it and try again.
    if (isConflict(err) || isAlreadyExists(err)) return requeue;
    // The namespace or the space is going away, or the object went meanwhile.
    if (isNotFound(err) || isForbidden(err)) return done;
    throw err;
  }
  return done;
}

export function endpointsController(deps: EndpointsControllerDeps): Controller {
  const controller = new Controller({ name: 'endpoint', reconcile: (key) => reconcileEndpoints(deps, key), workers: 2, log: deps.log });
  const services = deps.services.lister<Service>();
  deps.services.onChange((key) => controller.enqueue(key));
  deps.endpoints.onChange((key) => controller.enqueue(key));
  deps.pods.onChange((_key, pod, previous) => {
    for (const p of [pod, previous]) if (p) for (const svc of servicesSelecting(p, services)) controller.enqueue(keyOf(svc));
  });
  return controller;
}
