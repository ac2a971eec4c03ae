/**
 * Built-in kinds for typed access: the server's own kind definitions, whose objects' types the
 * kinds were written against, so `scope.resource(configMaps)` hands out `ConfigMap`s.
 */
export { configMaps } from '../../api/kinds/core/config-map.js';
export { endpoints } from '../../api/kinds/core/endpoints.js';
export { endpointSlices } from '../../api/kinds/discovery/endpointslice.js';
export { namespaces } from '../../api/kinds/core/namespace.js';
export { nodes } from '../../api/kinds/core/node.js';
export { pods } from '../../api/kinds/core/pod.js';
export { secrets } from '../../api/kinds/core/secret.js';
export { serviceAccounts } from '../../api/kinds/core/service-account.js';
export { services } from '../../api/kinds/core/service.js';
export { tenants } from '../../api/kinds/core/tenant.js';
export { deployments } from '../../api/kinds/apps/deployment.js';
export { leases } from '../../api/kinds/coordination/lease.js';
export type { ConfigMap, Endpoints, Namespace, Pod, Secret, Service, ServiceAccount } from '../../api/kinds/core/types.js';
export type { EndpointSlice } from '../../api/kinds/discovery/endpointslice.js';
export type { Tenant } from '../../api/kinds/core/tenant.js';
export type { Node } from '../../api/kinds/core/node.js';
export type { Deployment } from '../../api/kinds/apps/deployment.js';
export type { Lease } from '../../api/kinds/coordination/lease.js';
export { replicaSets } from '../../api/kinds/apps/replicaset.js';
export { statefulSets } from '../../api/kinds/apps/statefulset.js';
export { daemonSets } from '../../api/kinds/apps/daemonset.js';
export { controllerRevisions } from '../../api/kinds/apps/controllerrevision.js';
export { jobs } from '../../api/kinds/batch/job.js';
export { cronJobs } from '../../api/kinds/batch/cronjob.js';
export { events } from '../../api/kinds/core/event.js';
export { limitRanges } from '../../api/kinds/core/limit-range.js';
export { persistentVolumeClaims } from '../../api/kinds/core/persistent-volume-claim.js';
export { persistentVolumes } from '../../api/kinds/core/persistent-volume.js';
export { podTemplates } from '../../api/kinds/core/pod-template.js';
export { replicationControllers } from '../../api/kinds/core/replication-controller.js';
export { resourceQuotas } from '../../api/kinds/core/resource-quota.js';
export { roles } from '../../api/kinds/rbac/role.js';
export { roleBindings } from '../../api/kinds/rbac/rolebinding.js';
export { clusterRoles } from '../../api/kinds/rbac/clusterrole.js';
export { clusterRoleBindings } from '../../api/kinds/rbac/clusterrolebinding.js';
export { customResourceDefinitions } from '../../api/kinds/apiextensions/customresourcedefinition.js';
export { certificateSigningRequests } from '../../api/kinds/certificates/certificate-signing-request.js';
export { podDisruptionBudgets } from '../../api/kinds/policy/poddisruptionbudget.js';
export { horizontalPodAutoscalers } from '../../api/kinds/autoscaling/horizontalpodautoscaler.js';
export { ingresses } from '../../api/kinds/networking/ingress.js';
export { ingressClasses } from '../../api/kinds/networking/ingressclass.js';
export { networkPolicies } from '../../api/kinds/networking/networkpolicy.js';
export { priorityClasses } from '../../api/kinds/scheduling/priorityclass.js';
export { storageClasses } from '../../api/kinds/storage/storageclass.js';
/** Every built-in kind's definition, for a client that works over all of them (discovery gives the rest). */
export { builtinKinds } from '../../api/kinds/index.js';
