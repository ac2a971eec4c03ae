/**
 * The default RBAC policy: Kubernetes' bootstrap cluster roles (`cluster-admin`, the aggregated
 * `admin`/`edit`/`view` and what they aggregate, discovery, basic user, public info) and the
 * bindings that give them to `system:masters`, authenticated and unauthenticated callers.
 * These objects are written into the system space at start and shared, read-only, with every
 * space, so a new space costs a few objects, not hundreds (DESIGN.md section 5).
 *
 * The rules follow upstream's `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`,
 * including resources this server does not serve yet: they name API facts, and granting a
 * resource nobody serves is harmless.
 *
 * @example
 *   const view = bootstrapClusterRoles().find((r) => r.metadata.name === 'view')!;
 *   view.aggregationRule // { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] }
 */
import type { ClusterRole } from '../../api/kinds/rbac/clusterrole.js';
import type { ClusterRoleBinding } from '../../api/kinds/rbac/clusterrolebinding.js';
import type { PolicyRule } from '../../api/kinds/rbac/rules.js';
import type { KubeObject } from '../../api/registry/object.js';
import { RBAC_GROUP } from '../../api/schema/rbac-types.js';
import { AUTHENTICATED_GROUP } from '../user.js';

/** Marks the objects of the default policy; its value is BOOTSTRAP_LABEL_VALUE. */
export const BOOTSTRAP_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAP_LABEL_VALUE = 'rbac-defaults';
/** "true" lets the server restore the defaults at start; an admin sets "false" to keep an edit. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

const API_VERSION = `${RBAC_GROUP}/v1`;
const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view'): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const MASTERS_GROUP = 'system:masters';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';

// Verb sets, as upstream names them.
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];

// API groups.
const CORE = '';
const APPS = 'apps';
const AUTHENTICATION = 'authentication.k8s.io';
const AUTHORIZATION = 'authorization.k8s.io';
const AUTOSCALING = 'autoscaling';
const BATCH = 'batch';
const CERTIFICATES = 'certificates.k8s.io';
const COORDINATION = 'coordination.k8s.io';
const DISCOVERY = 'discovery.k8s.io';
const EVENTS = 'events.k8s.io';
const EXTENSIONS = 'extensions';
const NETWORKING = 'networking.k8s.io';
const POLICY = 'policy';
const STORAGE = 'storage.k8s.io';

/** A resource rule: `verbs` on `resources` of `groups`. Arrays are copied, so callers may mutate. */
function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[]): PolicyRule {
  return { apiGroups: [...groups], resources: [...resources], verbs: [...verbs] };
}

/** A non-resource rule: `verbs` on URL paths (`*` only as the last character). */
function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { nonResourceURLs: [...urls], verbs: [...verbs] };
}

function metadata(name: string, labels: Record<string, string> = {}): KubeObject['metadata'] {
  return { name, labels: { ...labels, [BOOTSTRAP_LABEL]: BOOTSTRAP_LABEL_VALUE }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } };
}

function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole {
  return { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: metadata(name, labels), rules };
}

/**
 * A role whose rules are the union of the roles labeled `aggregate-to-<role>`, kept by the
 * aggregation controller; `rules` starts empty and is not ours to restore.
 */
function aggregatedRole(name: 'admin' | 'edit' | 'view', labels?: Record<string, string>): ClusterRole {
  return {
    ...clusterRole(name, [], labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(name)]: 'true' } }] },
  };
}

function clusterRoleBinding(role: string, groups: string[], users: string[] = []): ClusterRoleBinding {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: metadata(role),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: [...groups.map((name) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name })), ...users.map((name) => ({ apiGroup: RBAC_GROUP, kind: 'User', name }))],
  };
}

/**
 * The controller manager's users (kube-controller-manager's names). Users of the system space, so
 * their ClusterRoleBindings there reach every space. The manager's own user reads for the shared
 * informers, holds the leader Lease, and may act as each controller's user (a manager started with
 * one kubeconfig runs each controller under its own identity by impersonation).
 */
