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
