/** storage.k8s.io/v1: storage classes. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { storageClasses } from './storageclass.js';

export { storageClasses };

export const storageKinds: ResourceDefinition[] = [storageClasses];
