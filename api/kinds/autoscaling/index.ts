/** autoscaling/v2 (and the autoscaling/v1 Scale schema every scale subresource answers with). */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { horizontalPodAutoscalers } from './horizontalpodautoscaler.js';

export { horizontalPodAutoscalers };
/** Registered with the named schemas so discovery and OpenAPI can describe every scale subresource. */
export { scaleSchema } from '../../schema/autoscaling-types.js';

export const autoscalingKinds: ResourceDefinition[] = [horizontalPodAutoscalers];
