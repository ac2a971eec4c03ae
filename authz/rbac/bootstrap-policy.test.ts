import { describe, expect, it } from 'vitest';
import { create } from '../../api/kinds/apps/testing.js';
import { clusterRoleBindings, clusterRoles } from '../../api/kinds/rbac/index.js';
import type { ClusterRole } from '../../api/kinds/rbac/clusterrole.js';
import type { ClusterRoleBinding } from '../../api/kinds/rbac/clusterrolebinding.js';
import type { PolicyRule } from '../../api/kinds/rbac/rules.js';
import { checkObject } from '../../api/schema/check-object.js';
import { labelSelectorMatches } from '../../api/validation/label-selector.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAP_LABEL, bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-policy.js';
import { ruleAllows, uncoveredRules, type RuleAttributes } from './policy-rule.js';

const roles = (): ClusterRole[] => bootstrapClusterRoles() as ClusterRole[];
const bindings = (): ClusterRoleBinding[] => bootstrapClusterRoleBindings() as ClusterRoleBinding[];

function role(name: string): ClusterRole {
  const found = roles().find((r) => r.metadata.name === name);
  if (!found) throw new Error(`no bootstrap role ${name}`);
  return found;
}

/**
 * A role's rules once the aggregation controller has run: its own, or the union of every role
 * its selectors match (aggregated ones included, as the controller reaches a fixed point).
 */
function effectiveRules(target: ClusterRole, all: ClusterRole[] = roles(), seen = new Set<string>()): PolicyRule[] {
  const selectors = target.aggregationRule?.clusterRoleSelectors;
  if (!selectors) return target.rules ?? [];
  seen.add(target.metadata.name!);
  return all
    .filter((r) => !seen.has(r.metadata.name!) && selectors.some((s) => labelSelectorMatches(s, r.metadata.labels)))
    .flatMap((r) => effectiveRules(r, all, seen));
}

function allows(rules: PolicyRule[], attrs: RuleAttributes): boolean {
  return rules.some((r) => ruleAllows(r, attrs));
}

const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'bind', 'escalate', '*'];

describe('bootstrap policy objects', () => {
  it('labels and annotates every object as a default that may be restored', () => {
    for (const obj of [...roles(), ...bindings()]) {
      expect(obj.apiVersion, obj.metadata.name).toBe('rbac.authorization.k8s.io/v1');
      expect(obj.metadata.labels?.[BOOTSTRAP_LABEL], obj.metadata.name).toBe('rbac-defaults');
      expect(obj.metadata.annotations, obj.metadata.name).toEqual({ [AUTOUPDATE_ANNOTATION]: 'true' });
    }
    expect(new Set(roles().map((r) => r.kind))).toEqual(new Set(['ClusterRole']));
    expect(new Set(bindings().map((b) => b.kind))).toEqual(new Set(['ClusterRoleBinding']));
  });

  it('names every role and binding once', () => {
    const roleNames = roles().map((r) => r.metadata.name);
    const bindingNames = bindings().map((b) => b.metadata.name);
    expect(new Set(roleNames).size).toBe(roleNames.length);
    expect(new Set(bindingNames).size).toBe(bindingNames.length);
    expect(roleNames).toEqual([
      'cluster-admin', 'admin', 'edit', 'view',
      'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view',
      'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:monitoring', 'system:auth-delegator',
      'system:kube-controller-manager', 'system:controller:tenant-controller', 'system:controller:namespace-controller', 'system:controller:service-account-controller',
      'system:controller:clusterrole-aggregation-controller', 'system:controller:root-ca-cert-publisher', 'system:controller:resourcequota-controller', 'system:kube-scheduler',
      'system:controller:endpoint-controller', 'system:controller:endpointslice-controller', 'system:controller:pod-garbage-collector',
      'system:controller:replicaset-controller', 'system:controller:replication-controller', 'system:controller:deployment-controller',
      'system:controller:disruption-controller',
      'system:controller:job-controller', 'system:controller:cronjob-controller', 'system:controller:statefulset-controller',
      'system:controller:daemon-set-controller', 'system:controller:ttl-after-finished-controller', 'system:controller:certificate-controller', 'system:controller:generic-garbage-collector',
      'system:node-simulator',
    ]);
  });

  it('system:auth-delegator may ask token and access reviews, and nothing else', () => {
    expect(role('system:auth-delegator').rules).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
  });

  it('returns new objects on every call', () => {
    const first = roles();
    first[0]!.metadata.labels!.changed = 'yes';
    first[0]!.rules![0]!.verbs!.push('oops');
    bindings()[0]!.subjects!.push({ kind: 'User', name: 'mallory' });
    expect(role('cluster-admin').metadata.labels).toEqual({ [BOOTSTRAP_LABEL]: 'rbac-defaults' });
    expect(role('cluster-admin').rules![0]!.verbs).toEqual(['*']);
    expect(bindings()[0]!.subjects).toHaveLength(1);
  });

  it.each(roles().map((r) => [r.metadata.name!, r] as const))('ClusterRole %s passes validation and its schema', async (_name, obj) => {
    const { object, errors } = await create(clusterRoles, obj);
    expect(errors).toEqual([]);
    const check = checkObject(object, clusterRoles.schema);
    expect(check.typeError).toBeUndefined();
    expect(check.unknownFields).toEqual([]);
  });

  it.each(bindings().map((b) => [b.metadata.name!, b] as const))('ClusterRoleBinding %s passes validation and its schema', async (_name, obj) => {
    const { object, errors } = await create(clusterRoleBindings, obj);
    expect(errors).toEqual([]);
    expect(object.roleRef).toEqual(obj.roleRef);
    expect(object.subjects).toEqual(obj.subjects);
    const check = checkObject(object, clusterRoleBindings.schema);
    expect(check.typeError).toBeUndefined();
    expect(check.unknownFields).toEqual([]);
  });
});

