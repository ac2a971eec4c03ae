/**
 * The EndpointSlice controller (kube-controller-manager's `endpointslice`), one instance over
 * every space: each Service with a selector gets `discovery.k8s.io/v1` EndpointSlices of the pods
 * it selects in its own space and namespace — one endpoint per pod IP with the conditions
 * `ready` (serving and not terminating, or always with `publishNotReadyAddresses`), `serving` and
 * `terminating` — grouped by the ports the pods resolve, at most 100 endpoints a slice, labelled
 * `kubernetes.io/service-name` and managed by `endpointslice-controller.k8s.io`, owned by the
 * service (so the garbage collector removes them with it). A service selecting nothing gets one
 * empty placeholder slice, as upstream. Only slices this controller manages are touched; slices
 * are reused in place and written only on change, as `system:controller:endpointslice-controller`.
 */
import type { Pod, Service } from '../../api/kinds/core/types.js';
import { defaultEndpointSlice, type Endpoint, type EndpointPort, type EndpointSlice } from '../../api/kinds/discovery/endpointslice.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { isConflict, isForbidden, isNotFound } from '../../src/client/api-status.js';
import { endpointSlices } from '../../api/kinds/discovery/endpointslice.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, keyString, type ObjectKey } from '../../src/client/object-key.js';
import {
  belongsInEndpoints,
  endpointHostname,
  endpointLabels,
  hasSelector,
  isPodReady,
  LAST_CHANGE_TRIGGER_TIME,
  podIPv4,
  podReference,
  selectedPods,
  servicesSelecting,
  targetPort,
  triggerTime,
} from '../endpoints/service-pods.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** kube-controller-manager's `--max-endpoints-per-slice` default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;
const BY_SERVICE = 'endpointslice-service';

export interface EndpointSliceControllerDeps {
  /** Acts as the endpointslice controller. */
  client: KubeClient;
  services: Informer;
  pods: Informer;
  endpointSlices: Informer;
  log: { error(obj: object, msg: string): void };
}

interface DesiredSlice {
  ports: EndpointPort[];
  endpoints: Endpoint[];
}

const portsKey = (ports: readonly EndpointPort[]): string => ports.map((p) => `${p.name ?? ''}/${p.port ?? 0}/${p.protocol ?? ''}/${p.appProtocol ?? ''}`).join(',');
const serviceIndexValue = (tenant: string, namespace: string, service: string): string => `${tenant}/${namespace}/${service}`;

/** The slices a service's pods make: endpoints grouped by resolved ports, sorted, cut in slices of MAX_ENDPOINTS_PER_SLICE. */
export function desiredSlices(service: Service, pods: readonly Pod[]): DesiredSlice[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses ?? false;
  const groups = new Map<string, DesiredSlice>();
  for (const pod of pods) {
    const ip = podIPv4(pod);
    if (!ip || !belongsInEndpoints(pod, true)) continue;
    const ports = (service.spec?.ports ?? []).flatMap((p): EndpointPort[] => {
      const port = targetPort(pod, p);
      return port === undefined ? [] : [{ name: p.name ?? '', port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }];
    });
    if (ports.length === 0 && (service.spec?.ports ?? []).length > 0) continue;
    ports.sort((a, b) => portsKey([a]).localeCompare(portsKey([b]), 'en'));
    const serving = isPodReady(pod);
    const terminating = pod.metadata.deletionTimestamp !== undefined;
    const hostname = endpointHostname(pod, service);
    const endpoint: Endpoint = {
      addresses: [ip],
      conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
      ...(hostname ? { hostname } : {}),
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: podReference(pod),
    };
    const key = portsKey(ports);
    const group = groups.get(key) ?? { ports, endpoints: [] };
    groups.set(key, group);
    group.endpoints.push(endpoint);
  }
  const slices: DesiredSlice[] = [];
  for (const [, group] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b, 'en'))) {
    group.endpoints.sort((a, b) => (a.addresses![0]!).localeCompare(b.addresses![0]!, 'en'));
    for (let i = 0; i < group.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE) slices.push({ ports: group.ports, endpoints: group.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
  }
  // A service that selects no ready-or-not pod still gets one (empty) slice.
  return slices.length > 0 ? slices : [{ ports: [], endpoints: [] }];
}

function sliceLabels(service: Service): Record<string, string> {
  return { ...endpointLabels(service), [SERVICE_NAME_LABEL]: service.metadata.name!, [MANAGED_BY_LABEL]: CONTROLLER_NAME };
}

/** The slice as it should read: `base` (an existing slice, or a new one's metadata) with the desired content. */
function sliceFor(service: Service, desired: DesiredSlice, base: EndpointSlice | undefined): EndpointSlice {
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...(base?.metadata ?? { generateName: `${service.metadata.name}-`, namespace: service.metadata.namespace }),
      labels: sliceLabels(service),
      annotations: { ...base?.metadata.annotations, [LAST_CHANGE_TRIGGER_TIME]: triggerTime() },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: service.metadata.name!, uid: service.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    addressType: 'IPv4',
    endpoints: desired.endpoints,
    ports: desired.ports,
  };
  defaultEndpointSlice(slice);
  return slice;
}

