/**
 * The controller manager of the controllers that run on the client (tenant, namespace, service account,
 * ClusterRole aggregation, root CA publisher, resource quota, endpoints, endpoint slices, pod garbage
 * collection, the scheduler): shared informers over every
 * space, read with the manager's own identity, and each controller writing under its own
 * (`system:controller:<name>`, with the least-privilege role bootstrap-policy.ts gives it). The same
 * code runs inside `serve` (in-process transport) and in `kube-spaces controllers` (HTTPS); leader
 * election is the caller's (leader-election.ts).
 *
 * @example
 *   const manager = startControllerManager({ informerClient, clientFor: (identity) => clientAs(identity), log });
 *   await manager.synced;
 *   await manager.stop();
 */
import { hostname } from 'node:os';
import { CONTROLLER_USERS } from '../authz/rbac/bootstrap-policy.js';
import { clusterRoles } from '../api/kinds/rbac/clusterrole.js';
import { configMaps, endpoints, endpointSlices, namespaces, nodes, pods, secrets, serviceAccounts, services, tenants } from '../src/client/builtin-kinds.js';
import { persistentVolumeClaims } from '../api/kinds/core/persistent-volume-claim.js';
import { replicationControllers } from '../api/kinds/core/replication-controller.js';
import { resourceQuotas } from '../api/kinds/core/resource-quota.js';
import { resourceQuotaController } from './resource-quota/resource-quota-controller.js';
import { endpointsController } from './endpoints/endpoints-controller.js';
import { endpointSliceController } from './endpointslice/endpointslice-controller.js';
import { DEFAULT_TERMINATED_POD_GC_THRESHOLD, ORPHAN_QUARANTINE_MS, podGcController } from './pod-gc/pod-gc-controller.js';
import type { KubeClient } from '../src/client/kube-client.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { clusterRoleAggregationController } from './rbac/cluster-role-aggregation.js';
import { ROOT_CA_FIELD_SELECTOR, rootCaPublisher } from './root-ca-publisher/root-ca-publisher.js';
import { clientSources } from './runtime/client-source.js';
import { ClientEventRecorder } from './runtime/client-event-recorder.js';
import { DEFAULT_SCHEDULER_NAME, Scheduler } from './scheduler/scheduler.js';
import type { Controller } from './runtime/controller.js';
import { InformerFactory } from './runtime/informer-factory.js';
import { serviceAccountController } from './service-account/service-account-controller.js';
import { tenantController } from './tenant/tenant-controller.js';

export interface ControllerManagerOptions {
  /** Acts as CONTROLLER_MANAGER_USER: reads for the shared informers. */
  informerClient: KubeClient;
  /** A client acting as one of CONTROLLER_USERS. */
  clientFor(user: string): KubeClient;
  /** PEM of the CA that signs the server's certificate, published as `kube-root-ca.crt` in every namespace (none: not published, as kube-controller-manager without a root CA). */
  rootCaBundle: string | undefined;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Terminated pods a space keeps before the pod garbage collector deletes the oldest (default 12,500). */
  terminatedPodGcThreshold?: number | undefined;
}

export interface ControllerManager {
  /** Resolves once every shared informer has its first listing. */
  synced: Promise<void>;
  stop(): Promise<void>;
}

