/** admissionregistration.k8s.io: admission policies and their bindings (and webhook configurations), per space. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { validatingAdmissionPolicies, validatingAdmissionPolicyBindings } from './validating-admission-policy.js';

export { validatingAdmissionPolicies, validatingAdmissionPolicyBindings };

/** The policy kinds, in kube-apiserver's discovery order. */
export const admissionPolicyKinds: ResourceDefinition[] = [validatingAdmissionPolicies, validatingAdmissionPolicyBindings];

export const admissionregistrationKinds: ResourceDefinition[] = [...admissionPolicyKinds];
