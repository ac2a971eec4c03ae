/** apiextensions.k8s.io/v1: custom resource definitions. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { customResourceDefinitions } from './customresourcedefinition.js';

export { customResourceDefinitions };

export const apiextensionsKinds: ResourceDefinition[] = [customResourceDefinitions];
