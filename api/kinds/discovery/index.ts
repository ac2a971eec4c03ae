/** discovery.k8s.io/v1: endpoint slices. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { endpointSlices } from './endpointslice.js';

export { endpointSlices };

export const discoveryKinds: ResourceDefinition[] = [endpointSlices];