export function startControllerManager(options: ControllerManagerOptions): ControllerManager {
  const { log } = options;
  const informers = new InformerFactory(clientSources(options.informerClient), (err, informer) => log.error({ err, informer }, 'informer error'));
  const tenantInformer = informers.informerFor(tenants);
  const namespaceInformer = informers.informerFor(namespaces);
  const serviceAccountInformer = informers.informerFor(serviceAccounts);
  const clusterRoleInformer = informers.informerFor(clusterRoles);
  const serviceInformer = informers.informerFor(services);
  const podInformer = informers.informerFor(pods);
  const endpointsInformer = informers.informerFor(endpoints);
  const endpointSliceInformer = informers.informerFor(endpointSlices);
  const nodeInformer = informers.informerFor(nodes);
  const quotaInformer = informers.informerFor(resourceQuotas);
  // What quotas count and release at once when deleted; other kinds are recounted on the resync.
  const counted = [pods, services, persistentVolumeClaims, configMaps, secrets, replicationControllers, resourceQuotas].map((def) => ({
    group: def.group,
    resource: def.resource,
    informer: informers.informerFor(def),
  }));
  const schedulerClient = options.clientFor(CONTROLLER_USERS.scheduler);
  // kube's events recorder names its instance after the controller and the host.
  const schedulerEvents = new ClientEventRecorder({ client: schedulerClient, reportingController: DEFAULT_SCHEDULER_NAME, reportingInstance: `${DEFAULT_SCHEDULER_NAME}-${hostname()}`, log });
  const scheduler = new Scheduler({ client: schedulerClient, pods: podInformer, nodes: nodeInformer, recorder: schedulerEvents, log });
  const controllers: Array<Controller | Scheduler> = [
    tenantController({ client: options.clientFor(CONTROLLER_USERS.tenant), tenants: tenantInformer, log }),
    namespaceController({ client: options.clientFor(CONTROLLER_USERS.namespace), namespaces: namespaceInformer, tenants: tenantInformer, log }),
    serviceAccountController({
      client: options.clientFor(CONTROLLER_USERS.serviceAccount),
      tenants: tenantInformer,
      namespaces: namespaceInformer,
      serviceAccounts: serviceAccountInformer,
      log,
    }),
    clusterRoleAggregationController({ client: options.clientFor(CONTROLLER_USERS.clusterRoleAggregation), clusterRoles: clusterRoleInformer, log }),
    resourceQuotaController({ client: options.clientFor(CONTROLLER_USERS.resourceQuota), quotas: quotaInformer, counted, log }),
    scheduler,
    endpointsController({ client: options.clientFor(CONTROLLER_USERS.endpoint), services: serviceInformer, pods: podInformer, endpoints: endpointsInformer, log }),
    endpointSliceController({ client: options.clientFor(CONTROLLER_USERS.endpointSlice), services: serviceInformer, pods: podInformer, endpointSlices: endpointSliceInformer, log }),
    podGcController({
      client: options.clientFor(CONTROLLER_USERS.podGarbageCollector),
      pods: podInformer,
      nodes: nodeInformer,
      terminatedPodThreshold: options.terminatedPodGcThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD,
      orphanQuarantineMs: ORPHAN_QUARANTINE_MS,
      log,
    }),
  ];
  const synced = [tenantInformer, namespaceInformer, serviceAccountInformer, clusterRoleInformer];
  if (options.rootCaBundle !== undefined) {
    const rootCaConfigMaps = informers.informerFor(configMaps, undefined, { fieldSelector: ROOT_CA_FIELD_SELECTOR });
    synced.push(rootCaConfigMaps);
    controllers.push(
      rootCaPublisher({ client: options.clientFor(CONTROLLER_USERS.rootCaPublisher), caBundle: options.rootCaBundle, tenants: tenantInformer, namespaces: namespaceInformer, rootCaConfigMaps, log }),
    );
  }
  informers.start();
  let stopped = false;
  // Workers start once every cache has its first listing (client-go's WaitForCacheSync): before,
  // a tenant or an account not yet listed would look absent, and a reconcile would act on that.
  const allSynced = Promise.all([...synced, nodeInformer, endpointsInformer, endpointSliceInformer, ...counted.map((c) => c.informer)].map((i) => i.waitForSync())).then(() => {
    if (stopped) return;
    for (const controller of controllers) controller.start();
    log.info({ controllers: Object.values(CONTROLLER_USERS) }, 'controller manager started');
  });
  return {
    synced: allSynced,
    async stop() {
      stopped = true;
      informers.stop();
      await Promise.all(controllers.map((c) => c.stop()));
      await schedulerEvents.stop();
    },
  };
}