describe('the aggregated roles', () => {
  it('select their aggregate-to label and start without rules', () => {
    for (const name of ['admin', 'edit', 'view']) {
      expect(role(name).rules).toEqual([]);
      expect(role(name).aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${name}`]: 'true' } }] });
    }
    expect(role('edit').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' });
    expect(role('view').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(role('admin').metadata.labels).toEqual({ [BOOTSTRAP_LABEL]: 'rbac-defaults' });
  });

  it('nest: admin covers edit, edit covers view, each with more than the one below', () => {
    const [admin, edit, view] = ['admin', 'edit', 'view'].map((n) => effectiveRules(role(n)));
    expect(uncoveredRules(admin!, edit!)).toEqual([]);
    expect(uncoveredRules(edit!, view!)).toEqual([]);
    expect(uncoveredRules(edit!, admin!)).not.toEqual([]);
    expect(uncoveredRules(view!, edit!)).not.toEqual([]);
    expect(effectiveRules(role('view'))).toEqual(role('system:aggregate-to-view').rules);
  });

  it('view reads workloads but never secrets, and writes nothing', () => {
    const view = effectiveRules(role('view'));
    expect(allows(view, { verb: 'list', group: 'apps', resource: 'deployments' })).toBe(true);
    expect(allows(view, { verb: 'get', group: '', resource: 'pods', subresource: 'log' })).toBe(true);
    expect(allows(view, { verb: 'watch', group: '', resource: 'configmaps' })).toBe(true);
    for (const rule of view) {
      expect(rule.resources, JSON.stringify(rule)).not.toContain('secrets');
      expect(rule.resources, JSON.stringify(rule)).not.toContain('*');
      expect(rule.verbs!.every((v) => ['get', 'list', 'watch'].includes(v)), JSON.stringify(rule)).toBe(true);
    }
    for (const verb of ['get', 'list', 'watch', ...WRITE_VERBS]) {
      expect(allows(view, { verb, group: '', resource: 'secrets', name: 'db-password' }), verb).toBe(false);
    }
    expect(allows(view, { verb: 'create', group: '', resource: 'pods', subresource: 'exec' })).toBe(false);
  });

  it('edit writes workloads, secrets and service accounts, but grants nothing on roles or bindings', () => {
    const edit = effectiveRules(role('edit'));
    for (const [group, resource] of [['apps', 'deployments'], ['', 'secrets'], ['', 'serviceaccounts'], ['batch', 'jobs'], ['', 'configmaps']] as const) {
      expect(allows(edit, { verb: 'create', group, resource }), `${resource}.${group}`).toBe(true);
      expect(allows(edit, { verb: 'delete', group, resource }), `${resource}.${group}`).toBe(true);
    }
    expect(allows(edit, { verb: 'get', group: '', resource: 'secrets' })).toBe(true);
    expect(allows(edit, { verb: 'impersonate', group: '', resource: 'serviceaccounts', name: 'builder' })).toBe(true);
    expect(allows(edit, { verb: 'create', group: '', resource: 'pods', subresource: 'exec' })).toBe(true);
    expect(allows(edit, { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale' })).toBe(true);
    for (const rule of edit) expect(rule.apiGroups, JSON.stringify(rule)).not.toContain('rbac.authorization.k8s.io');
    for (const resource of ['roles', 'rolebindings']) {
      for (const verb of ['get', 'list', 'watch', ...WRITE_VERBS]) {
        expect(allows(edit, { verb, group: 'rbac.authorization.k8s.io', resource }), `${verb} ${resource}`).toBe(false);
      }
    }
    // The system's own levers stay out of reach.
    expect(allows(edit, { verb: 'update', group: '', resource: 'resourcequotas' })).toBe(false);
    expect(allows(edit, { verb: 'update', group: '', resource: 'pods', subresource: 'status' })).toBe(false);
    expect(allows(edit, { verb: 'create', group: '', resource: 'endpoints' })).toBe(false);
  });

  it('admin adds roles, role bindings and local access reviews', () => {
    const admin = effectiveRules(role('admin'));
    for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection', 'get', 'list', 'watch']) {
      expect(allows(admin, { verb, group: 'rbac.authorization.k8s.io', resource: 'rolebindings' }), verb).toBe(true);
      expect(allows(admin, { verb, group: 'rbac.authorization.k8s.io', resource: 'roles' }), verb).toBe(true);
    }
    expect(allows(admin, { verb: 'create', group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews' })).toBe(true);
    expect(allows(admin, { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' })).toBe(false);
    expect(allows(admin, { verb: 'bind', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' })).toBe(false);
  });
});

describe('the other roles', () => {
  it('cluster-admin allows every verb on every resource and URL', () => {
    const rules = role('cluster-admin').rules!;
    expect(allows(rules, { verb: 'escalate', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' })).toBe(true);
    expect(allows(rules, { verb: 'delete', group: 'example.com', resource: 'widgets', subresource: 'status' })).toBe(true);
    expect(allows(rules, { verb: 'post', path: '/logs/anything' })).toBe(true);
  });

  it('system:discovery and system:public-info-viewer grant get on their URLs only', () => {
    const discovery = role('system:discovery').rules!;
    for (const path of ['/api', '/api/v1', '/apis/apps/v1', '/openapi/v3', '/healthz', '/livez', '/readyz', '/version', '/version/']) {
      expect(allows(discovery, { verb: 'get', path }), path).toBe(true);
    }
    expect(allows(discovery, { verb: 'post', path: '/api' })).toBe(false);
    expect(allows(discovery, { verb: 'get', path: '/metrics' })).toBe(false);
    expect(allows(discovery, { verb: 'get', group: '', resource: 'pods' })).toBe(false);

    const publicInfo = role('system:public-info-viewer').rules!;
    expect(publicInfo.flatMap((r) => r.nonResourceURLs).sort()).toEqual(['/healthz', '/livez', '/readyz', '/version', '/version/']);
    expect(allows(publicInfo, { verb: 'get', path: '/apis' })).toBe(false);
  });

  it('system:basic-user lets anyone ask who they are and what they may do', () => {
    const rules = role('system:basic-user').rules!;
    expect(allows(rules, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' })).toBe(true);
    expect(allows(rules, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' })).toBe(true);
    expect(allows(rules, { verb: 'create', group: 'authentication.k8s.io', resource: 'selfsubjectreviews' })).toBe(true);
    expect(allows(rules, { verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews' })).toBe(false);
    expect(allows(rules, { verb: 'get', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' })).toBe(false);
  });
});

describe('bootstrap bindings', () => {
  it('bind roles of the policy to the default groups, and each controller role to its own user only', () => {
    const names = new Set(roles().map((r) => r.metadata.name));
    for (const b of bindings()) {
      expect(b.roleRef?.kind, b.metadata.name).toBe('ClusterRole');
      expect(b.roleRef?.apiGroup, b.metadata.name).toBe('rbac.authorization.k8s.io');
      expect(names.has(b.roleRef?.name), b.metadata.name).toBe(true);
      expect(b.roleRef?.name, 'a default binding is named after its role').toBe(b.metadata.name);
    }
    const groupsOf = Object.fromEntries(
      bindings().map((b) => [b.metadata.name, b.subjects!.map((s) => `${s.kind}/${s.apiGroup}/${s.name}`)]),
    );
    expect(groupsOf).toEqual({
      'cluster-admin': ['Group/rbac.authorization.k8s.io/system:masters'],
      'system:discovery': ['Group/rbac.authorization.k8s.io/system:authenticated'],
      'system:basic-user': ['Group/rbac.authorization.k8s.io/system:authenticated'],
      'system:public-info-viewer': ['Group/rbac.authorization.k8s.io/system:authenticated', 'Group/rbac.authorization.k8s.io/system:unauthenticated'],
      'system:monitoring': ['Group/rbac.authorization.k8s.io/system:monitoring'],
      'system:kube-controller-manager': ['User/rbac.authorization.k8s.io/system:kube-controller-manager'],
      'system:controller:tenant-controller': ['User/rbac.authorization.k8s.io/system:controller:tenant-controller'],
      'system:controller:namespace-controller': ['User/rbac.authorization.k8s.io/system:controller:namespace-controller'],
      'system:controller:service-account-controller': ['User/rbac.authorization.k8s.io/system:controller:service-account-controller'],
      'system:controller:clusterrole-aggregation-controller': ['User/rbac.authorization.k8s.io/system:controller:clusterrole-aggregation-controller'],
      'system:controller:root-ca-cert-publisher': ['User/rbac.authorization.k8s.io/system:controller:root-ca-cert-publisher'],
      'system:controller:resourcequota-controller': ['User/rbac.authorization.k8s.io/system:controller:resourcequota-controller'],
      'system:kube-scheduler': ['User/rbac.authorization.k8s.io/system:kube-scheduler'],
      'system:controller:endpoint-controller': ['User/rbac.authorization.k8s.io/system:controller:endpoint-controller'],
      'system:controller:endpointslice-controller': ['User/rbac.authorization.k8s.io/system:controller:endpointslice-controller'],
      'system:controller:pod-garbage-collector': ['User/rbac.authorization.k8s.io/system:controller:pod-garbage-collector'],
      'system:controller:replicaset-controller': ['User/rbac.authorization.k8s.io/system:controller:replicaset-controller'],
      'system:controller:replication-controller': ['User/rbac.authorization.k8s.io/system:controller:replication-controller'],
      'system:controller:deployment-controller': ['User/rbac.authorization.k8s.io/system:controller:deployment-controller'],
      'system:controller:disruption-controller': ['User/rbac.authorization.k8s.io/system:controller:disruption-controller'],
      'system:controller:job-controller': ['User/rbac.authorization.k8s.io/system:controller:job-controller'],
      'system:controller:cronjob-controller': ['User/rbac.authorization.k8s.io/system:controller:cronjob-controller'],
      'system:controller:statefulset-controller': ['User/rbac.authorization.k8s.io/system:controller:statefulset-controller'],
      'system:controller:daemon-set-controller': ['User/rbac.authorization.k8s.io/system:controller:daemon-set-controller'],
      'system:controller:ttl-after-finished-controller': ['User/rbac.authorization.k8s.io/system:controller:ttl-after-finished-controller'],
      'system:controller:certificate-controller': ['User/rbac.authorization.k8s.io/system:controller:certificate-controller'],
      'system:controller:generic-garbage-collector': ['User/rbac.authorization.k8s.io/system:controller:generic-garbage-collector'],
      'system:node-simulator': ['User/rbac.authorization.k8s.io/system:node-simulator'],
    });
  });
});
