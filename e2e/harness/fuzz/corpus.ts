/**
 * What the fuzz generator starts from: the served resources (and a few that are not), small valid
 * manifests of each, and the pools of names, spaces and namespaces requests use. Names come from
 * small pools so creates, reads, patches and deletes meet the same objects.
 */
import type { Prng } from './prng.js';

export type Obj = Record<string, unknown>;

export interface Resource {
  /** '' for core. */
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** The resource's own subresources besides `status`. */
  subresources?: string[];
  /** The manifest's fields besides apiVersion, kind and metadata. */
  body?: (r: Prng) => Obj;
}

const labels = (r: Prng): Record<string, string> => ({ app: r.pick(['web', 'db', 'x']), tier: r.pick(['a', 'b']) });
const container = (r: Prng): Obj => ({ name: r.pick(['main', 'side']), image: r.pick(['nginx:1.27', 'busybox', 'x']), ports: [{ containerPort: r.pick([80, 8080, 0, 70000]) }], resources: { limits: { cpu: r.pick(['100m', '1', '1.5', 'abc']), memory: r.pick(['64Mi', '1Gi', '1e3']) } } });
const podSpec = (r: Prng): Obj => ({ containers: [container(r)], restartPolicy: r.pick(['Always', 'Never', 'OnFailure']) });
const template = (r: Prng, l: Record<string, string>): Obj => ({ metadata: { labels: l }, spec: podSpec(r) });
const rules = (r: Prng): Obj[] => [{ apiGroups: [r.pick(['', 'apps', '*'])], resources: [r.pick(['pods', 'configmaps', '*'])], verbs: [r.pick(['get', 'list', '*'])] }];
const roleRef = (r: Prng, kind: string): Obj => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: r.pick(['view', 'edit', 'fuzz-role']) });
const subjects = (r: Prng): Obj[] => [{ kind: r.pick(['User', 'Group', 'ServiceAccount']), name: r.pick(['fuzzer', 'system:authenticated', 'default']), ...(r.chance(0.5) ? { apiGroup: 'rbac.authorization.k8s.io' } : { namespace: 'fuzz' }) }];
const access = (r: Prng): Obj => ({ resourceAttributes: { verb: r.pick(['get', 'list', 'create']), resource: r.pick(['pods', 'configmaps']), namespace: r.pick(['fuzz', '']) } });