/** Whether the stored slice already says what `wanted` says (trigger time aside). */
function sameSlice(current: EndpointSlice, wanted: EndpointSlice): boolean {
  return (
    semanticEqual(current.endpoints ?? [], wanted.endpoints ?? []) &&
    semanticEqual(current.ports ?? [], wanted.ports ?? []) &&
    semanticEqual(current.metadata.labels ?? {}, wanted.metadata.labels ?? {}) &&
    semanticEqual(current.metadata.ownerReferences ?? [], wanted.metadata.ownerReferences ?? [])
  );
}

/**
 * What this controller last wrote of each service's slices (name → resourceVersion, or undefined
 * for a deleted slice), until the informer shows it (upstream's endpointSliceTracker): slices
 * have generated names, so acting on a cache that has not yet seen a new slice would make another.
 */
export class SliceWrites {
  private readonly written = new Map<string, Map<string, number | undefined>>();

  record(service: ObjectKey, name: string, resourceVersion: string | undefined): void {
    const id = keyString(service);
    const slices = this.written.get(id) ?? new Map<string, number | undefined>();
    slices.set(name, resourceVersion === undefined ? undefined : Number(resourceVersion));
    this.written.set(id, slices);
  }

  /** Whether the informer has seen everything written for the service (forgetting what it has). */
  seen(service: ObjectKey, informer: Informer): boolean {
    const id = keyString(service);
    const slices = this.written.get(id);
    if (!slices) return true;
    for (const [name, rv] of slices) {
      const cached = informer.get({ tenant: service.tenant, namespace: service.namespace, name });
      const caughtUp = rv === undefined ? !cached : cached !== undefined && Number(cached.metadata.resourceVersion) >= rv;
      if (caughtUp) slices.delete(name);
    }
    if (slices.size === 0) this.written.delete(id);
    return slices.size === 0;
  }
}

/** How soon to look again while the informer has not seen this controller's last writes. */
const CACHE_LAG_RETRY_MS = 100;

export async function reconcileEndpointSlices(deps: EndpointSliceControllerDeps, writes: SliceWrites, key: ObjectKey): Promise<ReconcileResult> {
  if (!writes.seen(key, deps.endpointSlices)) return requeueAfter(CACHE_LAG_RETRY_MS);
  const service = deps.services.get(key) as Service | undefined;
  // A deleted service's slices go with it (owner references); a service without a selector has its slices written by hand.
  if (!service || !hasSelector(service)) return done;
  const client = deps.client.space(key.tenant).namespace(key.namespace).resource(endpointSlices);
  const existing = deps.endpointSlices
    .lister<EndpointSlice>()
    .byIndex(BY_SERVICE, serviceIndexValue(key.tenant, key.namespace, key.name))
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!, 'en'));
  const desired = desiredSlices(service, selectedPods(service, deps.pods.lister<Pod>()));
  const unused = [...existing];
  const pending: DesiredSlice[] = [];
  // Slices already right stay as they are.
  for (const d of desired) {
    const i = unused.findIndex((s) => sameSlice(s, sliceFor(service, d, s)));
    if (i >= 0) unused.splice(i, 1);
    else pending.push(d);
  }
  try {
    for (const d of pending) {
      const reuse = unused.shift();
      const written = reuse ? await client.update(sliceFor(service, d, reuse)) : await client.create(sliceFor(service, d, undefined));
      writes.record(key, written.metadata.name!, written.metadata.resourceVersion);
    }
    for (const extra of unused) {
      await client.delete(extra.metadata.name!, { preconditions: { uid: extra.metadata.uid } });
      writes.record(key, extra.metadata.name!, undefined);
    }
  } catch (err) {
    if (isConflict(err)) return requeue;
    if (isNotFound(err) || isForbidden(err)) return done;
    throw err;
  }
  return done;
}

export function endpointSliceController(deps: EndpointSliceControllerDeps): Controller {
  deps.endpointSlices.addIndexers({
    [BY_SERVICE]: (slice) => {
      const labels = slice.metadata.labels ?? {};
      const service = labels[SERVICE_NAME_LABEL];
      return service && labels[MANAGED_BY_LABEL] === CONTROLLER_NAME ? [serviceIndexValue(slice.metadata.tenant ?? '', slice.metadata.namespace ?? '', service)] : [];
    },
  });
  const writes = new SliceWrites();
  const controller = new Controller({ name: 'endpointslice', reconcile: (key) => reconcileEndpointSlices(deps, writes, key), workers: 2, log: deps.log });
  const services = deps.services.lister<Service>();
  deps.services.onChange((key) => controller.enqueue(key));
  deps.endpointSlices.onChange((key, slice, previous) => {
    const labels = (slice ?? previous)?.metadata.labels ?? {};
    const service = labels[SERVICE_NAME_LABEL];
    if (service && labels[MANAGED_BY_LABEL] === CONTROLLER_NAME) controller.enqueue({ tenant: key.tenant, namespace: key.namespace, name: service });
  });
  deps.pods.onChange((_key, pod, previous) => {
    for (const p of [pod, previous]) if (p) for (const svc of servicesSelecting(p, services)) controller.enqueue(keyOf(svc));
  });
  return controller;
}
