/** admissionregistration.k8s.io: webhook configurations, admission policies and their bindings, per space. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings } from './mutating-admission-policy.js';
import { validatingAdmissionPolicies, validatingAdmissionPolicyBindings } from './validating-admission-policy.js';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhook-configurations.js';

export { mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings, mutatingWebhookConfigurations, validatingAdmissionPolicies, validatingAdmissionPolicyBindings, validatingWebhookConfigurations };

/** The policy kinds, in kube-apiserver's discovery order (v1 first, then the mutating policies' versions). */
export const admissionPolicyKinds: ResourceDefinition[] = [
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
  ...mutatingAdmissionPolicies.flatMap((policy, i) => [policy, mutatingAdmissionPolicyBindings[i]!]),
];

/** kube-apiserver's order in v1: the webhook configurations, then the policies. */
export const admissionregistrationKinds: ResourceDefinition[] = [validatingWebhookConfigurations, mutatingWebhookConfigurations, ...admissionPolicyKinds];