export const RESOURCES: Resource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, body: (r) => ({ data: { a: r.pick(['1', '', 'x'.repeat(100)]), 'b.c': 'd' } }) },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, body: (r) => ({ type: r.pick(['Opaque', 'kubernetes.io/tls', 'kubernetes.io/service-account-token']), data: { k: r.pick(['YQ==', 'not base64!', '']) }, stringData: { s: 'v' } }) },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, subresources: ['log', 'exec', 'binding', 'eviction', 'ephemeralcontainers'], body: (r) => ({ spec: podSpec(r) }) },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, subresources: ['proxy'], body: (r) => ({ spec: { type: r.pick(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']), selector: labels(r), ports: [{ port: r.pick([80, 0, 65536]), targetPort: r.pick([8080, 'http', -1]), protocol: r.pick(['TCP', 'UDP', 'XYZ']) }], ...(r.chance(0.3) ? { clusterIP: r.pick(['None', '10.96.0.10', '1.2.3.4', 'garbage']) } : {}) } }) },
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, subresources: ['finalize'], body: () => ({ spec: { finalizers: ['kubernetes'] } }) },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, subresources: ['token'], body: () => ({ automountServiceAccountToken: false }) },
  { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, body: (r) => ({ involvedObject: { kind: 'Pod', name: 'p', namespace: 'fuzz' }, reason: 'Fuzz', message: 'm', type: r.pick(['Normal', 'Warning', 'Odd']), count: r.pick([1, -1]) }) },
  { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', namespaced: true, body: () => ({ subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }) },
  { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', namespaced: true, body: () => ({ spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '3' } }] } }) },
  { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, body: () => ({ spec: { hard: { pods: '10', 'requests.cpu': '1' } } }) },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, body: (r) => ({ spec: { accessModes: [r.pick(['ReadWriteOnce', 'Bogus'])], resources: { requests: { storage: r.pick(['1Gi', '-1']) } } } }) },
  { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, body: () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } } }) },
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', namespaced: true, subresources: ['scale'], body: (r) => ({ spec: { replicas: r.pick([1, -1]), selector: { app: 'web' }, template: template(r, { app: 'web' }) } }) },
  { group: '', version: 'v1', resource: 'podtemplates', kind: 'PodTemplate', namespaced: true, body: (r) => ({ template: template(r, labels(r)) }) },
  { group: '', version: 'v1', resource: 'tenants', kind: 'Tenant', namespaced: false },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, subresources: ['scale'], body: (r) => ({ spec: { replicas: r.pick([0, 2, -3]), selector: { matchLabels: { app: 'web' } }, template: template(r, { app: r.pick(['web', 'other']) }) } }) },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, subresources: ['scale'], body: (r) => ({ spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(r, { app: 'web' }) } }) },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true, subresources: ['scale'], body: (r) => ({ spec: { serviceName: 's', replicas: 1, selector: { matchLabels: { app: 'db' } }, template: template(r, { app: 'db' }) } }) },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, body: (r) => ({ spec: { selector: { matchLabels: { app: 'x' } }, template: template(r, { app: 'x' }) } }) },
  { group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true, body: (r) => ({ revision: r.pick([1, 0, -1]), data: { any: 'thing' } }) },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true, body: (r) => ({ spec: { template: { spec: { ...podSpec(r), restartPolicy: 'Never' } }, backoffLimit: r.pick([1, -1]) } }) },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', namespaced: true, body: (r) => ({ spec: { schedule: r.pick(['*/5 * * * *', '@hourly', '61 * * * *', 'garbage', 'TZ=Mars/X 0 0 * * *']), jobTemplate: { spec: { template: { spec: { ...podSpec(r), restartPolicy: 'Never' } } } } } }) },
  { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', namespaced: true, body: (r) => ({ spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: r.pick([1, 0]), maxReplicas: r.pick([3, 0]) } }) },
  { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true, body: (r) => ({ spec: { holderIdentity: 'h', leaseDurationSeconds: r.pick([15, -1]), renewTime: r.pick(['2024-01-01T00:00:00.000000Z', 'not a time']) } }) },
  { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, body: (r) => ({ addressType: r.pick(['IPv4', 'FQDN', 'Bad']), endpoints: [{ addresses: [r.pick(['10.0.0.1', 'x'])] }], ports: [{ port: 80 }] }) },
  { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, body: () => ({ eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'fuzz', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Pod', name: 'p' } }) },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', namespaced: true, body: (r) => ({ spec: { rules: [{ host: r.pick(['a.example.com', '*.x', 'bad_host']), http: { paths: [{ path: '/', pathType: r.pick(['Prefix', 'Exact', 'Nope']), backend: { service: { name: 's', port: { number: 80 } } } }] } }] } }) },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', kind: 'IngressClass', namespaced: false, body: () => ({ spec: { controller: 'example.com/c' } }) },
  { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, body: (r) => ({ spec: { podSelector: { matchLabels: labels(r) }, policyTypes: [r.pick(['Ingress', 'Egress', 'Sideways'])], ingress: [{ from: [{ ipBlock: { cidr: r.pick(['10.0.0.0/8', '10.0.0.0/99', 'x']) } }] }] } }) },
  { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', namespaced: true, body: (r) => ({ spec: { minAvailable: r.pick([1, '50%', '150%', 'x']), selector: { matchLabels: labels(r) } } }) },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true, body: (r) => ({ rules: rules(r) }) },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true, body: (r) => ({ roleRef: roleRef(r, r.pick(['Role', 'ClusterRole'])), subjects: subjects(r) }) },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, body: (r) => ({ rules: rules(r), ...(r.chance(0.2) ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'x' } }] } } : {}) }) },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, body: (r) => ({ roleRef: roleRef(r, 'ClusterRole'), subjects: subjects(r) }) },
  { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, body: (r) => ({ value: r.pick([1000, 2e9, -5]), globalDefault: false }) },
  { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false, body: () => ({ provisioner: 'example.com/p', reclaimPolicy: 'Delete' }) },
  { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, body: (r) => ({ spec: { token: r.pick(['', 'garbage', 'a.b.c']) } }) },
  { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, body: () => ({}) },
  { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, body: (r) => ({ spec: access(r) }) },
  { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, body: (r) => ({ spec: { ...access(r), user: 'u', groups: ['g'] } }) },
  { group: 'authorization.k8s.io', version: 'v1', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, body: (r) => ({ spec: { ...access(r), user: 'u' } }) },
  { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, body: () => ({ spec: { namespace: 'fuzz' } }) },
  // Not served: the fuzzer must get a clean 404 for these.
  { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true },
  { group: 'apps', version: 'v1beta1', resource: 'deployments', kind: 'Deployment', namespaced: true },
];

/** Spaces requests name. Never the leak check's: the fuzzer must not change what that check reads. */
export const FUZZ_TENANT = 'fz';
export const SPACES = [FUZZ_TENANT, 'fz-missing', 'system', 'all', 'FZ', 'a'.repeat(70), ''];
export const NAMESPACES = ['fuzz', 'fuzz-2', 'default', 'kube-system', 'missing', 'UPPER', 'a'.repeat(70), '-x', 'a.b'];
export const NAMES = ['obj-1', 'obj-2', 'web', 'fuzz', 'view', 'a'.repeat(254), 'Bad_Name', '-lead', 'a..b', 'x'];

export function apiVersionOf(res: Pick<Resource, 'group' | 'version'>): string {
  return res.group === '' ? res.version : `${res.group}/${res.version}`;
}

/** A valid-looking manifest of the resource's kind (values drawn to be sometimes invalid). */
export function manifest(r: Prng, res: Resource, name: string, namespace: string | undefined): Obj {
  const metadata: Obj = { name, ...(namespace !== undefined ? { namespace } : {}) };
  if (r.chance(0.3)) metadata.labels = labels(r);
  if (r.chance(0.1)) metadata.annotations = { note: 'x'.repeat(r.pick([1, 1000])) };
  if (r.chance(0.05)) metadata.finalizers = [r.pick(['example.com/keep', 'kubernetes', 'bad finalizer'])];
  if (r.chance(0.05)) metadata.generateName = 'gen-';
  if (r.chance(0.05)) metadata.resourceVersion = r.pick(['1', '0', 'abc', '99999999999999999999']);
  if (r.chance(0.03)) metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'obj-1', uid: r.pick(['00000000-0000-0000-0000-000000000000', 'x']) }];
  return { apiVersion: apiVersionOf(res), kind: res.kind, metadata, ...(res.body?.(r) ?? {}) };
}
