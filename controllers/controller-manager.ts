/**
 * The controller manager of the controllers that run on the client (tenant, namespace, service account,
 * ClusterRole aggregation, root CA publisher, garbage collector): shared informers over every
 * space, read with the manager's own identity, and each controller writing under its own
 * (`system:controller:<name>`, with the least-privilege role bootstrap-policy.ts gives it). The same
 * code runs inside `serve` (in-process transport) and in `kube-spaces controllers` (HTTPS); leader
 * election is the caller's (leader-election.ts). The garbage collector keeps informers of its own,
 * read as its own user: it watches every kind discovery lists, which the manager's user may not read.
 *
 * @example
 *   const manager = startControllerManager({ informerClient, clientFor: (identity) => clientAs(identity), log });
 *   await manager.synced;
 *   await manager.stop();
 */
import { CONTROLLER_USERS } from '../authz/rbac/bootstrap-policy.js';
import { clusterRoles } from '../api/kinds/rbac/clusterrole.js';
import { configMaps, namespaces, pods, secrets, serviceAccounts, services, tenants } from '../src/client/builtin-kinds.js';
import { persistentVolumeClaims } from '../api/kinds/core/persistent-volume-claim.js';
import { replicationControllers } from '../api/kinds/core/replication-controller.js';
import { resourceQuotas } from '../api/kinds/core/resource-quota.js';
import { resourceQuotaController } from './resource-quota/resource-quota-controller.js';
import type { KubeClient } from '../src/client/kube-client.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { clusterRoleAggregationController } from './rbac/cluster-role-aggregation.js';
import { ROOT_CA_FIELD_SELECTOR, rootCaPublisher } from './root-ca-publisher/root-ca-publisher.js';
import { clientSources } from './runtime/client-source.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
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
  /** Runs the garbage collector (default), as kube-controller-manager's `--enable-garbage-collector`. */
  enableGarbageCollector?: boolean;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
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
  const quotaInformer = informers.informerFor(resourceQuotas);
  // What quotas count and release at once when deleted; other kinds are recounted on the resync.
  const counted = [pods, services, persistentVolumeClaims, configMaps, secrets, replicationControllers, resourceQuotas].map((def) => ({
    group: def.group,
    resource: def.resource,
    informer: def === resourceQuotas ? quotaInformer : informers.informerFor(def),
  }));
  const controllers: Controller[] = [
    tenantController({ client: options.clientFor(CONTROLLER_USERS.tenant), tenants: tenantInformer, log }),
    namespaceController({ client: options.clientFor(CONTROLLER_USERS.namespace), namespaces: namespaceInformer, log }),
    serviceAccountController({
      client: options.clientFor(CONTROLLER_USERS.serviceAccount),
      tenants: tenantInformer,
      namespaces: namespaceInformer,
      serviceAccounts: serviceAccountInformer,
      log,
    }),
    clusterRoleAggregationController({ client: options.clientFor(CONTROLLER_USERS.clusterRoleAggregation), clusterRoles: clusterRoleInformer, log }),
    resourceQuotaController({ client: options.clientFor(CONTROLLER_USERS.resourceQuota), quotas: quotaInformer, counted, log }),
  ];
  const synced = [tenantInformer, namespaceInformer, serviceAccountInformer, clusterRoleInformer];
  if (options.rootCaBundle !== undefined) {
    const rootCaConfigMaps = informers.informerFor(configMaps, undefined, { fieldSelector: ROOT_CA_FIELD_SELECTOR });
    synced.push(rootCaConfigMaps);
    controllers.push(
      rootCaPublisher({ client: options.clientFor(CONTROLLER_USERS.rootCaPublisher), caBundle: options.rootCaBundle, tenants: tenantInformer, namespaces: namespaceInformer, rootCaConfigMaps, log }),
    );
  }
  // kube-controller-manager's --enable-garbage-collector: on unless turned off.
  const garbageCollector = options.enableGarbageCollector === false ? undefined : new GarbageCollector({ client: options.clientFor(CONTROLLER_USERS.garbageCollector), log });
  informers.start();
  garbageCollector?.start();
  let stopped = false;
  // Workers start once every cache has its first listing (client-go's WaitForCacheSync): before,
  // a tenant or an account not yet listed would look absent, and a reconcile would act on that.
  const allSynced = Promise.all([...synced, ...counted.map((c) => c.informer)].map((i) => i.waitForSync())).then(() => {
    if (stopped) return;
    for (const controller of controllers) controller.start();
    log.info({ controllers: Object.values(CONTROLLER_USERS) }, 'controller manager started');
  });
  return {
    synced: allSynced,
    async stop() {
      stopped = true;
      informers.stop();
      await Promise.all([...controllers.map((c) => c.stop()), garbageCollector?.stop()]);
    },
  };
}
