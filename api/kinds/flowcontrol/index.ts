/** flowcontrol.apiserver.k8s.io/v1: API Priority and Fairness configuration. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { flowSchemas } from './flowschema.js';
import { priorityLevelConfigurations } from './prioritylevelconfiguration.js';

export { flowSchemas, priorityLevelConfigurations };

export const flowcontrolKinds: ResourceDefinition[] = [flowSchemas, priorityLevelConfigurations];
