/**
 * The `flowcontrol.apiserver.k8s.io/v1` objects as the dispatcher reads them: FlowSchemas and
 * PriorityLevelConfigurations, only the fields that decide classification and seats.
 */

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  user?: { name: string };
  group?: { name: string };
  serviceAccount?: { namespace: string; name: string };
}

export interface ResourcePolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface PolicyRulesWithSubjects {
  subjects: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchemaObject {
  metadata: { name: string; uid?: string; annotations?: Record<string, string> };
  spec: {
    priorityLevelConfiguration: { name: string };
    matchingPrecedence?: number;
    distinguisherMethod?: { type: 'ByUser' | 'ByNamespace' };
    rules?: PolicyRulesWithSubjects[];
  };
}

export interface LimitResponse {
  type: 'Queue' | 'Reject';
  queuing?: { queues?: number; handSize?: number; queueLengthLimit?: number };
}

export interface PriorityLevelObject {
  metadata: { name: string; uid?: string; annotations?: Record<string, string> };
  spec: {
    type: 'Exempt' | 'Limited';
    limited?: { nominalConcurrencyShares?: number; lendablePercent?: number; borrowingLimitPercent?: number; limitResponse?: LimitResponse };
    exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number };
  };
}
