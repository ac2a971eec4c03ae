/**
 * Structural schemas of custom resources end to end (issue 12, point 3): one CRD in a tenant's
 * space, and a table of bodies written to it, each answered as kube-apiserver answers it — types,
 * formats, required, enums, patterns, bounds, defaults (nested, in arrays, on read from storage),
 * pruning per fieldValidation, preserve-unknown-fields, int-or-string, embedded resources,
 * nullable, the schema combinators — then the status and scale subresources, server-side apply
 * merging a list-map by its keys, namespace and space deletion taking custom resources with
 * them, and CEL rules (a transition rule, a rule over the cost limit; more in crd-cel.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import type { ApiResponse } from './harness/api-client.js';
import { createTenants, eventually, grantAndWait, inSpace, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'gizmos.schemas.example.com';
const GIZMOS = '/apis/schemas.example.com/v1/namespaces/default/gizmos';

const specSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[a-z]+$' },
    size: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
    step: { type: 'integer', multipleOf: 5 },
    color: { type: 'string', enum: ['red', 'blue'] },
    enabled: { type: 'boolean' },
    when: { type: 'string', format: 'date-time' },
    addr: { type: 'string', format: 'ipv4' },
    tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string', maxLength: 3 } },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port'],
      items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } },
    },
    labels: { type: 'object', maxProperties: 2, additionalProperties: { type: 'string' } },
    nested: { type: 'object', default: {}, properties: { level: { type: 'string', default: 'info' }, deep: { type: 'object', properties: { x: { type: 'integer', default: 7 } } } } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    port: { 'x-kubernetes-int-or-string': true },
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    maybe: { type: 'string', nullable: true },
    never: { type: 'string' },
    choice: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, oneOf: [{ required: ['a'] }, { required: ['b'] }] },
    band: { type: 'integer', anyOf: [{ maximum: 5 }, { minimum: 100 }] },
    nonzero: { type: 'integer', not: { enum: [0] } },
  },
};

function gizmoCrd(extraSpec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'schemas.example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', kind: 'Gizmo' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { ...specSchema, properties: { ...specSchema.properties, ...extraSpec } },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, phase: { type: 'string', enum: ['Pending', 'Running'] } } },
              },
            },
          },
        },
      ],
    },
  };
}

type Expect = { causes: string[] } | { spec: Record<string, unknown> };

/** [what, spec sent, fieldValidation, what kube-apiserver answers]: causes of a 422, or the stored spec. */
const rows: Array<[string, Record<string, unknown>, Expect]> = [
  // types
  ['a minimal valid object, defaults filled', { name: 'ok' }, { spec: { name: 'ok', size: 3, nested: { level: 'info' } } }],
  ['a string field given a number', { name: 5 }, { causes: ['spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"'] }],
  ['an integer field given a string', { name: 'ok', size: 'big' }, { causes: ['spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"'] }],
  ['an integer field given a fraction', { name: 'ok', size: 1.5 }, { causes: ['spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"'] }],
  ['a number field given a string', { name: 'ok', ratio: 'half' }, { causes: ['spec.ratio: Invalid value: "string": spec.ratio in body must be of type number: "string"'] }],
  ['a number field given a fraction', { name: 'ok', ratio: 0.5 }, { spec: { name: 'ok', size: 3, ratio: 0.5, nested: { level: 'info' } } }],
  ['a boolean field given a string', { name: 'ok', enabled: 'true' }, { causes: ['spec.enabled: Invalid value: "string": spec.enabled in body must be of type boolean: "string"'] }],
  ['an array field given an object', { name: 'ok', tags: { a: 1 } }, { causes: ['spec.tags: Invalid value: "object": spec.tags in body must be of type array: "object"'] }],
  ['an object field given an array', { name: 'ok', labels: ['a'] }, { causes: ['spec.labels: Invalid value: "array": spec.labels in body must be of type object: "array"'] }],
  ['a map value of the wrong type', { name: 'ok', labels: { a: 1 } }, { causes: ['spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"'] }],
  // required
  ['a required field missing', {}, { causes: ['spec.name: Required value'] }],
  ['a required field missing in an array item', { name: 'ok', ports: [{ name: 'web' }] }, { causes: ['spec.ports[0].port: Required value'] }],
  // enums
  ['a value outside the enum', { name: 'ok', color: 'pink' }, { causes: ['spec.color: Unsupported value: "pink": supported values: "red", "blue"'] }],
  ['a value of the enum', { name: 'ok', color: 'blue' }, { spec: { name: 'ok', size: 3, color: 'blue', nested: { level: 'info' } } }],
  // patterns and lengths
  ['a string not matching the pattern', { name: 'ABC' }, { causes: [`spec.name: Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`] }],
  ['a string under minLength', { name: 'a' }, { causes: ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long'] }],
  ['a string over maxLength', { name: 'abcdefghi' }, { causes: ['spec.name: Too long: may not be more than 8 bytes'] }],
  ['an array item over maxLength', { name: 'ok', tags: ['a', 'abcd'] }, { causes: ['spec.tags[1]: Too long: may not be more than 3 bytes'] }],
  // bounds
  ['an integer under minimum', { name: 'ok', size: 0 }, { causes: ['spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1'] }],
  ['an integer over maximum', { name: 'ok', size: 11 }, { causes: ['spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10'] }],
  ['a number at an exclusive minimum', { name: 'ok', ratio: 0 }, { causes: ['spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0'] }],
  ['a number at an exclusive maximum', { name: 'ok', ratio: 1 }, { causes: ['spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1'] }],
  ['an integer not a multiple', { name: 'ok', step: 7 }, { causes: ['spec.step: Invalid value: 7: spec.step in body should be a multiple of 5'] }],
  ['an array under minItems', { name: 'ok', tags: [] }, { causes: ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items'] }],
  ['an array over maxItems', { name: 'ok', tags: ['a', 'b', 'c', 'd'] }, { causes: ['spec.tags: Too many: 4: must have at most 3 items'] }],
  ['a map over maxProperties', { name: 'ok', labels: { a: 'x', b: 'y', c: 'z' } }, { causes: ['spec.labels: Too many: 3: must have at most 2 items'] }],
  // formats
  ['a date-time that is not one', { name: 'ok', when: 'yesterday' }, { causes: ['spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"'] }],
  ['a date-time', { name: 'ok', when: '2026-12-02T10:00:00Z' }, { spec: { name: 'ok', size: 3, when: '2026-12-02T10:00:00Z', nested: { level: 'info' } } }],
  ['an ipv4 that is not one', { name: 'ok', addr: '300.1.1.1' }, { causes: ['spec.addr: Invalid value: "300.1.1.1": spec.addr in body must be of type ipv4: "300.1.1.1"'] }],
  // defaults
  ['nested defaults inside an object that exists', { name: 'ok', nested: { deep: {} } }, { spec: { name: 'ok', size: 3, nested: { level: 'info', deep: { x: 7 } } } }],
  ['defaults in array items', { name: 'ok', ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }, { spec: { name: 'ok', size: 3, ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], nested: { level: 'info' } } }],
  ['a null where a default is', { name: 'ok', size: null, nested: null }, { spec: { name: 'ok', size: 3, nested: { level: 'info' } } }],
  ['a given value is kept over the default', { name: 'ok', size: 9, nested: { level: 'debug' } }, { spec: { name: 'ok', size: 9, nested: { level: 'debug' } } }],
  // pruning and preserved fields
  ['an unknown field, pruned', { name: 'ok', bogus: 1 }, { spec: { name: 'ok', size: 3, nested: { level: 'info' } } }],
  ['an unknown nested field, pruned', { name: 'ok', nested: { level: 'x', bogus: { y: 1 } } }, { spec: { name: 'ok', size: 3, nested: { level: 'x' } } }],
  ['unknown fields under preserve-unknown-fields, kept', { name: 'ok', free: { any: { deep: [1, 'two'] } } }, { spec: { name: 'ok', size: 3, free: { any: { deep: [1, 'two'] } }, nested: { level: 'info' } } }],
  // int-or-string
  ['int-or-string given an integer', { name: 'ok', port: 8080 }, { spec: { name: 'ok', size: 3, port: 8080, nested: { level: 'info' } } }],
  ['int-or-string given a string', { name: 'ok', port: 'http' }, { spec: { name: 'ok', size: 3, port: 'http', nested: { level: 'info' } } }],
  ['int-or-string given a boolean', { name: 'ok', port: true }, { causes: ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'] }],
  // embedded resources
  [
    'an embedded resource keeps its type and metadata',
    { name: 'ok', template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [] } } },
    { spec: { name: 'ok', size: 3, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { containers: [] } }, nested: { level: 'info' } } },
  ],
  ['an embedded resource without apiVersion and kind', { name: 'ok', template: { spec: {} } }, { causes: ['spec.template.apiVersion: Required value: must not be empty', 'spec.template.kind: Required value: must not be empty'] }],
  // nullable
  ['null where nullable, kept', { name: 'ok', maybe: null }, { spec: { name: 'ok', size: 3, maybe: null, nested: { level: 'info' } } }],
  ['null where not nullable, dropped', { name: 'ok', never: null }, { spec: { name: 'ok', size: 3, nested: { level: 'info' } } }],
  ['null as an array item', { name: 'ok', tags: [null] }, { causes: ['spec.tags[0]: Invalid value: "null": spec.tags[0] in body must be of type string: "null"'] }],
  // combinators
  ['oneOf met once', { name: 'ok', choice: { a: 'x' } }, { spec: { name: 'ok', size: 3, choice: { a: 'x' }, nested: { level: 'info' } } }],
  ['oneOf met twice', { name: 'ok', choice: { a: 'x', b: 'y' } }, { causes: ['spec.choice: Invalid value: "": spec.choice in body must validate one and only one schema (oneOf)'] }],
  ['anyOf met by none', { name: 'ok', band: 50 }, { causes: ['spec.band: Invalid value: "": spec.band in body must validate at least one schema (anyOf)'] }],
  ['anyOf met by one', { name: 'ok', band: 200 }, { spec: { name: 'ok', size: 3, band: 200, nested: { level: 'info' } } }],
  ['not met', { name: 'ok', nonzero: 0 }, { causes: ['spec.nonzero: Invalid value: "": spec.nonzero in body must not validate the schema (not)'] }],
  // several at once
  ['several failures, one cause each', { size: 0, color: 'pink' }, { causes: ['spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1', 'spec.color: Unsupported value: "pink": supported values: "red", "blue"', 'spec.name: Required value'] }],
];

describe.each(backendCases())('custom resource schemas on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('in a tenant’s space', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let n = 0;

    const gizmo = (spec: Record<string, unknown>, name = `g${n++}`) => ({ apiVersion: 'schemas.example.com/v1', kind: 'Gizmo', metadata: { name }, spec });
    const causesOf = (res: ApiResponse) => res.json<{ details?: { causes?: Array<{ field: string; message: string }> } }>().details?.causes?.map((c) => `${c.field}: ${c.message}`);

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, CRDS);
      const created = await alice.api.request('POST', CRDS, { json: gizmoCrd() });
      expect(created.status, created.body).toBe(201);
      await eventually('gizmos served', async () => (await alice.api.request('GET', GIZMOS)).status === 200);
    });

    afterAll(async () => {
      alice?.api.close();
      await cluster?.cleanup();
    });

    it.each(rows)('%s', async (_what, spec, expected) => {
      const res = await alice.api.request('POST', `${GIZMOS}?fieldValidation=Ignore`, { json: gizmo(spec) });
      if ('causes' in expected) {
        expect(res.status, res.body).toBe(422);
        expect(res.json()).toMatchObject({ reason: 'Invalid', details: { group: 'schemas.example.com', kind: 'Gizmo' } });
        expect(causesOf(res)).toEqual(expected.causes);
      } else {
        expect(res.status, res.body).toBe(201);
        const name = res.json<{ metadata: { name: string } }>().metadata.name;
        expect(res.json<{ spec: unknown }>().spec).toEqual(expected.spec);
        expect((await alice.api.request('GET', `${GIZMOS}/${name}`)).json<{ spec: unknown }>().spec).toEqual(expected.spec);
      }
    });

    it('reports unknown fields per fieldValidation: Strict refuses, Warn warns, Ignore is silent', async () => {
      const strict = await alice.api.request('POST', `${GIZMOS}?fieldValidation=Strict`, { json: gizmo({ name: 'ok', bogus: 1, nested: { what: 2 } }) });
      expect(strict.status).toBe(400);
      expect(strict.json<{ message: string }>().message).toBe('Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: unknown field "spec.bogus", unknown field "spec.nested.what"');
      const warn = await alice.api.request('POST', `${GIZMOS}?fieldValidation=Warn`, { json: gizmo({ name: 'ok', bogus: 1 }) });
      expect(warn.status).toBe(201);
      expect(warn.headers['warning']).toBe('299 - "unknown field \\"spec.bogus\\""');
      const ignore = await alice.api.request('POST', `${GIZMOS}?fieldValidation=Ignore`, { json: gizmo({ name: 'ok', bogus: 1 }) });
      expect(ignore.status).toBe(201);
      expect(ignore.headers['warning']).toBeUndefined();
    });

    it('writes spec and status apart through the status subresource', async () => {
      const created = await alice.api.request('POST', GIZMOS, { json: { ...gizmo({ name: 'ok' }, 'split'), status: { phase: 'Running' } } });
      expect(created.status, created.body).toBe(201);
      expect(created.json<{ status?: unknown }>().status).toBeUndefined();
      const current = created.json<{ metadata: { resourceVersion: string; generation: number } }>();
      const status = await alice.api.request('PUT', `${GIZMOS}/split/status`, { json: { ...gizmo({ name: 'changed' }, 'split'), metadata: { name: 'split', resourceVersion: current.metadata.resourceVersion }, status: { phase: 'Running', replicas: 2, selector: 'app=gizmo' } } });
      expect(status.status, status.body).toBe(200);
      expect(status.json()).toMatchObject({ spec: { name: 'ok' }, status: { phase: 'Running', replicas: 2 }, metadata: { generation: current.metadata.generation } });
      const badStatus = await alice.api.request('PATCH', `${GIZMOS}/split/status`, { body: '{"status":{"phase":"Gone"}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(badStatus.status).toBe(422);
      expect(causesOf(badStatus)).toEqual(['status.phase: Unsupported value: "Gone": supported values: "Pending", "Running"']);
      const spec = await alice.api.request('PATCH', `${GIZMOS}/split`, { body: '{"spec":{"size":5},"status":{"phase":"Pending"}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(spec.status, spec.body).toBe(200);
      expect(spec.json()).toMatchObject({ spec: { size: 5 }, status: { phase: 'Running' }, metadata: { generation: current.metadata.generation + 1 } });
    });

    it('scales through the scale subresource, validated by the schema', async () => {
      const scale = await alice.api.request('GET', `${GIZMOS}/split/scale`);
      expect(scale.status, scale.body).toBe(200);
      expect(scale.json()).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { replicas: 2, selector: 'app=gizmo' } });
      const up = await alice.api.request('PATCH', `${GIZMOS}/split/scale`, { body: '{"spec":{"replicas":7}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(up.status, up.body).toBe(200);
      expect((await alice.api.request('GET', `${GIZMOS}/split`)).json()).toMatchObject({ spec: { size: 7 } });
      const tooMany = await alice.api.request('PATCH', `${GIZMOS}/split/scale`, { body: '{"spec":{"replicas":11}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(tooMany.status).toBe(422);
      expect(causesOf(tooMany)).toEqual(['spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10']);
    });

    it('merges a list-map by its keys under server-side apply, each manager owning its items', async () => {
      const apply = (manager: string, ports: unknown[]) =>
        alice.api.request('PATCH', `${GIZMOS}/applied?fieldManager=${manager}`, {
          body: JSON.stringify(gizmo({ name: 'ok', ports }, 'applied')),
          headers: { 'content-type': 'application/apply-patch+yaml' },
        });
      expect((await apply('one', [{ port: 80, name: 'web' }])).status).toBe(201);
      const second = await apply('two', [{ port: 443, name: 'tls' }]);
      expect(second.status, second.body).toBe(200);
      expect(second.json<{ spec: { ports: unknown[] } }>().spec.ports).toEqual([
        { port: 80, name: 'web', protocol: 'TCP' },
        { port: 443, name: 'tls', protocol: 'TCP' },
      ]);
      const dropped = await apply('one', []);
      expect(dropped.json<{ spec: { ports: unknown[] } }>().spec.ports).toEqual([{ port: 443, name: 'tls', protocol: 'TCP' }]);
    });

    it('applies a default added to the schema later when reading stored objects', async () => {
      const stored = await alice.api.request('POST', GIZMOS, { json: gizmo({ name: 'old' }, 'before-default') });
      expect(stored.status).toBe(201);
      const crd = (await alice.api.request('GET', `${CRDS}/${NAME}`)).json<{ metadata: { resourceVersion: string } }>();
      const updated = await alice.api.request('PUT', `${CRDS}/${NAME}`, { json: { ...gizmoCrd({ mode: { type: 'string', default: 'fast' } }), metadata: { name: NAME, resourceVersion: crd.metadata.resourceVersion } } });
      expect(updated.status, updated.body).toBe(200);
      await eventually('the default read from storage', async () => (await alice.api.request('GET', `${GIZMOS}/before-default`)).json<{ spec: { mode?: string } }>().spec.mode === 'fast');
      const listed = (await alice.api.request('GET', GIZMOS)).json<{ items: Array<{ metadata: { name: string }; spec: { mode?: string } }> }>();
      expect(listed.items.find((i) => i.metadata.name === 'before-default')?.spec.mode).toBe('fast');
    });

    it('deletes custom resources with their namespace, and with their space', async () => {
      expect((await alice.api.request('POST', '/api/v1/namespaces', { json: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'going' } } })).status).toBe(201);
      const inGoing = '/apis/schemas.example.com/v1/namespaces/going/gizmos';
      expect((await alice.api.request('POST', inGoing, { json: gizmo({ name: 'ok' }, 'doomed') })).status).toBe(201);
      expect((await alice.api.request('DELETE', '/api/v1/namespaces/going')).status).toBe(200);
      await eventually('the namespace to be gone', async () => (await alice.api.request('GET', '/api/v1/namespaces/going')).status === 404);
      expect((await alice.api.request('GET', `${inGoing}/doomed`)).status).toBe(404);

      await createTenants(cluster, 'gone');
      expect((await inSpace(cluster, 'gone', 'POST', CRDS, gizmoCrd())).status).toBe(201);
      await eventually('gizmos served in space gone', async () => (await inSpace(cluster, 'gone', 'GET', GIZMOS)).status === 200);
      expect((await inSpace(cluster, 'gone', 'POST', GIZMOS, gizmo({ name: 'ok' }, 'last'))).status).toBe(201);
      expect((await cluster.api.request('DELETE', '/api/v1/tenants/gone')).status).toBe(200);
      await eventually('space gone to be gone', async () => (await cluster.api.request('GET', '/api/v1/tenants/gone')).status === 404, 60_000);
      const leftovers = (await cluster.api.request('GET', '/tenants/all/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).json<{ items: Array<{ metadata: { tenant: string } }> }>();
      expect(leftovers.items.filter((i) => i.metadata.tenant === 'gone')).toEqual([]);
      // t1's gizmos are untouched.
      expect((await alice.api.request('GET', `${GIZMOS}/split`)).status).toBe(200);
    });

    it('evaluates a CEL transition rule (self <= oldSelf), and refuses a rule over the cost limit', async () => {
      const withRule = gizmoCrd({ limited: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self <= oldSelf', message: 'may only shrink' }] } });
      withRule.metadata.name = 'rules.schemas.example.com';
      withRule.spec.names = { plural: 'rules', kind: 'Rule' };
      expect((await alice.api.request('POST', CRDS, { json: withRule })).status).toBe(201);
      const RULES = '/apis/schemas.example.com/v1/namespaces/default/rules';
      await eventually('rules served', async () => (await alice.api.request('GET', RULES)).status === 200);
      const rule = (limited: number, resourceVersion?: string) => ({ ...gizmo({ name: 'ok', limited }, 'r1'), apiVersion: 'schemas.example.com/v1', kind: 'Rule', metadata: { name: 'r1', ...(resourceVersion ? { resourceVersion } : {}) } });
      const created = await alice.api.request('POST', RULES, { json: rule(5) });
      expect(created.status, created.body).toBe(201);
      const rv = created.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion;
      const grown = await alice.api.request('PUT', `${RULES}/r1`, { json: rule(6, rv) });
      expect(grown.status).toBe(422);
      expect(causesOf(grown)).toEqual(['spec.limited: Invalid value: "integer": may only shrink']);
      expect((await alice.api.request('PUT', `${RULES}/r1`, { json: rule(4, rv) })).status).toBe(200);

      const tooDear = gizmoCrd({ names: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))' }] } });
      tooDear.metadata.name = 'dears.schemas.example.com';
      tooDear.spec.names = { plural: 'dears', kind: 'Dear' };
      const refused = await alice.api.request('POST', CRDS, { json: tooDear });
      expect(refused.status).toBe(422);
      expect(causesOf(refused)?.[0]).toBe(
        'spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      );
    });
  });
});