export const CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
export const CONTROLLER_USERS = {
  tenant: 'system:controller:tenant-controller',
  namespace: 'system:controller:namespace-controller',
  serviceAccount: 'system:controller:service-account-controller',
  clusterRoleAggregation: 'system:controller:clusterrole-aggregation-controller',
  rootCaPublisher: 'system:controller:root-ca-cert-publisher',
  resourceQuota: 'system:controller:resourcequota-controller',
  // kube-scheduler is a process of its own in Kubernetes; here it runs in the controller manager,
  // under its own user and kube's role of the same name.
  scheduler: 'system:kube-scheduler',
  endpoint: 'system:controller:endpoint-controller',
  endpointSlice: 'system:controller:endpointslice-controller',
  podGarbageCollector: 'system:controller:pod-garbage-collector',
  replicaSet: 'system:controller:replicaset-controller',
  replicationController: 'system:controller:replication-controller',
  deployment: 'system:controller:deployment-controller',
  disruption: 'system:controller:disruption-controller',
  job: 'system:controller:job-controller',
  cronJob: 'system:controller:cronjob-controller',
  statefulSet: 'system:controller:statefulset-controller',
  daemonSet: 'system:controller:daemon-set-controller',
  ttlAfterFinished: 'system:controller:ttl-after-finished-controller',
  certificate: 'system:controller:certificate-controller',
  garbageCollector: 'system:controller:generic-garbage-collector',
} as const;

/** What every controller that records events may do with them, in both event APIs (upstream's eventsRule). */
function eventsRule(): PolicyRule {
  return rule(['create', 'update', 'patch'], [CORE, EVENTS], ['events']);
}

