import { describe, expect, it } from 'vitest';
import { deployments } from '../../kinds/apps/deployment.js';
import { configMaps } from '../../kinds/core/config-map.js';
import { namespaces } from '../../kinds/core/namespace.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../kinds/admissionregistration/validating-admission-policy.js';
import { defaultMatchResources, defaultPolicySpec } from '../../kinds/admissionregistration/policy-types.js';
import type { AdmissionAttributes } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { ApiError } from '../../status.js';
import { ALL_SPACES_LABEL, type PolicyReaders } from './policy-sources.js';
import { VALIDATION_FAILURE_ANNOTATION, validatingPolicyAdmission } from './validating-policy-admission.js';

const deploymentRule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };

function policy(name: string, spec: ValidatingAdmissionPolicy['spec'], labels?: Record<string, string>): ValidatingAdmissionPolicy {
  const p: ValidatingAdmissionPolicy = { metadata: { name, ...(labels ? { labels } : {}) }, spec: structuredClone(spec) };
  defaultPolicySpec(p.spec);
  return p;
}

function binding(name: string, spec: ValidatingAdmissionPolicyBinding['spec'], labels?: Record<string, string>): ValidatingAdmissionPolicyBinding {
  const b: ValidatingAdmissionPolicyBinding = { metadata: { name, ...(labels ? { labels } : {}) }, spec: structuredClone(spec) };
  defaultMatchResources(b.spec?.matchResources);
  return b;
}

interface Space {
  policies: ValidatingAdmissionPolicy[];
  bindings: ValidatingAdmissionPolicyBinding[];
  /** Objects readable as params, by `namespace/name`. */
  objects?: Record<string, KubeObject>;
  namespaces?: Record<string, KubeObject>;
}

function plugin(spaces: Record<string, Space>) {
  const readers: PolicyReaders = {
    namespace: async (tenant, name) => spaces[tenant]?.namespaces?.[name] ?? { metadata: { name } },
    kindFor: (_tenant, apiVersion, kind) => (apiVersion === 'v1' && kind === 'ConfigMap' ? (configMaps as ResourceDefinition) : undefined),
    get: async (_def, tenant, namespace, name) => spaces[tenant]?.objects?.[`${namespace ?? ''}/${name}`],
    select: async (_def, tenant, namespace, selector) =>
      Object.entries(spaces[tenant]?.objects ?? {})
        .filter(([key, obj]) => key.startsWith(`${namespace ?? ''}/`) && selector.matches(obj.metadata.labels ?? {}))
        .map(([, obj]) => obj),
    equivalents: () => [],
    // alice may approve deployments in t1; the service account `ops/deployer` may get /healthz.
    authorize: (user, attrs) => ({
      allowed: (user.name === 'alice' && attrs.tenant === 't1' && attrs.verb === 'approve' && attrs.group === 'apps' && attrs.resource === 'deployments' && attrs.namespace === 'shop') || (user.name === 'system:serviceaccount:ops:deployer' && attrs.path === '/healthz'),
      reason: `asked about ${user.name} ${attrs.verb} ${attrs.path ?? attrs.resource}`,
    }),
  };
  return validatingPolicyAdmission({
    lister: { policies: (t) => spaces[t]?.policies ?? [], bindings: (t) => spaces[t]?.bindings ?? [] },
    readers,
  });
}

function deployment(replicas: number, image = 'nginx:1.27', labels?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', ...(labels ? { labels } : {}) },
    spec: { replicas, template: { spec: { containers: [{ name: 'web', image }] } } },
  } as KubeObject;
}

function attrs(tenant: string, object: KubeObject, def: ResourceDefinition = deployments as ResourceDefinition): AdmissionAttributes & { warnings: string[]; auditAnnotations: Map<string, string> } {
  return {
    operation: 'create',
    def,
    tenant,
    namespace: object.metadata.namespace,
    object,
    old: undefined,
    user: { name: 'alice', uid: 'u1', groups: ['devs'], tenant, extra: {} },
    warnings: [],
    auditAnnotations: new Map(),
  };
}

