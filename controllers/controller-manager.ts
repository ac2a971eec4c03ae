/**
 * The controller manager of the controllers that run on the client (namespace, service account,
 * ClusterRole aggregation, replica set, replication controller, deployment, disruption): shared informers over every
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
import { CONTROLLER_USERS } from '../authz/rbac/bootstrap-policy.js';
import { replicaSets } from '../api/kinds/apps/replicaset.js';
import { statefulSets } from '../api/kinds/apps/statefulset.js';
import { replicationControllers } from '../api/kinds/core/replication-controller.js';
import { podDisruptionBudgets } from '../api/kinds/policy/poddisruptionbudget.js';
import { clusterRoles } from '../api/kinds/rbac/clusterrole.js';
import { deployments, namespaces, pods, serviceAccounts, tenants } from '../src/client/builtin-kinds.js';
import type { KubeClient } from '../src/client/kube-client.js';
import { deploymentController } from './deployment/deployment-controller.js';
import { disruptionController } from './disruption/disruption-controller.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { replicaSetController } from './replicaset/replica-set-controller.js';
import { REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND } from './replicaset/replica-set-kinds.js';
import { clusterRoleAggregationController } from './rbac/cluster-role-aggregation.js';
import { clientSources } from './runtime/client-source.js';
import type { Controller } from './runtime/controller.js';
import type { EventRecorder } from './runtime/event-recorder.js';
import { InformerFactory } from './runtime/informer-factory.js';
import { serviceAccountController } from './service-account/service-account-controller.js';

export interface ControllerManagerOptions {
  /** Acts as CONTROLLER_MANAGER_USER: reads for the shared informers. */
  informerClient: KubeClient;
  /** A client acting as one of CONTROLLER_USERS. */
  clientFor(user: string): KubeClient;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** The recorder a controller's events go through, writing as that controller's client; default: events are dropped. */
  eventRecorderFor?(client: KubeClient, user: string): EventRecorder;
}

/** Until a recorder is given, events are dropped: recording never blocks nor fails a controller. */
const DROPPED_EVENTS: EventRecorder = { record: () => undefined };

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
  const podInformer = informers.informerFor(pods);
  const replicaSetInformer = informers.informerFor(replicaSets);
  const replicationControllerInformer = informers.informerFor(replicationControllers);
  const deploymentInformer = informers.informerFor(deployments);
  const statefulSetInformer = informers.informerFor(statefulSets);
  const budgetInformer = informers.informerFor(podDisruptionBudgets);
  /** A controller's client and event recorder, both acting as its user. */
  const actingAs = (user: string) => {
    const client = options.clientFor(user);
    return { client, events: options.eventRecorderFor?.(client, user) ?? DROPPED_EVENTS };
  };
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
    replicaSetController({ ...actingAs(CONTROLLER_USERS.replicaSet), kind: REPLICA_SET_KIND, owners: replicaSetInformer, pods: podInformer, log }),
    replicaSetController({ ...actingAs(CONTROLLER_USERS.replicationController), kind: REPLICATION_CONTROLLER_KIND, owners: replicationControllerInformer, pods: podInformer, log }),
    deploymentController({ ...actingAs(CONTROLLER_USERS.deployment), deployments: deploymentInformer, replicaSets: replicaSetInformer, pods: podInformer, log }),
    disruptionController({
      ...actingAs(CONTROLLER_USERS.disruption),
      budgets: budgetInformer,
      pods: podInformer,
      scalers: { replicaSets: replicaSetInformer, deployments: deploymentInformer, replicationControllers: replicationControllerInformer, statefulSets: statefulSetInformer },
      log,
    }),
  ];
  informers.start();
  let stopped = false;
  // Workers start once every cache has its first listing (client-go's WaitForCacheSync): before,
  // a tenant or an account not yet listed would look absent, and a reconcile would act on that.
  const everyInformer = [
    tenantInformer,
    namespaceInformer,
    serviceAccountInformer,
    clusterRoleInformer,
    podInformer,
    replicaSetInformer,
    replicationControllerInformer,
    deploymentInformer,
    statefulSetInformer,
    budgetInformer,
  ];
  const synced = Promise.all(everyInformer.map((i) => i.waitForSync())).then(() => {
    if (stopped) return;
    for (const controller of controllers) controller.start();
    log.info({ controllers: Object.values(CONTROLLER_USERS) }, 'controller manager started');
  });
  return {
    synced,
    async stop() {
      stopped = true;
      informers.stop();
      await Promise.all(controllers.map((c) => c.stop()));
    },
  };
}
