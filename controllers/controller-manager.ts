/**
 * The controller manager of the controllers that run on the client (tenant, namespace, service
 * account, ClusterRole aggregation, root CA publisher, resource quota, endpoints, endpoint slices,
 * pod garbage collection, replica set, replication controller, deployment, disruption, job,
 * cronjob, statefulset, daemon set, ttl-after-finished, CSR signing, the scheduler, the garbage collector):
 * shared informers over every space, read with the manager's own identity, and each controller
 * writing under its own (`system:controller:<name>`, with the least-privilege role
 * bootstrap-policy.ts gives it) and recording its events as itself. The same code runs inside
 * `serve` (in-process transport) and in `kube-spaces controllers` (HTTPS); leader election is the
 * caller's (leader-election.ts). The garbage collector keeps informers of its own, read as its own
 * user: it watches every kind discovery lists, per space for a space's own CRDs.
 *
 * @example
 *   const manager = startControllerManager({ informerClient, clientFor: (identity) => clientAs(identity), rootCaBundle, log });
 *   await manager.synced;
 *   await manager.stop();
 */
import { hostname } from 'node:os';
import { CONTROLLER_USERS } from '../authz/rbac/bootstrap-policy.js';
import { controllerRevisions } from '../api/kinds/apps/controllerrevision.js';
import { daemonSets } from '../api/kinds/apps/daemonset.js';
import { replicaSets } from '../api/kinds/apps/replicaset.js';
import { cronJobs } from '../api/kinds/batch/cronjob.js';
import { jobs } from '../api/kinds/batch/job.js';
import { statefulSets } from '../api/kinds/apps/statefulset.js';
import { persistentVolumeClaims } from '../api/kinds/core/persistent-volume-claim.js';
import { replicationControllers } from '../api/kinds/core/replication-controller.js';
import { resourceQuotas } from '../api/kinds/core/resource-quota.js';
import { podDisruptionBudgets } from '../api/kinds/policy/poddisruptionbudget.js';
import { clusterRoles } from '../api/kinds/rbac/clusterrole.js';
import { configMaps, deployments, endpoints, endpointSlices, namespaces, nodes, pods, secrets, serviceAccounts, services, tenants } from '../src/client/builtin-kinds.js';
import type { KubeClient } from '../src/client/kube-client.js';
import { certificateSigningRequests } from '../api/kinds/certificates/certificate-signing-request.js';
import { csrSigningController, type ClientCertificateSigner, type IssuedCertificate } from './certificates/csr-signing-controller.js';
import { cronJobController } from './cronjob/cronjob-controller.js';
import { daemonSetController } from './daemonset/daemonset-controller.js';
import { deploymentController } from './deployment/deployment-controller.js';
import { disruptionController } from './disruption/disruption-controller.js';
import { endpointsController } from './endpoints/endpoints-controller.js';
import { endpointSliceController } from './endpointslice/endpointslice-controller.js';
import { jobController } from './job/job-controller.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { DEFAULT_TERMINATED_POD_GC_THRESHOLD, ORPHAN_QUARANTINE_MS, podGcController } from './pod-gc/pod-gc-controller.js';
import { clusterRoleAggregationController } from './rbac/cluster-role-aggregation.js';
import { replicaSetController } from './replicaset/replica-set-controller.js';
import { REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND } from './replicaset/replica-set-kinds.js';
import { resourceQuotaController } from './resource-quota/resource-quota-controller.js';
import { ROOT_CA_FIELD_SELECTOR, rootCaPublisher } from './root-ca-publisher/root-ca-publisher.js';
import { ClientEventRecorder } from './runtime/client-event-recorder.js';
import type { Clock } from './runtime/clock.js';
import { clientSources } from './runtime/client-source.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
import type { Controller } from './runtime/controller.js';
import type { EventRecorder } from './runtime/event-recorder.js';
import { InformerFactory } from './runtime/informer-factory.js';
import { DEFAULT_SCHEDULER_NAME, Scheduler } from './scheduler/scheduler.js';
import { serviceAccountController } from './service-account/service-account-controller.js';
import { statefulSetController } from './statefulset/statefulset-controller.js';
import { tenantController } from './tenant/tenant-controller.js';
import { ttlAfterFinishedController } from './ttl-after-finished/ttl-after-finished-controller.js';
import { withoutManagedFields } from './runtime/object-transforms.js';

/** The Lease the controller managers elect their leader on, kube-controller-manager's name, in the system space's LEADER_ELECTION_NAMESPACE. */
export const CONTROLLER_MANAGER_LEASE = 'kube-controller-manager';
export const LEADER_ELECTION_NAMESPACE = 'kube-system';