async function refusal(p: ReturnType<typeof plugin>, a: AdmissionAttributes): Promise<ApiError> {
  try {
    await p.admit(a);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('admitted');
}

const replicaLimit = policy('replica-limit', {
  paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
  matchConstraints: { resourceRules: [deploymentRule] },
  validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'at most ' + params.data.maxReplicas + ' replicas'" }],
});
const limits = { metadata: { name: 'limits', namespace: 'shop' }, data: { maxReplicas: '3' } };

describe('ValidatingAdmissionPolicy admission', () => {
  it('denies with kube\'s message, reason and code, reading the param of the policy\'s space', async () => {
    const p = plugin({ t1: { policies: [replicaLimit], bindings: [binding('b', { policyName: 'replica-limit', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] })], objects: { 'shop/limits': limits } } });
    await p.admit(attrs('t1', deployment(3)));
    const err = await refusal(p, attrs('t1', deployment(5)));
    expect(err.code).toBe(422);
    expect(err.reason).toBe('Invalid');
    const message = "ValidatingAdmissionPolicy 'replica-limit' with binding 'b' denied request: at most 3 replicas";
    expect(err.message).toBe(`deployments.apps "web" is forbidden: ${message}`);
    expect(err.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments', causes: [{ message }] });
    // Another space has neither policy nor params.
    await p.admit(attrs('t2', deployment(5)));
  });

  it('sees a scale as an UPDATE of deployments/scale with the Scale, and a rule for deployments does not', async () => {
    const scalePolicy = (name: string, resources: string[], expression: string) =>
      policy(name, { matchConstraints: { resourceRules: [{ ...deploymentRule, operations: ['UPDATE'], resources }] }, validations: [{ expression, message: `${name} refuses` }] });
    const onScale = scalePolicy('on-scale', ['deployments/scale'], "object.kind == 'Scale' && request.subResource == 'scale' && request.kind.group == 'autoscaling' && object.spec.replicas <= 3");
    const p = plugin({ t1: { policies: [onScale, scalePolicy('on-deployments', ['deployments'], 'false')], bindings: [binding('s', { policyName: 'on-scale', validationActions: ['Deny'] }), binding('d', { policyName: 'on-deployments', validationActions: ['Deny'] })] } });
    const scale = (replicas: number): KubeObject => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas } }) as KubeObject;
    const scaling = (replicas: number): AdmissionAttributes => ({
      ...attrs('t1', deployment(replicas)),
      operation: 'update',
      old: deployment(1),
      reviewed: { operation: 'update', subresource: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, schema: deployments.schema, object: scale(replicas), old: scale(1) },
    });
    await p.admit(scaling(3));
    expect((await refusal(p, scaling(4))).message).toContain("ValidatingAdmissionPolicy 'on-scale' with binding 's' denied request: on-scale refuses");
  });

  it('checks what the requester may do with the authorizer variable, in the request\'s space', async () => {
    const approvers = policy('approvers', {
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [
        { expression: "authorizer.group('apps').resource('deployments').namespace(object.metadata.namespace).name(object.metadata.name).check('approve').allowed()", messageExpression: "'not an approver: ' + authorizer.group('apps').resource('deployments').check('approve').reason()" },
        { expression: "authorizer.serviceAccount('ops', 'deployer').path('/healthz').check('get').allowed() && !authorizer.path('/healthz').check('get').errored()" },
      ],
    });
    const p = plugin({ t1: { policies: [approvers], bindings: [binding('b', { policyName: 'approvers', validationActions: ['Deny'] })] } });
    await p.admit(attrs('t1', deployment(1)));
    const bob = { ...attrs('t1', deployment(1)), user: { name: 'bob', uid: 'u2', groups: [], tenant: 't1', extra: {} } };
    expect((await refusal(p, bob)).message).toBe("deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'approvers' with binding 'b' denied request: not an approver: asked about bob approve deployments");
  });

  it('answers with the validation\'s reason, and its message or expression', async () => {
    const forbidden = policy('no-latest', {
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [{ expression: "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))", reason: 'Forbidden' }],
    });
    const p = plugin({ t1: { policies: [forbidden], bindings: [binding('b', { policyName: 'no-latest', validationActions: ['Deny'] })] } });
    const err = await refusal(p, attrs('t1', deployment(1, 'nginx:latest')));
    expect([err.code, err.reason]).toEqual([403, 'Forbidden']);
    expect(err.message).toContain("denied request: failed expression: object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest'))");
  });

  it('warns and audits instead of denying, per the binding\'s actions', async () => {
    const p = plugin({ t1: { policies: [replicaLimit], bindings: [binding('b', { policyName: 'replica-limit', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: ['Warn', 'Audit'] })], objects: { 'shop/limits': limits } } });
    const a = attrs('t1', deployment(5));
    await p.admit(a);
    expect(a.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'b': at most 3 replicas"]);
    expect(JSON.parse(a.auditAnnotations.get(VALIDATION_FAILURE_ANNOTATION)!)).toEqual([
      { message: 'at most 3 replicas', policy: 'replica-limit', binding: 'b', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
    ]);
  });

  it('refuses when a Deny param is missing, and passes when Allow', async () => {
    const deny = plugin({ t1: { policies: [replicaLimit], bindings: [binding('b', { policyName: 'replica-limit', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] })] } });
    expect((await refusal(deny, attrs('t1', deployment(1)))).message).toBe(
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    const allow = plugin({ t1: { policies: [replicaLimit], bindings: [binding('b', { policyName: 'replica-limit', paramRef: { name: 'limits', parameterNotFoundAction: 'Allow' }, validationActions: ['Deny'] })] } });
    await allow.admit(attrs('t1', deployment(100)));
  });

  it('never reads params of another space: the policy\'s space only', async () => {
    // t2 holds a permissive param under the same name; t1's policy must not see it.
    const p = plugin({
      t1: { policies: [replicaLimit], bindings: [binding('b', { policyName: 'replica-limit', paramRef: { name: 'limits', namespace: 'shop', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] })] },
      t2: { policies: [], bindings: [], objects: { 'shop/limits': { ...limits, data: { maxReplicas: '100' } } } },
    });
    expect((await refusal(p, attrs('t1', deployment(5)))).message).toContain('no params found');
  });

  it('runs once per param a selector picks', async () => {
    const p = plugin({
      t1: {
        policies: [replicaLimit],
        bindings: [binding('b', { policyName: 'replica-limit', paramRef: { selector: { matchLabels: { limits: 'yes' } }, parameterNotFoundAction: 'Deny' }, validationActions: ['Warn'] })],
        objects: {
          'shop/a': { metadata: { name: 'a', labels: { limits: 'yes' } }, data: { maxReplicas: '2' } },
          'shop/b': { metadata: { name: 'b', labels: { limits: 'yes' } }, data: { maxReplicas: '4' } },
          'shop/c': { metadata: { name: 'c' }, data: { maxReplicas: '1' } },
        },
      },
    });
    const a = attrs('t1', deployment(3));
    await p.admit(a);
    expect(a.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'b': at most 2 replicas"]);
  });

  it('applies match conditions, variables, object and namespace selectors, and exclusions', async () => {
    const p0 = policy('p', {
      matchConstraints: { resourceRules: [deploymentRule], objectSelector: { matchLabels: { checked: 'yes' } }, namespaceSelector: { matchLabels: { env: 'prod' } } },
      matchConditions: [{ name: 'not-admin', expression: "request.userInfo.username != 'admin'" }],
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'many', expression: 'variables.replicas > 2' }],
      validations: [{ expression: '!variables.many', message: 'too many' }],
    });
    const spaces = { t1: { policies: [p0], bindings: [binding('b', { policyName: 'p', validationActions: ['Deny'] })], namespaces: { shop: { metadata: { name: 'shop', labels: { env: 'prod' } } } } } };
    const p = plugin(spaces);
    await p.admit(attrs('t1', deployment(5))); // no label: not selected
    expect((await refusal(p, attrs('t1', deployment(5, 'x', { checked: 'yes' })))).message).toContain('denied request: too many');
    const admin = attrs('t1', deployment(5, 'x', { checked: 'yes' }));
    admin.user = { name: 'admin', uid: '', groups: [], tenant: 't1', extra: {} };
    await p.admit(admin);
    spaces.t1.namespaces.shop.metadata.labels = { env: 'dev' };
    await p.admit(attrs('t1', deployment(5, 'x', { checked: 'yes' })));
  });

  it('lets Ignore policies through on errors, and refuses Fail ones with the error', async () => {
    const broken = (failurePolicy: string) =>
      policy('broken', { failurePolicy, matchConstraints: { resourceRules: [deploymentRule] }, validations: [{ expression: 'object.spec.nothing.here == 1' }] });
    const fail = plugin({ t1: { policies: [broken('Fail')], bindings: [binding('b', { policyName: 'broken', validationActions: ['Deny'] })] } });
    expect((await refusal(fail, attrs('t1', deployment(1)))).message).toContain("denied request: expression 'object.spec.nothing.here == 1' resulted in error: no such key: nothing");
    const ignore = plugin({ t1: { policies: [broken('Ignore')], bindings: [binding('b', { policyName: 'broken', validationActions: ['Deny'] })] } });
    await ignore.admit(attrs('t1', deployment(1)));
  });

  it('adds the audit annotations of auditAnnotations, prefixed with the policy name', async () => {
    const p0 = policy('count', { matchConstraints: { resourceRules: [deploymentRule] }, auditAnnotations: [{ key: 'replicas', valueExpression: "'n=' + string(object.spec.replicas)" }] });
    const p = plugin({ t1: { policies: [p0], bindings: [binding('b', { policyName: 'count', validationActions: ['Audit'] })] } });
    const a = attrs('t1', deployment(4));
    await p.admit(a);
    expect(a.auditAnnotations.get('count/replicas')).toBe('n=4');
  });

  it('applies system-space policies to every space only when policy and binding carry the all-spaces label', async () => {
    const noLatest = (labels?: Record<string, string>) =>
      policy('no-latest', { matchConstraints: { resourceRules: [deploymentRule] }, validations: [{ expression: "!object.spec.template.spec.containers.exists(c, c.image.endsWith(':latest'))", message: 'no latest' }] }, labels);
    const marked = { [ALL_SPACES_LABEL]: 'true' };
    const everywhere = plugin({ system: { policies: [noLatest(marked)], bindings: [binding('b', { policyName: 'no-latest', validationActions: ['Deny'] }, marked)] } });
    for (const tenant of ['t1', 't2', 'system']) expect((await refusal(everywhere, attrs(tenant, deployment(1, 'nginx:latest')))).message).toContain('no latest');
    const systemOnly = plugin({ system: { policies: [noLatest()], bindings: [binding('b', { policyName: 'no-latest', validationActions: ['Deny'] })] } });
    await systemOnly.admit(attrs('t1', deployment(1, 'nginx:latest')));
    expect((await refusal(systemOnly, attrs('system', deployment(1, 'nginx:latest')))).message).toContain('no latest');
  });

  it('matches namespaces by their own labels', async () => {
    const p0 = policy('ns', {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { guarded: 'yes' } } },
      validations: [{ expression: 'false', message: 'no' }],
    });
    const p = plugin({ t1: { policies: [p0], bindings: [binding('b', { policyName: 'ns', validationActions: ['Deny'] })] } });
    const ns = (labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels } });
    await p.admit(attrs('t1', ns({}), namespaces as ResourceDefinition));
    expect((await refusal(p, attrs('t1', ns({ guarded: 'yes' }), namespaces as ResourceDefinition))).message).toBe(
      "namespaces \"n\" is forbidden: ValidatingAdmissionPolicy 'ns' with binding 'b' denied request: no",
    );
  });
});
