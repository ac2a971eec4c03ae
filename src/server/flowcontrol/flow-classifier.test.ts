import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../api/access.js';
import { parseRequestInfo } from '../request-info.js';
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from './bootstrap-configuration.js';
import { FlowClassifier } from './flow-classifier.js';

const classifier = new FlowClassifier([...SUGGESTED_FLOW_SCHEMAS, ...MANDATORY_FLOW_SCHEMAS]);

function user(name: string, tenant: string | null, groups: string[]): UserInfo {
  return { name, uid: '', groups: [...groups, tenant === null ? 'system:unauthenticated' : 'system:authenticated'], tenant, extra: {} };
}

function schemaOf(u: UserInfo, method: string, path: string): string | undefined {
  return classifier.classify(u, parseRequestInfo(method, path, {})!)?.metadata.name;
}

describe('FlowClassifier with kube default FlowSchemas', () => {
  it.each([
    ['the system admin', user('admin', 'system', ['system:masters']), 'GET', '/api/v1/namespaces/default/pods', 'exempt'],
    ['a tenant calling itself system:masters', user('admin', 't1', ['system:masters']), 'GET', '/api/v1/namespaces/default/pods', 'global-default'],
    ['a tenant user', user('alice', 't1', []), 'GET', '/api/v1/namespaces/default/configmaps', 'global-default'],
    ['a health probe', user('system:anonymous', null, []), 'GET', '/readyz', 'probes'],
    ['a tenant service account', user('system:serviceaccount:ns1:app', 't1', ['system:serviceaccounts', 'system:serviceaccounts:ns1']), 'GET', '/api/v1/namespaces/ns1/pods', 'service-accounts'],
    ['the controller manager', user('system:kube-controller-manager', 'system', []), 'GET', '/api/v1/tenants/all/pods', 'kube-controller-manager'],
    ['a tenant named like the controller manager', user('system:kube-controller-manager', 't1', []), 'GET', '/api/v1/pods', 'global-default'],
    ['the scheduler renewing its lease', user('system:kube-scheduler', 'system', []), 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler', 'system-leader-election'],
    ['a system node updating its status', user('system:node:n1', 'system', ['system:nodes']), 'PATCH', '/api/v1/nodes/n1/status', 'system-node-high'],
    ['a system node listing pods', user('system:node:n1', 'system', ['system:nodes']), 'GET', '/api/v1/pods', 'system-nodes'],
  ])('%s → %s', (_what, u, method, path, expected) => {
    expect(schemaOf(u, method, path)).toBe(expected);
  });
});
