/** events.k8s.io/v1: structured events. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { events } from './event.js';

export { events };

export const eventsKinds: ResourceDefinition[] = [events];
