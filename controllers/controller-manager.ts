/**
 * The controller manager of the controllers that run on the client (namespace, service account,
 * ClusterRole aggregation, garbage collector): shared informers over every
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
import { namespaces, serviceAccounts, tenants } from '../src/client/builtin-kinds.js';
import type { KubeClient } from '../src/client/kube-client.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { clusterRoleAggregationController } from './rbac/cluster-role-aggregation.js';
import { clientSources } from './runtime/client-source.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
import type { Controller } from './runtime/controller.js';
import { InformerFactory } from './runtime/informer-factory.js';
import { serviceAccountController } from './service-account/service-account-controller.js';

export interface ControllerManagerOptions {
  /** Acts as CONTROLLER_MANAGER_USER: reads for the shared informers. */
  informerClient: KubeClient;
  /** A client acting as one of CONTROLLER_USERS. */
  clientFor(user: string): KubeClient;
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
  const controllers: Controller[] = [
    namespaceController({ client: options.clientFor(CONTROLLER_USERS.namespace), namespaces: namespaceInformer, log }),
    serviceAccountController({
      client: options.clientFor(CONTROLLER_USERS.serviceAccount),
      tenants: tenantInformer,
      namespaces: namespaceInformer,
      serviceAccounts: serviceAccountInformer,
      log,
    }),
    clusterRoleAggregationController({ client: options.clientFor(CONTROLLER_USERS.clusterRoleAggregation), clusterRoles: clusterRoleInformer, log }),
  ];
  const garbageCollector = new GarbageCollector({ client: options.clientFor(CONTROLLER_USERS.garbageCollector), log });
  informers.start();
  garbageCollector.start();
  let stopped = false;
  // Workers start once every cache has its first listing (client-go's WaitForCacheSync): before,
  // a tenant or an account not yet listed would look absent, and a reconcile would act on that.
  const synced = Promise.all([tenantInformer, namespaceInformer, serviceAccountInformer, clusterRoleInformer].map((i) => i.waitForSync())).then(() => {
    if (stopped) return;
    for (const controller of controllers) controller.start();
    log.info({ controllers: Object.values(CONTROLLER_USERS) }, 'controller manager started');
  });
  return {
    synced,
    async stop() {
      stopped = true;
      informers.stop();
      await Promise.all([...controllers.map((c) => c.stop()), garbageCollector.stop()]);
    },
  };
}
