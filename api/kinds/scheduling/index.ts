/** scheduling.k8s.io/v1: priority classes. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { priorityClasses } from './priorityclass.js';

export { priorityClasses };

export const schedulingKinds: ResourceDefinition[] = [priorityClasses];