export interface ControllerManagerOptions {
  /** Acts as CONTROLLER_MANAGER_USER: reads for the shared informers. */
  informerClient: KubeClient;
  /** A client acting as one of CONTROLLER_USERS. */
  clientFor(user: string): KubeClient;
  /** PEM of the CA that signs the server's certificate, published as `kube-root-ca.crt` in every namespace (none: not published, as kube-controller-manager without a root CA). */
  rootCaBundle: string | undefined;
  /**
   * Signs approved CertificateSigningRequests of `kubernetes.io/kube-apiserver-client` with the
   * client CA (kube-controller-manager's --cluster-signing-cert-file; none: such requests wait, unsigned).
   */
  signClientCertificate?: ClientCertificateSigner | undefined;
  /** Told of every certificate the CSR signer issues (the data directory's issued-credentials log). */
  recordIssued?(issued: IssuedCertificate): Promise<void>;
  /** Terminated pods a space keeps before the pod garbage collector deletes the oldest (default 12,500). */
  terminatedPodGcThreshold?: number | undefined;
  /** The recorder a controller's events go through (tests); default: events.k8s.io Events written as the controller. */
  eventRecorderFor?(user: string, client: KubeClient): EventRecorder;
  /** The time the time-driven controllers (cronjob, TTL, job deadlines) read (tests); default: the system clock. */
  clock?: Clock;
  /** The first delay before a failed Job pod is replaced (doubling up to kube's MaxJobPodFailureBackOff, 10 minutes; default 10 s, tests shorten it). */
  jobBackoffBaseMs?: number;
  /** Runs the garbage collector (default), as kube-controller-manager's `--enable-garbage-collector`. */
  enableGarbageCollector?: boolean;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface ControllerManager {
  /** Resolves once every shared informer has its first listing. */
  synced: Promise<void>;
  stop(): Promise<void>;
}

/** The `reportingController` of a controller's events: kube's name for it. */
function reportingController(user: string): string {
  return user === CONTROLLER_USERS.scheduler ? DEFAULT_SCHEDULER_NAME : user.replace(/^system:controller:/, '');
}

export function startControllerManager(options: ControllerManagerOptions): ControllerManager {
  const { log } = options;
  const informers = new InformerFactory(clientSources(options.informerClient, withoutManagedFields), (err, informer) => log.error({ err, informer }, 'informer error'));
  const recorders: ClientEventRecorder[] = [];
  /** A controller's client and event recorder, both acting as its user. */
  const actingAs = (user: string): { client: KubeClient; events: EventRecorder } => {
    const client = options.clientFor(user);
    if (options.eventRecorderFor) return { client, events: options.eventRecorderFor(user, client) };
    // kube's events recorder names its instance after the controller and the host.
    const controller = reportingController(user);
    const recorder = new ClientEventRecorder({ client, reportingController: controller, reportingInstance: `${controller}-${hostname()}`, log });
    recorders.push(recorder);
    return { client, events: recorder };
  };

  const tenantInformer = informers.informerFor(tenants);
  const namespaceInformer = informers.informerFor(namespaces);
  const podInformer = informers.informerFor(pods);
  const nodeInformer = informers.informerFor(nodes);
  const serviceInformer = informers.informerFor(services);
  const replicaSetInformer = informers.informerFor(replicaSets);
  const replicationControllerInformer = informers.informerFor(replicationControllers);
  const deploymentInformer = informers.informerFor(deployments);
  const statefulSetInformer = informers.informerFor(statefulSets);
  const jobInformer = informers.informerFor(jobs);
  const revisionInformer = informers.informerFor(controllerRevisions);
  const { clock } = options;
  const quotaInformer = informers.informerFor(resourceQuotas);
  // What quotas count and release at once when deleted; other kinds are recounted on the resync.
  const counted = [pods, services, persistentVolumeClaims, configMaps, secrets, replicationControllers, resourceQuotas].map((def) => ({
    group: def.group,
    resource: def.resource,
    informer: informers.informerFor(def),
  }));
  const scheduler = actingAs(CONTROLLER_USERS.scheduler);

  const controllers: Array<Controller | Scheduler> = [
    tenantController({ client: options.clientFor(CONTROLLER_USERS.tenant), tenants: tenantInformer, namespaces: namespaceInformer, services: serviceInformer, log }),
    namespaceController({ client: options.clientFor(CONTROLLER_USERS.namespace), namespaces: namespaceInformer, tenants: tenantInformer, log }),
    serviceAccountController({
      client: options.clientFor(CONTROLLER_USERS.serviceAccount),
      tenants: tenantInformer,
      namespaces: namespaceInformer,
      serviceAccounts: informers.informerFor(serviceAccounts),
      log,
    }),
    clusterRoleAggregationController({ client: options.clientFor(CONTROLLER_USERS.clusterRoleAggregation), clusterRoles: informers.informerFor(clusterRoles), log }),
    resourceQuotaController({ client: options.clientFor(CONTROLLER_USERS.resourceQuota), quotas: quotaInformer, counted, log }),
    new Scheduler({ client: scheduler.client, pods: podInformer, nodes: nodeInformer, recorder: scheduler.events, log }),
    endpointsController({ client: options.clientFor(CONTROLLER_USERS.endpoint), services: serviceInformer, pods: podInformer, endpoints: informers.informerFor(endpoints), log }),
    endpointSliceController({ client: options.clientFor(CONTROLLER_USERS.endpointSlice), services: serviceInformer, pods: podInformer, endpointSlices: informers.informerFor(endpointSlices), log }),
    podGcController({
      client: options.clientFor(CONTROLLER_USERS.podGarbageCollector),
      pods: podInformer,
      nodes: nodeInformer,
      terminatedPodThreshold: options.terminatedPodGcThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD,
      orphanQuarantineMs: ORPHAN_QUARANTINE_MS,
      log,
    }),
    replicaSetController({ ...actingAs(CONTROLLER_USERS.replicaSet), kind: REPLICA_SET_KIND, owners: replicaSetInformer, pods: podInformer, log }),
    replicaSetController({ ...actingAs(CONTROLLER_USERS.replicationController), kind: REPLICATION_CONTROLLER_KIND, owners: replicationControllerInformer, pods: podInformer, log }),
    deploymentController({ ...actingAs(CONTROLLER_USERS.deployment), deployments: deploymentInformer, replicaSets: replicaSetInformer, pods: podInformer, log }),
    disruptionController({
      ...actingAs(CONTROLLER_USERS.disruption),
      budgets: informers.informerFor(podDisruptionBudgets),
      pods: podInformer,
      scalers: { replicaSets: replicaSetInformer, deployments: deploymentInformer, replicationControllers: replicationControllerInformer, statefulSets: statefulSetInformer },
      log,
    }),
    jobController({ ...actingAs(CONTROLLER_USERS.job), jobs: jobInformer, pods: podInformer, log, clock, backoffBaseMs: options.jobBackoffBaseMs }),
    cronJobController({ ...actingAs(CONTROLLER_USERS.cronJob), cronJobs: informers.informerFor(cronJobs), jobs: jobInformer, log, clock }),
    ttlAfterFinishedController({ client: options.clientFor(CONTROLLER_USERS.ttlAfterFinished), jobs: jobInformer, log, clock }),
    statefulSetController({ ...actingAs(CONTROLLER_USERS.statefulSet), statefulSets: statefulSetInformer, pods: podInformer, controllerRevisions: revisionInformer, log, clock }),
    daemonSetController({
      ...actingAs(CONTROLLER_USERS.daemonSet),
      daemonSets: informers.informerFor(daemonSets),
      pods: podInformer,
      nodes: nodeInformer,
      controllerRevisions: revisionInformer,
      log,
      clock,
    }),
  ];
  if (options.rootCaBundle !== undefined) {
    const rootCaConfigMaps = informers.informerFor(configMaps, undefined, { fieldSelector: ROOT_CA_FIELD_SELECTOR });
    controllers.push(
      rootCaPublisher({ client: options.clientFor(CONTROLLER_USERS.rootCaPublisher), caBundle: options.rootCaBundle, tenants: tenantInformer, namespaces: namespaceInformer, rootCaConfigMaps, log }),
    );
  }
  if (options.signClientCertificate !== undefined) {
    controllers.push(
      csrSigningController({
        client: options.clientFor(CONTROLLER_USERS.certificate),
        requests: informers.informerFor(certificateSigningRequests),
        tenants: tenantInformer,
        sign: options.signClientCertificate,
        recordIssued: options.recordIssued,
        log,
        clock,
      }),
    );
  }
  // kube-controller-manager's --enable-garbage-collector: on unless turned off.
  const garbageCollector = options.enableGarbageCollector === false ? undefined : new GarbageCollector({ client: options.clientFor(CONTROLLER_USERS.garbageCollector), log });
  informers.start();
  garbageCollector?.start();
  let stopped = false;
  // Workers start once every cache has its first listing (client-go's WaitForCacheSync): before,
  // a tenant or an account not yet listed would look absent, and a reconcile would act on that.
  const synced = informers.waitForSync().then(() => {
    if (stopped) return;
    for (const controller of controllers) controller.start();
    log.info({ controllers: Object.values(CONTROLLER_USERS) }, 'controller manager started');
  });
  return {
    synced,
    async stop() {
      stopped = true;
      informers.stop();
      await Promise.all([...controllers.map((c) => c.stop()), garbageCollector?.stop()]);
      await Promise.all(recorders.map((r) => r.stop()));
    },
  };
}
