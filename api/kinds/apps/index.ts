/** apps/v1: the long-running workload kinds. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { controllerRevisions } from './controllerrevision.js';
import { daemonSets } from './daemonset.js';
import { deployments } from './deployment.js';
import { replicaSets } from './replicaset.js';
import { statefulSets } from './statefulset.js';

export { controllerRevisions, daemonSets, deployments, replicaSets, statefulSets };

export const appsKinds: ResourceDefinition[] = [deployments, replicaSets, statefulSets, daemonSets, controllerRevisions];
