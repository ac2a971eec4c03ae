/** coordination.k8s.io/v1: leases. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { leases } from './lease.js';

export { leases };

export const coordinationKinds: ResourceDefinition[] = [leases];
