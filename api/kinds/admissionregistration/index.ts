/** admissionregistration.k8s.io: admission policies and their bindings (and webhook configurations), per space. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings } from './mutating-admission-policy.js';
import { validatingAdmissionPolicies, validatingAdmissionPolicyBindings } from './validating-admission-policy.js';

export { mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings, validatingAdmissionPolicies, validatingAdmissionPolicyBindings };

/** The policy kinds, in kube-apiserver's discovery order (v1 first, then the mutating policies' versions). */
export const admissionPolicyKinds: ResourceDefinition[] = [
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
  ...mutatingAdmissionPolicies.flatMap((policy, i) => [policy, mutatingAdmissionPolicyBindings[i]!]),
];

export const admissionregistrationKinds: ResourceDefinition[] = [...admissionPolicyKinds];
