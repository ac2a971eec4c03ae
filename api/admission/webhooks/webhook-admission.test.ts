import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../access.js';
import { configMaps } from '../../kinds/core/config-map.js';
import { events as coreEvents } from '../../kinds/core/event.js';
import { events as eventsV1 } from '../../kinds/events/event.js';
import type { Webhook, WebhookConfiguration } from '../../kinds/admissionregistration/webhook-types.js';
import type { AdmissionAttributes } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, type ObjectConverter, type ResourceDefinition } from '../../registry/resource-definition.js';
import { ref, type Schema } from '../../schema/schema.js';
import { ApiError } from '../../status.js';
import type { AdmissionRequest } from './admission-review.js';
import type { WebhookAnswer, WebhookTarget } from './webhook-client.js';
import { ALL_SPACES_LABEL, MAX_SPACE_WEBHOOKS, WebhookAdmission } from './webhook-admission.js';

const user: UserInfo = { name: 'jane', uid: 'u1', groups: ['devs'], tenant: 't1', extra: {} };

/** A custom resource's schema: any fields, typed metadata. */
const CR_SCHEMA: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') } };

function hook(name: string, extra: Partial<Webhook> = {}): Webhook {
  return {
    name,
    clientConfig: { url: `https://hooks.example.com/${name}` },
    rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

function config(name: string, tenant: string, webhooks: Webhook[], labels?: Record<string, string>): WebhookConfiguration {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name, tenant, ...(labels ? { labels } : {}) }, webhooks };
}

type Responder = (request: AdmissionRequest, target: WebhookTarget) => Record<string, unknown> | WebhookAnswer;

/** A plugin over fixed configurations; `respond` plays every webhook and sees every request. */
function plugin(
  configs: { validating?: WebhookConfiguration[]; mutating?: WebhookConfiguration[] },
  respond: Responder,
  namespaces: Record<string, Record<string, string>> = {},
  equivalents: (def: ResourceDefinition) => ResourceDefinition[] = (def) => (def === coreEvents ? [eventsV1] : []),
) {
  const calls: Array<{ hook: string; request: AdmissionRequest; target: WebhookTarget }> = [];
  const admission = new WebhookAdmission({
    systemTenant: 'system',
    configurations: (kind, tenant) => (configs[kind] ?? []).filter((c) => c.metadata.tenant === tenant),
    readNamespace: async (tenant, name) => (namespaces[`${tenant}/${name}`] ? { metadata: { name, labels: namespaces[`${tenant}/${name}`] } } : undefined),
    resolveService: async () => ({ host: '10.0.0.7', port: 8443 }),
    equivalents: (_tenant, def) => equivalents(def),
    post: async (target, body) => {
      const request = (JSON.parse(body) as { request: AdmissionRequest }).request;
      calls.push({ hook: target.url, request, target });
      const answer = respond(request, target);
      if ('error' in answer || ('status' in answer && 'body' in answer)) return answer as WebhookAnswer;
      return { status: 200, body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, ...answer } } };
    },
  });
  return { admission, calls };
}

