/** policy/v1: pod disruption budgets. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { podDisruptionBudgets } from './poddisruptionbudget.js';

export { podDisruptionBudgets };

export const policyKinds: ResourceDefinition[] = [podDisruptionBudgets];
