/**
 * The kubernetes-service controller: one instance over every space keeps `default/kubernetes` (its
 * Service, Endpoints and EndpointSlice) as kube-apiserver's own controller and endpoint reconciler
 * do — made when missing, put back when changed. Queue keys are the Service's key in each space, so
 * an event in one space only ever reconciles that space. Idle until the server knows its endpoint
 * (`advertise`), which comes after it listens.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { ApiError } from '../../../api/status.js';
import { Controller, done, requeue, type ReconcileResult } from '../../../controllers/runtime/controller.js';
import type { Informer } from '../../../controllers/runtime/informer.js';
import { changedOnlyStatus } from '../../../controllers/runtime/status-change.js';
import type { ObjectKey } from '../../client/object-key.js';
import {
  endpointSliceCorrect,
  endpointsCorrect,
  KUBERNETES_SERVICE,
  KUBERNETES_SERVICE_NAMESPACE,
  kubernetesEndpointSlice,
  kubernetesEndpoints,
  kubernetesService,
  serviceFormatCorrect,
  withServiceFormat,
  type AdvertisedEndpoint,
} from './kubernetes-service-objects.js';

export interface KubernetesServiceDeps {
  generic: GenericStore;
  tenants: Informer;
  /** Its `default` namespace appearing is a new space's cue. */
  namespaces: Informer;
  services: Informer;
  endpoints: Informer;
  endpointSlices: Informer;
  defs: { services: ResourceDefinition; endpoints: ResourceDefinition; endpointSlices: ResourceDefinition };
  /** The first IP of the service range: the Service's in every space. */
  clusterIP: string;
  log: { error(obj: object, msg: string): void };
}

const keyIn = (tenant: string): ObjectKey => ({ tenant, namespace: KUBERNETES_SERVICE_NAMESPACE, name: KUBERNETES_SERVICE });

/** A create that lost a race, or a namespace or tenant that started going away: nothing left to do. */
function settled(err: unknown): boolean {
  return err instanceof ApiError && (err.reason === 'AlreadyExists' || err.reason === 'Forbidden' || err.reason === 'NotFound');
}

async function createOrSettle(generic: GenericStore, def: ResourceDefinition, tenant: string, obj: KubeObject): Promise<void> {
  try {
    await generic.create(def, { tenant, namespace: KUBERNETES_SERVICE_NAMESPACE }, obj);
  } catch (err) {
    if (!settled(err)) throw err;
  }
}

/**
 * The first IP is still held just after the Service is deleted (it is released after the delete)
 * or by a concurrent create of the same Service: either way a retry settles it, quietly.
 */
function ipStillHeld(err: unknown): boolean {
  return err instanceof ApiError && err.reason === 'Invalid' && (err.details?.causes ?? []).some((c) => c.field === 'spec.clusterIPs[0]' && c.message?.includes('already allocated'));
}

export class KubernetesServiceController {
  private endpoint: AdvertisedEndpoint | undefined;
  readonly controller: Controller;

  constructor(private readonly deps: KubernetesServiceDeps) {
    this.controller = new Controller({ name: 'kubernetes-service', reconcile: (key) => this.reconcile(key), log: deps.log });
    // A Tenant's status changes with every quota charge in its space, and asks for nothing here.
    deps.tenants.onChange((key, obj, previous) => {
      if (obj && !obj.metadata.deletionTimestamp && !changedOnlyStatus(obj, previous)) this.controller.enqueue(keyIn(key.name));
    });
    deps.namespaces.onChange((key, obj) => {
      if (obj && key.name === KUBERNETES_SERVICE_NAMESPACE) this.controller.enqueue(keyIn(key.tenant));
    });
    for (const informer of [deps.services, deps.endpoints, deps.endpointSlices]) {
      informer.onChange((key) => {
        if (key.namespace === KUBERNETES_SERVICE_NAMESPACE && key.name === KUBERNETES_SERVICE) this.controller.enqueue(key);
      });
    }
  }

  /** Sets the endpoint to publish and reconciles every space against it. */
  advertise(endpoint: AdvertisedEndpoint): void {
    this.endpoint = endpoint;
    for (const tenant of this.deps.tenants.lister().list()) this.controller.enqueue(keyIn(tenant.metadata.name!));
  }

  /** Idle again: another replica publishes its endpoint now, and two publishing would undo each other's writes forever. */
  withdraw(): void {
    this.endpoint = undefined;
  }

  private async reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const endpoint = this.endpoint;
    if (!endpoint) return done;
    const tenant = this.deps.tenants.get({ tenant: '', namespace: '', name: key.tenant });
    if (!tenant || tenant.metadata.deletionTimestamp) return done;
    // Before the first lists the caches would claim every object is missing.
    await Promise.all([this.deps.services, this.deps.endpoints, this.deps.endpointSlices].map((i) => i.waitForSync()));
    try {
      await this.ensureService(key, endpoint);
    } catch (err) {
      if (ipStillHeld(err)) return requeue;
      throw err;
    }
    if (endpoint.address) {
      await this.ensureEndpoints(key, endpoint.address, endpoint);
      await this.ensureEndpointSlice(key, endpoint.address, endpoint);
    }
    return done;
  }

  private async ensureService(key: ObjectKey, endpoint: AdvertisedEndpoint): Promise<void> {
    const { generic, defs } = this.deps;
    const current = this.deps.services.get(key);
    if (!current) return createOrSettle(generic, defs.services, key.tenant, kubernetesService(this.deps.clusterIP, endpoint));
    if (serviceFormatCorrect(current, endpoint)) return;
    await generic.mutate(defs.services, key, (svc) => withServiceFormat(svc, endpoint));
  }

  private async ensureEndpoints(key: ObjectKey, address: string, endpoint: AdvertisedEndpoint): Promise<void> {
    const { generic, defs } = this.deps;
    const current = this.deps.endpoints.get(key);
    if (!current) return createOrSettle(generic, defs.endpoints, key.tenant, kubernetesEndpoints(undefined, address, endpoint));
    if (endpointsCorrect(current, address, endpoint)) return;
    await generic.mutate(defs.endpoints, key, (ep) => kubernetesEndpoints(ep, address, endpoint));
  }

  private async ensureEndpointSlice(key: ObjectKey, address: string, endpoint: AdvertisedEndpoint): Promise<void> {
    const { generic, defs } = this.deps;
    const desired = kubernetesEndpointSlice(address, endpoint);
    const current = this.deps.endpointSlices.get(key);
    if (!current) return createOrSettle(generic, defs.endpointSlices, key.tenant, desired);
    if (endpointSliceCorrect(current, desired)) return;
    // The address type is immutable: a slice of the other family is replaced, as upstream does.
    if (current.addressType !== desired.addressType) {
      await generic.delete(defs.endpointSlices, key);
      return createOrSettle(generic, defs.endpointSlices, key.tenant, desired);
    }
    await generic.mutate(defs.endpointSlices, key, (slice) => ({ ...slice, ...desired, metadata: { ...slice.metadata, labels: desired.metadata.labels } }));
  }
}