function attrs(extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', tenant: 't1', labels: { app: 'web' } }, data: { a: 'b' } };
  return { operation: 'create', def: configMaps, tenant: 't1', namespace: 'ns', object, old: undefined, user, warnings: [], ...extra };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('WebhookAdmission', () => {
  it("refuses with the webhook's message and code, as kube's ToStatusErr", async () => {
    const { admission } = plugin({ validating: [config('c', 't1', [hook('deny.example.com')])] }, () => ({ allowed: false, status: { code: 403, message: 'no thanks' } }));
    const err = await refusal(admission.admit(attrs()));
    expect([err.code, err.reason, err.message]).toEqual([403, '', 'admission webhook "deny.example.com" denied the request: no thanks']);
    const bare = plugin({ validating: [config('c', 't1', [hook('deny.example.com')])] }, () => ({ allowed: false }));
    const e2 = await refusal(bare.admission.admit(attrs()));
    expect([e2.code, e2.message]).toEqual([400, 'admission webhook "deny.example.com" denied the request without explanation']);
  });

  it("sends a space's requests only to its own webhooks, with the requester's space in userInfo.extra", async () => {
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('a.example.com')]), config('c', 't2', [hook('b.example.com')])] }, () => ({ allowed: true }));
    await admission.admit(attrs());
    expect(calls.map((c) => c.hook)).toEqual(['https://hooks.example.com/a.example.com']);
    const request = calls[0]!.request;
    expect(request.userInfo).toEqual({ username: 'jane', uid: 'u1', groups: ['devs'], extra: { 'kube-spaces.io/tenant': ['t1'] } });
    expect(request).toMatchObject({ operation: 'CREATE', name: 'cm', namespace: 'ns', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { resource: 'configmaps' }, dryRun: false, oldObject: null });
    expect(request.object?.metadata.tenant).toBe('t1');
  });

  it('runs labelled system configurations before the space’s own, by name, and unlabelled ones in the system space only', async () => {
    const { admission, calls } = plugin(
      {
        validating: [
          config('z-own', 't1', [hook('own.example.com')]),
          config('b-platform', 'system', [hook('platform.example.com')], { [ALL_SPACES_LABEL]: 'true' }),
          config('a-local', 'system', [hook('local.example.com')]),
        ],
      },
      () => ({ allowed: true }),
    );
    await admission.admit(attrs());
    expect(calls.map((c) => c.hook.split('/').pop())).toEqual(['platform.example.com', 'own.example.com']);
    calls.length = 0;
    await admission.admit(attrs({ tenant: 'system', object: { ...attrs().object, metadata: { ...attrs().object.metadata, tenant: 'system' } } }));
    expect(calls.map((c) => c.hook.split('/').pop())).toEqual(['local.example.com', 'platform.example.com']);
    calls.length = 0;
    const { tenants } = await import('../../kinds/core/tenant.js');
    const allRules = { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }] };
    const above = plugin({ validating: [config('a', 'system', [hook('sys.example.com', allRules)]), config('b', 't1', [hook('t1.example.com', allRules)])] }, () => ({ allowed: true }));
    await above.admission.admit(attrs({ def: tenants, tenant: '', namespace: undefined, object: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't3' } } }));
    expect(above.calls.map((c) => c.hook.split('/').pop())).toEqual(['sys.example.com']);
  });

  it('applies failurePolicy: Ignore lets a failed call through, Fail is an internal error in kube’s words', async () => {
    const down: Responder = (_r, target) => ({ error: `Post "${target.url}?timeout=10s": dial tcp 10.0.0.1:443: connect: connection refused` });
    await plugin({ validating: [config('c', 't1', [hook('x.example.com', { failurePolicy: 'Ignore' })])] }, down).admission.admit(attrs());
    const err = await refusal(plugin({ validating: [config('c', 't1', [hook('x.example.com')])] }, down).admission.admit(attrs()));
    const why = 'failed calling webhook "x.example.com": failed to call webhook: Post "https://hooks.example.com/x.example.com?timeout=10s": dial tcp 10.0.0.1:443: connect: connection refused';
    expect([err.code, err.reason, err.message, err.details]).toEqual([500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] }]);
  });

  it('refuses answers that are not a review of this request', async () => {
    const cases: Array<[Responder, string]> = [
      [(r) => ({ status: 200, body: { apiVersion: 'v1', kind: 'Status', response: { uid: r.uid } } }), 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /v1, Kind=Status'],
      [() => ({ status: 200, body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } }), 'webhook response was absent'],
      [() => ({ uid: 'other', allowed: true }), 'expected response.uid='],
    ];
    for (const [respond, text] of cases) {
      const err = await refusal(plugin({ validating: [config('c', 't1', [hook('x.example.com')])] }, respond).admission.admit(attrs()));
      expect(err.message).toContain(`failed calling webhook "x.example.com": received invalid webhook response: ${text}`);
    }
    const status = await refusal(plugin({ validating: [config('c', 't1', [hook('x.example.com')])] }, () => ({ status: 500, body: { secret: 'of another server' } })).admission.admit(attrs()));
    expect(status.message).toContain('the server responded with the status code 500 but did not return more information');
    expect(status.message).not.toContain('secret');
  });

  it('applies a JSONPatch in place, re-defaulted, and refuses one that moves the object to another space', async () => {
    const patch = (ops: unknown[]) => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
    const a = attrs();
    const object = a.object;
    await plugin({ mutating: [config('m', 't1', [hook('m.example.com')])] }, () => patch([{ op: 'add', path: '/metadata/labels/added', value: 'yes' }, { op: 'add', path: '/unknown', value: 1 }])).admission.mutate(a);
    expect(a.object).toBe(object);
    expect(object.metadata.labels).toEqual({ app: 'web', added: 'yes' });
    expect(object['unknown']).toBeUndefined();
    const err = await refusal(plugin({ mutating: [config('m', 't1', [hook('m.example.com')])] }, () => patch([{ op: 'replace', path: '/metadata/tenant', value: 't2' }])).admission.mutate(attrs()));
    expect([err.code, err.message]).toEqual([500, 'Internal error occurred: admission webhook "m.example.com" may not change metadata.tenant']);
    const owned = attrs();
    owned.object.metadata.uid = 'u-1';
    await plugin({ mutating: [config('m', 't1', [hook('m.example.com')])] }, () => patch([{ op: 'replace', path: '/metadata/uid', value: 'stolen' }, { op: 'add', path: '/metadata/generation', value: 9 }])).admission.mutate(owned);
    expect([owned.object.metadata.uid, owned.object.metadata.generation]).toEqual(['u-1', undefined]);
    const bad = await refusal(plugin({ mutating: [config('m', 't1', [hook('m.example.com')])] }, () => patch([{ op: 'remove', path: '/nope' }])).admission.mutate(attrs()));
    expect(bad.code).toBe(500);
  });

  it('calls an IfNeeded webhook again when a later one changed the object', async () => {
    let n = 0;
    const { admission, calls } = plugin(
      { mutating: [config('a', 't1', [hook('first.example.com', { reinvocationPolicy: 'IfNeeded' })]), config('b', 't1', [hook('second.example.com')])] },
      (_r, target) => (target.url.endsWith('second.example.com') ? { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: `/data/k${n++}`, value: 'v' }])).toString('base64') } : { allowed: true }),
    );
    await admission.mutate(attrs());
    expect(calls.map((c) => c.hook.split('/').pop())).toEqual(['first.example.com', 'second.example.com', 'first.example.com']);
  });

  it('matches by namespace selector, object selector and match conditions', async () => {
    const configs = {
      validating: [
        config('c', 't1', [
          hook('ns.example.com', { namespaceSelector: { matchLabels: { team: 'a' } } }),
          hook('obj.example.com', { objectSelector: { matchLabels: { app: 'db' } } }),
          hook('cond.example.com', { matchConditions: [{ name: 'jane', expression: "request.userInfo.username == 'jane' && object.data.a == 'b'" }] }),
          hook('nocond.example.com', { matchConditions: [{ name: 'bob', expression: "request.userInfo.username == 'bob'" }] }),
        ]),
      ],
    };
    const { admission, calls } = plugin(configs, () => ({ allowed: true }), { 't1/ns': { team: 'a' } });
    await admission.admit(attrs());
    expect(calls.map((c) => c.hook.split('/').pop())).toEqual(['ns.example.com', 'cond.example.com']);
  });

  it('reaches a webhook through an equivalent version of the resource (matchPolicy Equivalent), not under Exact', async () => {
    const rules = [{ operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'], scope: '*' }];
    const event: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns', tenant: 't1' }, reason: 'Started', involvedObject: { kind: 'Pod', name: 'p' } };
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('eq.example.com', { rules }), hook('exact.example.com', { rules, matchPolicy: 'Exact' })])] }, () => ({ allowed: true }));
    await admission.admit(attrs({ def: coreEvents, object: event }));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.request).toMatchObject({ kind: { group: 'events.k8s.io', kind: 'Event' }, requestKind: { group: '', kind: 'Event' } });
    expect(calls[0]!.request.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', regarding: { kind: 'Pod', name: 'p' } });
  });

  it('converts a custom resource for an equivalent version through its CRD conversion webhook, and the patch back', async () => {
    const converted: string[] = [];
    const converter: ObjectConverter = {
      async convert(objects, apiVersion, tenant) {
        converted.push(`${tenant} ${apiVersion}`);
        return objects.map((o) => ({ ...structuredClone(o), apiVersion, spec: apiVersion.endsWith('/v1') ? { cronSpec: 'x' } : { schedule: 'x' } }));
      },
    };
    const common = { group: 'stable.example.com', kind: 'CronTab', resource: 'crontabs', scope: 'namespace' as const, storageVersion: 'v1', converter, unstructured: true, schema: CR_SCHEMA };
    const v1 = defineKind<KubeObject>({ ...common, version: 'v1' });
    const v2 = defineKind<KubeObject>({ ...common, version: 'v2' });
    const rules = [{ operations: ['CREATE'], apiGroups: ['stable.example.com'], apiVersions: ['v1'], resources: ['crontabs'], scope: '*' }];
    const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { seen: 'v1' } }])).toString('base64');
    const { admission, calls } = plugin({ mutating: [config('c', 't1', [hook('conv.example.com', { rules })])] }, () => ({ allowed: true, patchType: 'JSONPatch', patch }), {}, (def) => (def === v2 ? [v1] : []));
    const object: KubeObject = { apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata: { name: 'c', namespace: 'ns', tenant: 't1' }, spec: { schedule: 'x' } } as KubeObject;
    const asked = attrs({ def: v2, object });
    await admission.mutate(asked);
    expect(calls[0]!.request.object).toMatchObject({ apiVersion: 'stable.example.com/v1', spec: { cronSpec: 'x' } });
    expect(asked.object).toMatchObject({ apiVersion: 'stable.example.com/v2', metadata: { labels: { seen: 'v1' } }, spec: { schedule: 'x' } });
    expect(converted).toEqual(['t1 stable.example.com/v1', 't1 stable.example.com/v2']);
  });

  it('refuses a dry run a webhook with side effects would see, and sends DELETE with the old object only', async () => {
    const err = await refusal(plugin({ validating: [config('c', 't1', [hook('fx.example.com', { sideEffects: 'Some' })])] }, () => ({ allowed: true })).admission.admit(attrs({ dryRun: true })));
    expect([err.code, err.message]).toEqual([400, 'admission webhook "fx.example.com" does not support dry run']);
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('d.example.com')])] }, () => ({ allowed: true }));
    const a = attrs();
    await admission.admit({ ...a, operation: 'delete', old: a.object });
    expect(calls[0]!.request).toMatchObject({ operation: 'DELETE', object: null, oldObject: { metadata: { name: 'cm' } }, options: { kind: 'DeleteOptions' } });
  });

  it("caps a space's own matching webhooks, never the system's", async () => {
    const many = Array.from({ length: MAX_SPACE_WEBHOOKS + 1 }, (_, i) => hook(`h${i}.example.com`));
    const err = await refusal(plugin({ validating: [config('c', 't1', many)] }, () => ({ allowed: true })).admission.admit(attrs()));
    expect(err.message).toBe(`Internal error occurred: more than ${MAX_SPACE_WEBHOOKS} validating admission webhooks of this space match the request`);
  });

  it('passes warnings on and leaves the server’s own writes alone', async () => {
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('w.example.com')])] }, () => ({ allowed: true, warnings: ['careful'] }));
    const a = attrs();
    await admission.admit(a);
    expect(a.warnings).toEqual(['careful']);
    await admission.admit(attrs({ user: undefined }));
    expect(calls).toHaveLength(1);
  });

  it('resolves a service reference in the configuration’s space and keeps the service name for TLS', async () => {
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('svc.example.com', { clientConfig: { service: { namespace: 'hooks', name: 'webhook', path: '/v', port: 443 } } })])] }, () => ({ allowed: true }));
    await admission.admit(attrs());
    expect(calls[0]!.target).toMatchObject({ url: 'https://webhook.hooks.svc:443/v', connectTo: { host: '10.0.0.7', port: 8443 } });
  });
});

