/**
 * Strategic merge patch, case by case. Every expected result is written out by hand from
 * Kubernetes' documented behaviour: the SMP design docs (strategic-merge-patch.md,
 * preserve-order-in-strategic-merge-patch.md) and apimachinery's `strategicpatch` test cases.
 * Where the ordering proposal and apimachinery's tests disagree (where server-only items land
 * among `$setElementOrder` items), the tests, which describe what clusters do, win.
 */
import { describe, expect, it } from 'vitest';
import { deployments } from '../kinds/apps/deployment.js';
import { pods } from '../kinds/core/pod.js';
import { services } from '../kinds/core/service.js';
import { podDisruptionBudgetSchema } from '../kinds/policy/poddisruptionbudget.js';
import type { KubeObject } from '../registry/object.js';
import { define, list, object, string, type Schema } from '../schema/schema.js';
import { ApiError } from '../status.js';
import { applyStrategicMergePatch, supportsStrategicMerge } from './strategic-merge.js';

/** A kind whose list says "merge" but names no merge key (no built-in kind is like that). */
const keylessSchema = define(
  'io.kube-spaces.test.v1.KeylessWidget',
  object('A test kind.', {
    metadata: object('Metadata.', {}),
    items: list(object('An item.', { value: string('A value.') }), 'Items.', { strategy: 'merge' }),
  }),
);

const freeFormSchema = define('io.kube-spaces.test.v1.FreeForm', { type: 'object', description: 'Anything.', 'x-kubernetes-preserve-unknown-fields': true });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Case {
  name: string;
  schema: Schema;
  live: Json;
  patch: Json;
  want?: Json;
  error?: { code: number; reason: string; message: string };
}

function pod(spec: Json, metadata: Record<string, Json> = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec };
}

function deployment(podSpec: Json, spec: Record<string, Json> = {}): Json {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { ...spec, template: { spec: podSpec } } };
}

function container(name: string, extra: Record<string, Json> = {}): Json {
  return { name, image: `${name}:1`, ...extra };
}

const P = pods.schema;
const D = deployments.schema;

