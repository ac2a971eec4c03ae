/** certificates.k8s.io/v1: certificate signing requests. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { certificateSigningRequests } from './certificate-signing-request.js';

export { certificateSigningRequests };

export const certificatesKinds: ResourceDefinition[] = [certificateSigningRequests];