describe('WebhookAdmission exemptions', () => {
  it('never sends admission configuration to webhooks, so a broken webhook can be removed', async () => {
    const { validatingWebhookConfigurations } = await import('../../kinds/admissionregistration/webhook-configurations.js');
    const { admission, calls } = plugin({ validating: [config('c', 't1', [hook('all.example.com', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }] })])] }, () => ({ allowed: false }));
    const a = attrs();
    await admission.admit({ ...a, def: validatingWebhookConfigurations, object: config('c', 't1', []), namespace: undefined });
    expect(calls).toHaveLength(0);
  });
});

describe('WebhookAdmission match condition bounds', () => {
  it('does not run nested loops that could pass the per-call limit on this request, and fails the call instead', async () => {
    const nested = hook('n.example.com', { matchConditions: [{ name: 'n', expression: 'object.data.all(k, object.data.all(j, true))' }] });
    const big = attrs();
    big.object['data'] = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, 'v']));
    const err = await refusal(plugin({ validating: [config('c', 't1', [nested])] }, () => ({ allowed: true })).admission.admit(big));
    expect(err.message).toBe('Internal error occurred: failed calling webhook "n.example.com": failed to evaluate match condition "n": operation cancelled: actual cost limit exceeded');
    const small = plugin({ validating: [config('c', 't1', [nested])] }, () => ({ allowed: true }));
    await small.admission.admit(attrs());
    expect(small.calls).toHaveLength(1);
  });
});

describe('WebhookAdmission audit annotations', () => {
  it("records an answer's audit annotations under the webhook's name, dropping invalid keys", async () => {
    const { admission } = plugin({ validating: [config('c', 't1', [hook('audit.example.com')])] }, () => ({ allowed: true, auditAnnotations: { checked: 'yes', 'bad key!': 'x' } }));
    const a = attrs({ auditAnnotations: new Map() });
    await admission.admit(a);
    expect([...a.auditAnnotations!]).toEqual([['audit.example.com/checked', 'yes']]);
  });
});