/** One role per controller, each with what that controller does and nothing more (upstream's controller_policy.go). */
function controllerRoles(): ClusterRole[] {
  return [
    clusterRole(CONTROLLER_MANAGER_USER, [
      // The shared informers: what any controller watches (the garbage collector and quota watch every resource).
      rule(READ, ['*'], ['*']),
      rule(['create', 'get', 'update'], [COORDINATION], ['leases']),
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: Object.values(CONTROLLER_USERS) },
    ]),
    // `escalate` and `bind`: a new space's admin role grants everything within that space.
    clusterRole(CONTROLLER_USERS.tenant, [
      rule(['patch'], [CORE], ['tenants/status']),
      rule(['get'], [CORE], ['tenants', 'services']),
      rule(['update'], [CORE], ['tenants/finalize']),
      rule(['create', 'list', 'delete'], [CORE], ['namespaces']),
      rule(['create', 'escalate', 'bind'], [RBAC_GROUP], ['clusterroles']),
      rule(['create'], [RBAC_GROUP], ['clusterrolebindings']),
      rule(['list', 'deletecollection'], ['*'], ['*']),
    ]),
    clusterRole(CONTROLLER_USERS.namespace, [
      rule(['get', 'list', 'watch', 'delete'], [CORE], ['namespaces']),
      rule(['update'], [CORE], ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
    ]),
    clusterRole(CONTROLLER_USERS.serviceAccount, [rule(['create'], [CORE], ['serviceaccounts']), eventsRule()]),
    // `escalate`: the rules it writes are the aggregated roles', not its own.
    clusterRole(CONTROLLER_USERS.clusterRoleAggregation, [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC_GROUP], ['clusterroles'])]),
    clusterRole(CONTROLLER_USERS.rootCaPublisher, [rule(['create', 'update', 'patch'], [CORE], ['configmaps'])]),
    // Counts any resource a quota names (`count/<resource>.<group>`, custom resources too), writes only quota status.
    clusterRole(CONTROLLER_USERS.resourceQuota, [rule(['list', 'watch'], ['*'], ['*']), rule(['get'], [CORE], ['resourcequotas']), rule(['update'], [CORE], ['resourcequotas/status'])]),
    // Upstream's system:kube-scheduler (policy.go), but for volume and CSI kinds we do not serve.
    clusterRole(CONTROLLER_USERS.scheduler, [
      eventsRule(),
      rule(['create'], [COORDINATION], ['leases']),
      { apiGroups: [COORDINATION], resources: ['leases'], verbs: ['get', 'update'], resourceNames: ['kube-scheduler'] },
      rule(READ, [CORE], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [CORE], ['pods']),
      rule(['create'], [CORE], ['pods/binding', 'bindings']),
      rule(['patch', 'update'], [CORE], ['pods/status']),
      rule(READ, [CORE], ['services', 'replicationcontrollers']),
      rule(READ, [APPS, EXTENSIONS], ['replicasets']),
      rule(READ, [APPS], ['statefulsets']),
      rule(READ, [POLICY], ['poddisruptionbudgets']),
      rule(READ, [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], [AUTHENTICATION], ['tokenreviews']),
      rule(['create'], [AUTHORIZATION], ['subjectaccessreviews']),
      rule(READ, [CORE], ['namespaces']),
      rule(READ, [STORAGE], ['storageclasses']),
    ]),
    // The next three read through the manager's shared informers and only write.
    clusterRole(CONTROLLER_USERS.endpoint, [rule(['create', 'update', 'delete'], [CORE], ['endpoints'])]),
    clusterRole(CONTROLLER_USERS.endpointSlice, [rule(['create', 'update', 'delete'], [DISCOVERY], ['endpointslices'])]),
    clusterRole(CONTROLLER_USERS.podGarbageCollector, [rule(['delete'], [CORE], ['pods']), rule(['get'], [CORE], ['nodes'])]),
    // The workload controllers read through the manager's informers; these are their writes (and the fresh read before adopting).
    clusterRole(CONTROLLER_USERS.replicaSet, [
      rule(['get', 'update'], [APPS], ['replicasets']),
      rule(['update'], [APPS], ['replicasets/status']),
      rule(['create', 'delete', 'update'], [CORE], ['pods']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.replicationController, [
      rule(['get', 'update'], [CORE], ['replicationcontrollers']),
      rule(['update'], [CORE], ['replicationcontrollers/status']),
      rule(['create', 'delete', 'update'], [CORE], ['pods']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.deployment, [
      rule(['get', 'update'], [APPS], ['deployments']),
      rule(['update'], [APPS], ['deployments/status']),
      rule(['create', 'delete', 'get', 'update'], [APPS], ['replicasets']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.disruption, [rule(['update'], [POLICY], ['poddisruptionbudgets/status']), eventsRule()]),
    // The workload controllers, as upstream's controller_policy.go (events through events.k8s.io).
    clusterRole(CONTROLLER_USERS.job, [
      rule(['get', 'list', 'watch', 'update', 'patch'], [BATCH], ['jobs']),
      rule(['update', 'patch'], [BATCH], ['jobs/status']),
      rule(['update'], [BATCH], ['jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.cronJob, [
      rule(['get', 'list', 'watch', 'update'], [BATCH], ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [BATCH], ['jobs']),
      rule(['update'], [BATCH], ['cronjobs/status']),
      rule(['update'], [BATCH], ['cronjobs/finalizers']),
      rule(['list', 'delete'], [CORE], ['pods']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.statefulSet, [
      rule(['list', 'watch'], [CORE], ['pods']),
      rule(['get', 'list', 'watch'], [APPS], ['statefulsets']),
      rule(['update'], [APPS], ['statefulsets/status']),
      rule(['update'], [APPS], ['statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [CORE], ['pods']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [APPS], ['controllerrevisions']),
      rule(['get', 'create', 'update', 'patch'], [CORE], ['persistentvolumeclaims']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.daemonSet, [
      rule(['get', 'list', 'watch'], [APPS, EXTENSIONS], ['daemonsets']),
      rule(['update'], [APPS, EXTENSIONS], ['daemonsets/status']),
      rule(['update'], [APPS, EXTENSIONS], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [CORE], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
      rule(['create'], [CORE], ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [APPS], ['controllerrevisions']),
      eventsRule(),
    ]),
    clusterRole(CONTROLLER_USERS.ttlAfterFinished, [rule(['get', 'list', 'watch', 'delete'], [BATCH], ['jobs']), eventsRule()]),
    // Issues approved requests of the one signer it is (the approval plugin's `sign` check).
    clusterRole(CONTROLLER_USERS.certificate, [
      rule(['get', 'list', 'watch'], [CERTIFICATES], ['certificatesigningrequests']),
      rule(['update'], [CERTIFICATES], ['certificatesigningrequests/status']),
      { apiGroups: [CERTIFICATES], resources: ['signers'], verbs: ['sign'], resourceNames: ['kubernetes.io/kube-apiserver-client'] },
    ]),
    // Watches every collected kind (discovered, custom resources included) and edits or deletes any of them.
    clusterRole(CONTROLLER_USERS.garbageCollector, [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*'])]),
  ];
}

/**
 * The node simulator's user (controllers/node-simulator/): no kubelet (`system:node:<name>` in
 * `system:nodes`) but what it needs to play one for simulated nodes, as upstream's `system:node`
 * role: register and heartbeat nodes, their leases, and the status and deletion of pods. It may
 * act as itself, so `kube-spaces simulate-nodes` runs alike with an admin's kubeconfig or its own.
 */
export const NODE_SIMULATOR_USER = 'system:node-simulator';

function nodeSimulatorRole(): ClusterRole {
  return clusterRole(NODE_SIMULATOR_USER, [
    rule(['create', 'get', 'list', 'watch', 'update', 'patch'], [CORE], ['nodes']),
    rule(['update', 'patch'], [CORE], ['nodes/status']),
    rule(['get', 'list', 'watch', 'delete'], [CORE], ['pods']),
    rule(['update', 'patch'], [CORE], ['pods/status']),
    rule(['create', 'get', 'update'], [COORDINATION], ['leases']),
    { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: [NODE_SIMULATOR_USER] },
  ]);
}

/** Read-only access to what a namespace's users work with; never secrets, nor anything that grants more. */
function viewRules(): PolicyRule[] {
  return [
    rule(READ, [CORE], [
      'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
      'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps',
    ]),
    rule(READ, [CORE], [
      'limitranges', 'resourcequotas', 'bindings', 'events',
      'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log',
    ]),
    // Reading namespaces through a RoleBinding reads only that namespace: a hint of where one has access.
    rule(READ, [CORE], ['namespaces']),
    rule(READ, [DISCOVERY], ['endpointslices']),
    rule(READ, [APPS], [
      'controllerrevisions',
      'statefulsets', 'statefulsets/status', 'statefulsets/scale',
      'daemonsets', 'daemonsets/status',
      'deployments', 'deployments/status', 'deployments/scale',
      'replicasets', 'replicasets/status', 'replicasets/scale',
    ]),
    rule(READ, [AUTOSCALING], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(READ, [BATCH], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    rule(READ, [EXTENSIONS], [
      'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
      'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale',
      'networkpolicies',
    ]),
    rule(READ, [POLICY], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(READ, [NETWORKING], ['networkpolicies', 'ingresses', 'ingresses/status']),
  ];
}

/**
 * Everything a namespace's users do, on top of view: workloads, secrets and service accounts
 * (whose tokens a pod can use anyway, hence impersonation too), but no roles or bindings, no
 * quotas or limits, no `/status`: those belong to admins and the system.
 */
function editRules(): PolicyRule[] {
  return [
    // Reads that reveal or reach more than view allows.
    rule(READ, [CORE], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    rule(['impersonate'], [CORE], ['serviceaccounts']),
    rule(WRITE, [CORE], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    rule(['create'], [CORE], ['pods/eviction']),
    // Endpoints are deliberately absent: writing them can point a Service anywhere (CVE-2021-25740).
    rule(WRITE, [CORE], [
      'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
      'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events',
    ]),
    rule(['create'], [CORE], ['serviceaccounts/token']),
    rule(WRITE, [APPS], [
      'statefulsets', 'statefulsets/scale',
      'daemonsets',
      'deployments', 'deployments/scale', 'deployments/rollback',
      'replicasets', 'replicasets/scale',
    ]),
    rule(WRITE, [AUTOSCALING], ['horizontalpodautoscalers']),
    rule(WRITE, [BATCH], ['jobs', 'cronjobs']),
    rule(WRITE, [EXTENSIONS], [
      'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses',
      'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies',
    ]),
    rule(WRITE, [POLICY], ['poddisruptionbudgets']),
    rule(WRITE, [NETWORKING], ['networkpolicies', 'ingresses']),
    rule(READ_WRITE, [COORDINATION], ['leases']),
  ];
}

/** What makes an admin: granting access inside the namespace, and asking who may do what there. */
function adminRules(): PolicyRule[] {
  return [
    rule(['create'], [AUTHORIZATION], ['localsubjectaccessreviews']),
    rule(READ_WRITE, [RBAC_GROUP], ['roles', 'rolebindings']),
  ];
}

const HEALTH_URLS = ['/livez', '/readyz', '/healthz', '/version', '/version/'];
/** The group (and the role bound to it) that may scrape `/metrics`, as in kube-apiserver. */
export const MONITORING_GROUP = 'system:monitoring';

/**
 * The default cluster roles, new objects on every call.
 *
 * @example
 *   bootstrapClusterRoles().map((r) => r.metadata.name) // ['cluster-admin', 'admin', 'edit', 'view', …]
 */
export function bootstrapClusterRoles(): KubeObject[] {
  return [
    // Everything, everywhere in the space.
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
    // admin ⊇ edit ⊇ view: edit is aggregated into admin and view into edit, by their labels.
    aggregatedRole('admin'),
    aggregatedRole('edit', { [AGGREGATE_TO('admin')]: 'true' }),
    aggregatedRole('view', { [AGGREGATE_TO('edit')]: 'true' }),
    clusterRole('system:aggregate-to-admin', adminRules(), { [AGGREGATE_TO('admin')]: 'true' }),
    clusterRole('system:aggregate-to-edit', editRules(), { [AGGREGATE_TO('edit')]: 'true' }),
    clusterRole('system:aggregate-to-view', viewRules(), { [AGGREGATE_TO('view')]: 'true' }),
    // Enough to tell whether the server is up and which APIs it serves.
    clusterRole('system:discovery', [urlRule(['get'], [...HEALTH_URLS, '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
    // Enough for anyone to learn who they are and what they may do (`kubectl auth whoami`, `can-i`).
    clusterRole('system:basic-user', [
      rule(['create'], [AUTHORIZATION], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [AUTHENTICATION], ['selfsubjectreviews']),
    ]),
    // What is safe to show even to callers without credentials.
    clusterRole('system:public-info-viewer', [urlRule(['get'], HEALTH_URLS)]),
    // What a monitoring system scrapes (kube-apiserver's role of the same name); `/metrics` is
    // server-wide, so it answers only users of the system space whatever their space's RBAC says.
    clusterRole(MONITORING_GROUP, [urlRule(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    // For servers that delegate to this one (webhooks, aggregated APIs): ask whose a token is, and what someone may do.
    clusterRole('system:auth-delegator', [rule(['create'], [AUTHENTICATION], ['tokenreviews']), rule(['create'], [AUTHORIZATION], ['subjectaccessreviews'])]),
    ...controllerRoles(),
    nodeSimulatorRole(),
  ];
}

/**
 * The default cluster role bindings, new objects on every call.
 *
 * @example
 *   bootstrapClusterRoleBindings()[0].subjects // [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]
 */
export function bootstrapClusterRoleBindings(): KubeObject[] {
  return [
    clusterRoleBinding('cluster-admin', [MASTERS_GROUP]),
    clusterRoleBinding('system:discovery', [AUTHENTICATED_GROUP]),
    clusterRoleBinding('system:basic-user', [AUTHENTICATED_GROUP]),
    clusterRoleBinding('system:public-info-viewer', [AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP]),
    clusterRoleBinding(MONITORING_GROUP, [MONITORING_GROUP]),
    ...[...controllerRoles(), nodeSimulatorRole()].map((role) => clusterRoleBinding(role.metadata.name!, [], [role.metadata.name!])),
  ];
}
