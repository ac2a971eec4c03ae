/**
 * The FlowSchemas and PriorityLevelConfigurations kube-apiserver creates at start
 * (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap): the mandatory pair (exempt, catch-all) and
 * the suggested set, written by our own hand with kube's names, precedences, shares and queues.
 * Each carries `apf.kubernetes.io/autoupdate-spec: "true"`: the server keeps it as written here.
 */
import type { FlowSchemaObject, PolicyRulesWithSubjects, PriorityLevelObject, ResourcePolicyRule, Subject } from './flow-objects.js';

export const AUTOUPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

const autoupdate = { [AUTOUPDATE_ANNOTATION]: 'true' };

function limited(name: string, shares: number, lendablePercent: number, queuing: { queues: number; handSize: number; queueLengthLimit: number } | null): PriorityLevelObject {
  return {
    metadata: { name, annotations: autoupdate },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' },
      },
    },
  };
}

const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });

/** Every resource and every non-resource URL, with any verb. */
function everything(subjects: Subject[]): PolicyRulesWithSubjects {
  return {
    subjects,
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  };
}

function schema(name: string, level: string, precedence: number, distinguisher: 'ByUser' | 'ByNamespace' | null, rules: PolicyRulesWithSubjects[]): FlowSchemaObject {
  return {
    metadata: { name, annotations: autoupdate },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence: precedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

const leaseRule = (namespaces: string[]): ResourcePolicyRule => ({ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces });

export const MANDATORY_PRIORITY_LEVELS: PriorityLevelObject[] = [
  { metadata: { name: 'exempt', annotations: autoupdate }, spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
  limited('catch-all', 5, 0, null),
];

export const SUGGESTED_PRIORITY_LEVELS: PriorityLevelObject[] = [
  limited('system', 30, 33, { queues: 64, handSize: 6, queueLengthLimit: 50 }),
  limited('node-high', 40, 25, { queues: 64, handSize: 6, queueLengthLimit: 50 }),
  limited('leader-election', 10, 0, { queues: 16, handSize: 4, queueLengthLimit: 50 }),
  limited('workload-high', 40, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 }),
  limited('workload-low', 100, 90, { queues: 128, handSize: 6, queueLengthLimit: 50 }),
  limited('global-default', 20, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 }),
];

export const MANDATORY_FLOW_SCHEMAS: FlowSchemaObject[] = [
  schema('exempt', 'exempt', 1, null, [everything([group('system:masters')])]),
  schema('catch-all', 'catch-all', 10000, 'ByUser', [everything([group('system:unauthenticated'), group('system:authenticated')])]),
];

export const SUGGESTED_FLOW_SCHEMAS: FlowSchemaObject[] = [
  schema('probes', 'exempt', 2, null, [
    { subjects: [group('system:unauthenticated'), group('system:authenticated')], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] },
  ]),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', [
    { subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), serviceAccount('kube-system', '*')], resourceRules: [leaseRule(['kube-system'])] },
  ]),
  schema('endpoint-controller', 'workload-high', 150, 'ByUser', [
    {
      subjects: [user('system:kube-controller-manager'), serviceAccount('kube-system', 'endpoint-controller')],
      resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
    },
  ]),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', [{ subjects: [serviceAccount('kube-system', '*')], resourceRules: [leaseRule(['*'])] }]),
  schema('system-node-high', 'node-high', 400, 'ByUser', [
    {
      subjects: [group('system:nodes')],
      resourceRules: [
        { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true },
        { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
      ],
    },
  ]),
  schema('system-nodes', 'system', 500, 'ByUser', [everything([group('system:nodes')])]),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [everything([user('system:kube-controller-manager')])]),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', [everything([user('system:kube-scheduler')])]),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [everything([serviceAccount('kube-system', '*')])]),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', [everything([group('system:serviceaccounts')])]),
  schema('global-default', 'global-default', 9900, 'ByUser', [everything([group('system:unauthenticated'), group('system:authenticated')])]),
];
