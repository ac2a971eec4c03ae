/** apiregistration.k8s.io/v1: APIServices. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { apiServices } from './apiservice.js';

export { apiServices };

export const apiregistrationKinds: ResourceDefinition[] = [apiServices];
