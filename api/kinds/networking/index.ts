/** networking.k8s.io/v1: network policies, ingresses and ingress classes. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { ingresses } from './ingress.js';
import { ingressClasses } from './ingressclass.js';
import { networkPolicies } from './networkpolicy.js';

export { ingressClasses, ingresses, networkPolicies };

export const networkingKinds: ResourceDefinition[] = [networkPolicies, ingresses, ingressClasses];