const cases: Case[] = [
  // ---- maps -----------------------------------------------------------------------------------
  {
    name: 'adds a key to a map',
    schema: P,
    live: pod({}, { labels: { app: 'web' } }),
    patch: { metadata: { labels: { tier: 'front' } } },
    want: pod({}, { labels: { app: 'web', tier: 'front' } }),
  },
  {
    name: 'null deletes a key',
    schema: P,
    live: pod({}, { labels: { app: 'web', tier: 'front' } }),
    patch: { metadata: { labels: { tier: null } } },
    want: pod({}, { labels: { app: 'web' } }),
  },
  {
    name: 'null for an absent key changes nothing and is not stored',
    schema: P,
    live: pod({}, { labels: { app: 'web' } }),
    patch: { metadata: { annotations: null, labels: { gone: null } } },
    want: pod({}, { labels: { app: 'web' } }),
  },
  {
    name: 'nested maps merge recursively',
    schema: P,
    live: pod({ securityContext: { runAsUser: 1000, seLinuxOptions: { user: 'u', role: 'r' } } }),
    patch: { spec: { securityContext: { seLinuxOptions: { role: 'r2' } } } },
    want: pod({ securityContext: { runAsUser: 1000, seLinuxOptions: { user: 'u', role: 'r2' } } }),
  },
  {
    name: '$patch: replace makes a map literal',
    schema: P,
    live: pod({ nodeSelector: { disk: 'ssd', zone: 'a' } }),
    patch: { spec: { nodeSelector: { $patch: 'replace', zone: 'b' } } },
    want: pod({ nodeSelector: { zone: 'b' } }),
  },
  {
    name: '$patch: delete empties a map',
    schema: P,
    live: pod({ nodeSelector: { disk: 'ssd' } }),
    patch: { spec: { nodeSelector: { $patch: 'delete' } } },
    want: pod({ nodeSelector: {} }),
  },
  {
    name: '$patch: delete of an absent map leaves it absent',
    schema: P,
    live: pod({}),
    patch: { spec: { nodeSelector: { $patch: 'delete' } } },
    want: pod({}),
  },
  {
    name: '$patch: replace of an absent map stores the map without the directive',
    schema: P,
    live: pod({}),
    patch: { spec: { nodeSelector: { $patch: 'replace', zone: 'b' } } },
    want: pod({ nodeSelector: { zone: 'b' } }),
  },
  {
    name: 'a new map is stored without its nulls',
    schema: P,
    live: pod({}),
    patch: { spec: { securityContext: { runAsUser: 1, fsGroup: null } } },
    want: pod({ securityContext: { runAsUser: 1 } }),
  },
  {
    name: 'an unknown $patch value in a map is 400',
    schema: P,
    live: pod({ nodeSelector: { disk: 'ssd' } }),
    patch: { spec: { nodeSelector: { $patch: 'foo', a: 'b' } } },
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: foo in map: map[$patch:foo a:b]' },
  },
  {
    name: '$patch: merge in a map is 400 (merge is a schema strategy, not a patch directive)',
    schema: P,
    live: pod({ nodeSelector: { disk: 'ssd' } }),
    patch: { spec: { nodeSelector: { $patch: 'merge' } } },
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: merge in map: map[$patch:merge]' },
  },
  {
    name: 'a value of another shape replaces the live one',
    schema: P,
    live: pod({ extra: 'text' }),
    patch: { spec: { extra: { a: 1 } } },
    want: pod({ extra: { a: 1 } }),
  },
  {
    name: 'a map with patch strategy replace is replaced (PodDisruptionBudget selector)',
    schema: podDisruptionBudgetSchema,
    live: { metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
    patch: { spec: { selector: { matchLabels: { tier: 'db' } } } },
    want: { metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { tier: 'db' } } } },
  },
  {
    name: 'map-valued maps merge per key (resources.limits)',
    schema: P,
    live: pod({ containers: [container('web', { resources: { limits: { cpu: '1', memory: '1Gi' } } })] }),
    patch: { spec: { containers: [{ name: 'web', resources: { limits: { memory: '2Gi' } } }] } },
    want: pod({ containers: [container('web', { resources: { limits: { cpu: '1', memory: '2Gi' } } })] }),
  },

  // ---- lists merged by key --------------------------------------------------------------------
  {
    name: 'merges an item by its key, keeping its other fields',
    schema: P,
    live: pod({ containers: [container('web', { ports: [{ containerPort: 80 }] }), container('log')] }),
    patch: { spec: { containers: [{ name: 'web', image: 'web:2' }] } },
    want: pod({ containers: [{ name: 'web', image: 'web:2', ports: [{ containerPort: 80 }] }, container('log')] }),
  },
  {
    name: 'without $setElementOrder a new item goes before the live items the patch does not name',
    schema: P,
    live: pod({ containers: [container('web')] }),
    patch: { spec: { containers: [container('log')] } },
    want: pod({ containers: [container('log'), container('web')] }),
  },
  {
    name: 'items named in the patch take its order, the others keep their live places',
    schema: P,
    live: pod({ containers: [container('a'), container('b'), container('c')] }),
    patch: { spec: { containers: [{ name: 'c', image: 'c:2' }, { name: 'a', image: 'a:2' }] } },
    want: pod({ containers: [container('b'), { name: 'c', image: 'c:2' }, { name: 'a', image: 'a:2' }] }),
  },
  {
    name: 'a new item keyed by number (service ports) also goes first',
    schema: services.schema,
    live: { metadata: { name: 's' }, spec: { ports: [{ port: 80, protocol: 'TCP' }] } },
    patch: { spec: { ports: [{ port: 443, name: 'https' }] } },
    want: { metadata: { name: 's' }, spec: { ports: [{ port: 443, name: 'https' }, { port: 80, protocol: 'TCP' }] } },
  },
  {
    name: '$patch: delete removes an item by key',
    schema: P,
    live: pod({ containers: [container('web'), container('log')] }),
    patch: { spec: { containers: [{ name: 'log', $patch: 'delete' }] } },
    want: pod({ containers: [container('web')] }),
  },
  {
    name: '$patch: delete removes every item with that key',
    schema: P,
    live: pod({}, { ownerReferences: [{ uid: 'u1', name: 'a' }, { uid: 'u2', name: 'b' }, { uid: 'u1', name: 'c' }] }),
    patch: { metadata: { ownerReferences: [{ uid: 'u1', $patch: 'delete' }] } },
    want: pod({}, { ownerReferences: [{ uid: 'u2', name: 'b' }] }),
  },
  {
    name: '$patch: delete without the merge key is 422',
    schema: P,
    live: pod({ containers: [container('web')] }),
    patch: { spec: { containers: [{ image: 'x', $patch: 'delete' }] } },
    error: { code: 422, reason: 'Invalid', message: 'map: map[$patch:delete image:x] does not contain declared merge key: name' },
  },
  {
    name: 'an item {$patch: replace} makes the list literal',
    schema: P,
    live: pod({ containers: [container('web'), container('log')] }),
    patch: { spec: { containers: [container('new'), { $patch: 'replace' }] } },
    want: pod({ containers: [container('new')] }),
  },
  {
    name: 'a lone {$patch: replace} empties the list',
    schema: P,
    live: pod({ containers: [container('web'), container('log')] }),
    patch: { spec: { containers: [{ $patch: 'replace' }] } },
    want: pod({ containers: [] }),
  },
  {
    name: '{$patch: merge} in a list is 400',
    schema: P,
    live: pod({ containers: [container('web')] }),
    patch: { spec: { containers: [{ $patch: 'merge' }] } },
    error: { code: 400, reason: 'BadRequest', message: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'an item without its merge key is 422',
    schema: P,
    live: pod({ containers: [container('web')] }),
    patch: { spec: { containers: [{ image: 'nginx' }] } },
    error: { code: 422, reason: 'Invalid', message: 'map: map[image:nginx] does not contain declared merge key: name' },
  },
  {
    name: 'nested merge lists merge by their own key (ports by containerPort)',
    schema: P,
    live: pod({ containers: [container('web', { ports: [{ containerPort: 80, protocol: 'TCP' }] })] }),
    patch: { spec: { containers: [{ name: 'web', ports: [{ containerPort: 80, name: 'http' }] }] } },
    want: pod({ containers: [container('web', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] })] }),
  },
  {
    name: 'a list the live object lacks is taken from the patch, without directive items',
    schema: P,
    live: pod({ containers: [container('web')] }),
    patch: { spec: { containers: [{ name: 'web', env: [{ name: 'A', value: '1' }, { name: 'B', $patch: 'delete' }] }] } },
    want: pod({ containers: [container('web', { env: [{ name: 'A', value: '1' }] })] }),
  },
  {
    name: 'a list whose strategy is merge but has no merge key cannot merge maps (422)',
    schema: keylessSchema,
    live: { metadata: {}, items: [{ value: 'a' }] },
    patch: { items: [{ value: 'b' }] },
    error: { code: 422, reason: 'Invalid', message: 'cannot merge lists without merge key for items' },
  },

  // ---- $setElementOrder -----------------------------------------------------------------------
  {
    name: '$setElementOrder alone reorders a list',
    schema: P,
    live: pod({ containers: [container('a'), container('b')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
    want: pod({ containers: [container('b'), container('a')] }),
  },
  {
    name: '$setElementOrder places an added item',
    schema: P,
    live: pod({ containers: [container('a'), container('b')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'c' }, { name: 'b' }], containers: [container('c')] } },
    want: pod({ containers: [container('a'), container('c'), container('b')] }),
  },
  {
    name: '$setElementOrder with a deletion',
    schema: P,
    live: pod({ containers: [container('a'), container('b'), container('c')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'c' }], containers: [{ name: 'b', $patch: 'delete' }] } },
    want: pod({ containers: [container('a'), container('c')] }),
  },
  {
    name: 'an item only the server has stays after the ordered items it followed',
    schema: P,
    live: pod({ containers: [container('a'), container('b'), container('x')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }, { name: 'c' }], containers: [container('c')] } },
    want: pod({ containers: [container('a'), container('b'), container('c'), container('x')] }),
  },
  {
    name: '$setElementOrder may name items that exist nowhere',
    schema: P,
    live: pod({ containers: [container('c1'), container('c3')] }),
    patch: {
      spec: {
        '$setElementOrder/containers': [{ name: 'c3' }, { name: 'c2' }, { name: 'c1' }],
        containers: [
          { name: 'c3', image: 'c3:2' },
          { name: 'c1', image: 'c1:2' },
        ],
      },
    },
    want: pod({
      containers: [
        { name: 'c3', image: 'c3:2' },
        { name: 'c1', image: 'c1:2' },
      ],
    }),
  },
  {
    name: '$setElementOrder must agree with the patch list (400)',
    schema: P,
    live: pod({ containers: [container('a'), container('b'), container('c')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }, { name: 'c' }], containers: [{ name: 'c', image: 'c2' }, { name: 'a', image: 'a2' }] } },
    error: {
      code: 400,
      reason: 'BadRequest',
      message: "The order in patch list:\n[map[image:c2 name:c] map[image:a2 name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b] map[name:c]]\n",
    },
  },
  {
    name: '$setElementOrder that is not a list is 400',
    schema: P,
    live: pod({ containers: [container('a')] }),
    patch: { spec: { '$setElementOrder/containers': { name: 'a' } } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
  },
  {
    name: 'kubectl apply: $setElementOrder/containers with a changed port list and a removed env var',
    schema: D,
    live: deployment({
      containers: [
        container('web', {
          ports: [
            { containerPort: 80, protocol: 'TCP' },
            { containerPort: 443, protocol: 'TCP' },
          ],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
        }),
        container('sidecar'),
      ],
    }),
    patch: {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'web' }, { name: 'sidecar' }],
            containers: [
              {
                name: 'web',
                image: 'web:2',
                '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 8080 }],
                ports: [{ containerPort: 8080 }, { containerPort: 443, $patch: 'delete' }],
                '$setElementOrder/env': [{ name: 'A' }],
                env: [{ name: 'B', $patch: 'delete' }],
              },
            ],
          },
        },
      },
    },
    want: deployment({
      containers: [
        { name: 'web', image: 'web:2', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 8080 }], env: [{ name: 'A', value: '1' }] },
        container('sidecar'),
      ],
    }),
  },
  {
    name: 'kubectl apply: swapping two containers in the manifest',
    schema: D,
    live: deployment({ containers: [container('web'), container('sidecar')] }),
    patch: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }] } } } },
    want: deployment({ containers: [container('sidecar'), container('web')] }),
  },

  // ---- lists of scalars -----------------------------------------------------------------------
  {
    name: 'a merging list of scalars is a set (union without duplicates)',
    schema: P,
    live: pod({}, { finalizers: ['a', 'b'] }),
    patch: { metadata: { finalizers: ['b', 'c'] } },
    want: pod({}, { finalizers: ['a', 'b', 'c'] }),
  },
  {
    name: 'scalars named in the patch take its order',
    schema: P,
    live: pod({}, { finalizers: ['1', '2', '3'] }),
    patch: { metadata: { finalizers: ['3', '1'] } },
    want: pod({}, { finalizers: ['2', '3', '1'] }),
  },
  {
    name: '$deleteFromPrimitiveList removes values',
    schema: P,
    live: pod({}, { finalizers: ['a', 'b', 'c'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'c'] } },
    want: pod({}, { finalizers: ['a'] }),
  },
  {
    name: '$deleteFromPrimitiveList removes duplicates too',
    schema: P,
    live: pod({}, { finalizers: ['a', 'b', 'b', 'c'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: pod({}, { finalizers: ['a', 'c'] }),
  },
  {
    name: 'adding and deleting scalars with $setElementOrder',
    schema: P,
    live: pod({}, { finalizers: ['a', 'b', 'c'] }),
    patch: { metadata: { '$setElementOrder/finalizers': ['a', 'b', 'd'], '$deleteFromPrimitiveList/finalizers': ['c'], finalizers: ['d'] } },
    want: pod({}, { finalizers: ['a', 'b', 'd'] }),
  },
  {
    name: 'a scalar only the server has stays after the ordered ones',
    schema: P,
    live: pod({}, { finalizers: ['1', '2', '3'] }),
    patch: { metadata: { '$setElementOrder/finalizers': ['1', '2', '4'], finalizers: ['4'] } },
    want: pod({}, { finalizers: ['1', '2', '4', '3'] }),
  },
  {
    name: '$deleteFromPrimitiveList that is not a list is 400',
    schema: P,
    live: pod({}, { finalizers: ['a'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
  },
  {
    name: '$deleteFromPrimitiveList of an absent list creates nothing',
    schema: P,
    live: pod({}),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
    want: pod({}),
  },
  {
    name: 'a list of scalars without a merge strategy is replaced (args)',
    schema: P,
    live: pod({ containers: [container('web', { args: ['a', 'b'] })] }),
    patch: { spec: { containers: [{ name: 'web', args: ['c'] }] } },
    want: pod({ containers: [container('web', { args: ['c'] })] }),
  },
  {
    name: 'an atomic list of maps is replaced (tolerations)',
    schema: P,
    live: pod({ tolerations: [{ key: 'a', operator: 'Exists' }] }),
    patch: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
    want: pod({ tolerations: [{ key: 'b', operator: 'Exists' }] }),
  },
  {
    name: 'elements of different types cannot merge (422)',
    schema: P,
    live: pod({}, { finalizers: ['a'] }),
    patch: { metadata: { finalizers: [1] } },
    error: { code: 422, reason: 'Invalid', message: 'list element types are not identical: [[a] [1]]' },
  },
  {
    name: 'lists of lists cannot merge (422)',
    schema: P,
    live: pod({}, { finalizers: ['a'] }),
    patch: { metadata: { finalizers: [['b']] } },
    error: { code: 422, reason: 'Invalid', message: 'lists of lists are not supported' },
  },

  // ---- $retainKeys ----------------------------------------------------------------------------
  {
    name: 'kubectl apply: strategy RollingUpdate → Recreate clears rollingUpdate ($retainKeys)',
    schema: D,
    live: deployment({}, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } }),
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
    want: deployment({}, { strategy: { type: 'Recreate' } }),
  },
  {
    name: '$retainKeys clears keys it does not list, without nulls',
    schema: D,
    live: deployment({}, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: deployment({}, { strategy: { type: 'Recreate' } }),
  },
  {
    name: 'a patch setting a key $retainKeys does not list is 400',
    schema: D,
    live: deployment({}, { strategy: { type: 'RollingUpdate' } }),
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } } } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: '$retainKeys that is not a list is 400',
    schema: D,
    live: deployment({}, { strategy: { type: 'RollingUpdate' } }),
    patch: { spec: { strategy: { $retainKeys: 'type' } } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: '$retainKeys inside a merged list item switches a volume source',
    schema: P,
    live: pod({ volumes: [{ name: 'data', emptyDir: {} }, { name: 'tmp', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'data', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } },
    want: pod({ volumes: [{ name: 'data', configMap: { name: 'cm' } }, { name: 'tmp', emptyDir: {} }] }),
  },

  // ---- parts without a schema, and the patch itself -------------------------------------------
  {
    name: 'fields the schema does not describe merge as maps and replace as lists',
    schema: P,
    live: pod({ extra: { a: { b: 1, c: 2 }, items: [{ name: 'x' }, { name: 'y' }] } }),
    patch: { spec: { extra: { a: { b: 3 }, items: [{ name: 'z' }] } } },
    want: pod({ extra: { a: { b: 3, c: 2 }, items: [{ name: 'z' }] } }),
  },
  {
    name: 'directives still apply in parts without a schema',
    schema: P,
    live: pod({ extra: { a: { b: 1 }, c: 2 } }),
    patch: { spec: { extra: { a: { $patch: 'replace', d: 4 } } } },
    want: pod({ extra: { a: { d: 4 }, c: 2 } }),
  },
  {
    name: 'metadata.resourceVersion in a patch is kept (the store checks it as a precondition)',
    schema: P,
    live: pod({}, { resourceVersion: '7' }),
    patch: { metadata: { resourceVersion: '6' } },
    want: pod({}, { resourceVersion: '6' }),
  },
  {
    name: 'a patch that is not an object is 400',
    schema: P,
    live: pod({}),
    patch: [{ op: 'add', path: '/spec/x', value: 1 }],
    error: { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
  },
];

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('applyStrategicMergePatch', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('$name', ({ schema, live, patch, want, error }) => {
    // Frozen inputs: the patch is re-applied when a write races, so nothing may change them.
    const apply = (): KubeObject => applyStrategicMergePatch(deepFreeze(live) as KubeObject, deepFreeze(patch), schema);
    if (error) {
      let thrown: unknown;
      try {
        apply();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      const { code, reason, message } = thrown as ApiError;
      expect({ code, reason, message }).toEqual(error);
      return;
    }
    const result = apply();
    expect(result).toEqual(want);
    expect(JSON.stringify(result)).not.toMatch(/"\$(patch|retainKeys|setElementOrder|deleteFromPrimitiveList)/);
  });
});

describe('supportsStrategicMerge', () => {
  it('is true for built-in kinds and false for free-form ones', () => {
    expect(supportsStrategicMerge(deployments.schema)).toBe(true);
    expect(supportsStrategicMerge(pods.schema)).toBe(true);
    expect(supportsStrategicMerge(freeFormSchema)).toBe(false);
    // A custom resource's schema is inline, however many properties it declares.
    expect(supportsStrategicMerge({ type: 'object', properties: { spec: { type: 'object' } } })).toBe(false);
  });
});

describe('a strategic merge patch whose result has a wrong type', () => {
  // kube-apiserver's unstructured converter words these; the value shown is the patch, not the object.
  const ns: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } } };
  it.each<[string, unknown, string]>([
    ['a string for a map', { metadata: { labels: 'invalid' } }, ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string'],
    ['a number for a struct', { metadata: 1 }, ' "" is invalid: patch: Invalid value: "map[metadata:1]": cannot restore struct from: int64'],
    ['a map for a list', { spec: { containers: { a: 1 } } }, ' "" is invalid: patch: Invalid value: "map[spec:map[containers:map[a:1]]]": cannot restore slice from map'],
  ])('%s', (_name, patch, message) => {
    let caught: unknown;
    try {
      applyStrategicMergePatch(ns, patch, pods.schema);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ code: 422, reason: 'Invalid', message, details: { kind: '', causes: [{ reason: 'FieldValueInvalid', field: 'patch' }] } });
  });
});
