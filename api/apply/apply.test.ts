import { describe, expect, it } from 'vitest';
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import { applyConfiguration, type ApplyResult } from './apply.js';
import { applyConflictError } from './conflicts.js';
import { goJson, type JsonObject } from './json-value.js';
import { LAST_APPLIED_ANNOTATION } from './last-applied.js';
import { statusResetFields } from './reset-fields.js';
import { deployment, EVEN_LATER, kube, LATER, NOW, schemaOf } from './testing.js';
import { computeUpdateManagedFields } from './update-managed-fields.js';

const deployments = schemaOf('Deployment');
const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T11:00:00Z';
const T2 = '2024-05-01T12:00:00Z';

function apply(live: KubeObject | undefined, config: JsonObject, manager: string, opts: { force?: boolean; now?: Date } = {}): ApplyResult {
  return applyConfiguration({
    schema: deployments,
    resetFields: statusResetFields(),
    live,
    config,
    manager,
    force: opts.force ?? false,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    now: opts.now ?? NOW,
  });
}

/** The object of an apply that must succeed. */
function applied(result: ApplyResult): KubeObject {
  if (!result.object) throw new Error(`unexpected conflicts: ${result.conflicts.map((c) => c.field).join(', ')}`);
  return result.object;
}

/** An update (PUT or non-apply patch) of a live object by another manager. */
function updated(live: KubeObject, change: (obj: KubeObject) => void, manager: string, now = LATER): KubeObject {
  const obj = structuredClone(live);
  change(obj);
  obj.metadata.managedFields = computeUpdateManagedFields({ schema: deployments, resetFields: statusResetFields(), old: live, obj, manager, apiVersion: 'apps/v1', now });
  return obj;
}

const managers = (obj: KubeObject): Array<[string | undefined, string | undefined, string | undefined]> =>
  (obj.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.time]);
const fieldsOf = (obj: KubeObject, manager: string): unknown => obj.metadata.managedFields?.find((e) => e.manager === manager)?.fieldsV1;
const spec = (obj: KubeObject): JsonObject => obj.spec as JsonObject;
const containersOf = (obj: KubeObject): JsonObject[] => ((spec(obj).template as JsonObject).spec as JsonObject).containers as JsonObject[];

const WEB_FIELDS = {
  'f:metadata': { 'f:labels': { 'f:app': {} } },
  'f:spec': {
    'f:replicas': {},
    'f:selector': {},
    'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
  },
};

describe('creating and re-applying', () => {
  const config = deployment({ replicas: 2 });
  const created = applied(apply(undefined, config, 'kubectl'));

  it('creates the object with the applier owning exactly its configuration', () => {
    const expected: ManagedFieldsEntry[] = [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: WEB_FIELDS }];
    expect(created).toEqual({ ...config, metadata: { ...(config.metadata as JsonObject), managedFields: expected } });
  });

  it('changes nothing, time included, when the same configuration is applied again', () => {
    expect(applied(apply(created, config, 'kubectl', { now: LATER }))).toEqual(created);
  });

  it('updates a value the applier alone owns, and its time', () => {
    const result = applied(apply(created, deployment({ replicas: 4 }), 'kubectl', { now: LATER }));
    expect(spec(result).replicas).toBe(4);
    expect(managers(result)).toEqual([['kubectl', 'Apply', T1]]);
  });

  it('shares a field two appliers set to the same value', () => {
    const partial = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 } };
    const result = applied(apply(created, partial, 'ci', { now: LATER }));
    expect(result.spec).toEqual(created.spec);
    expect(fieldsOf(result, 'ci')).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(fieldsOf(result, 'kubectl')).toEqual(WEB_FIELDS);
  });
});

describe('conflicts', () => {
  const created = applied(apply(undefined, deployment({ replicas: 2 }), 'kubectl'));
  const scaled = updated(created, (obj) => (spec(obj).replicas = 5), 'kubectl-scale');

  it('refuses to change a value an updater owns, naming the field and the manager', () => {
    const result = apply(scaled, deployment({ replicas: 2 }), 'kubectl', { now: EVEN_LATER });
    expect(result.conflicts?.map((c) => [c.owner.manager, c.owner.operation, c.field])).toEqual([['kubectl-scale', 'Update', '.spec.replicas']]);
    const error = applyConflictError(result.conflicts ?? []);
    expect([error.code, error.reason, error.message]).toEqual([409, 'Conflict', 'Apply failed with 1 conflict: conflict with "kubectl-scale" using apps/v1: .spec.replicas']);
    expect(error.details?.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-scale" using apps/v1', field: '.spec.replicas' }]);
  });

  it('takes the field over when forced', () => {
    const result = applied(apply(scaled, deployment({ replicas: 2 }), 'kubectl', { force: true, now: EVEN_LATER }));
    expect(spec(result).replicas).toBe(2);
    expect(managers(result)).toEqual([['kubectl', 'Apply', T2]]);
    expect(fieldsOf(result, 'kubectl')).toEqual(WEB_FIELDS);
  });

  it('leaves a field another manager took over when the applier stops applying it', () => {
    const withoutReplicas = deployment();
    const result = applied(apply(scaled, withoutReplicas, 'kubectl', { now: EVEN_LATER }));
    expect(spec(result).replicas).toBe(5);
    expect(managers(result)).toEqual([['kubectl', 'Apply', T0], ['kubectl-scale', 'Update', T1]]);
  });

  it('conflicts between appliers on a container image, and forces', () => {
    const b = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 9, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } },
    };
    const result = apply(created, b, 'b', { now: LATER });
    expect(result.conflicts?.map((c) => [c.owner.manager, c.owner.operation, c.field])).toEqual([
      ['kubectl', 'Apply', '.spec.replicas'],
      ['kubectl', 'Apply', '.spec.template.spec.containers[name="nginx"].image'],
    ]);
    expect(applyConflictError(result.conflicts ?? []).message).toBe(
      'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );

    const forced = applied(apply(created, b, 'b', { force: true, now: LATER }));
    expect(containersOf(forced)).toEqual([{ name: 'nginx', image: 'nginx:1.26' }]);
    expect(fieldsOf(forced, 'b')).toEqual({
      'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    });
    expect(fieldsOf(forced, 'kubectl')).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:selector': {}, 'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:name': {} } } } } },
    });
  });

  it('ignores fields the strategy resets', () => {
    const withStatus = updated(created, (obj) => (obj.status = { replicas: 2 }), 'kube-controller-manager');
    const result = applied(apply(withStatus, { ...deployment({ replicas: 2 }), status: { replicas: 7 } }, 'kubectl', { now: LATER }));
    expect(fieldsOf(result, 'kubectl')).toEqual(WEB_FIELDS);
  });
});

describe('removing what the applier no longer applies', () => {
  const config = (labels: JsonObject, containers: JsonObject[]): JsonObject => deployment({ replicas: 1, labels, containers });
  const nginx = { name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }, { containerPort: 443 }], env: [{ name: 'MODE', value: 'prod' }] };
  const sidecar = { name: 'sidecar', image: 'envoy' };
  const created = applied(apply(undefined, config({ app: 'web', tier: 'fe', team: 'x' }, [nginx, sidecar]), 'kubectl'));

  it('removes a field only the applier owned, and keeps one another manager owns', () => {
    const labelled = updated(created, (obj) => (obj.metadata.labels = { ...obj.metadata.labels, team: 'y' }), 'labeler');
    const result = applied(apply(labelled, config({ app: 'web' }, [nginx, sidecar]), 'kubectl', { now: EVEN_LATER }));
    expect(result.metadata.labels).toEqual({ app: 'web', team: 'y' });
    expect(fieldsOf(result, 'labeler')).toEqual({ 'f:metadata': { 'f:labels': { 'f:team': {} } } });
  });

  it('keeps a field another applier shares, dropping it from the applier only', () => {
    const shared = applied(apply(created, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { tier: 'fe' } } }, 'other', { now: LATER }));
    const result = applied(apply(shared, config({ app: 'web', team: 'x' }, [nginx, sidecar]), 'kubectl', { now: EVEN_LATER }));
    expect(result.metadata.labels).toEqual({ app: 'web', tier: 'fe', team: 'x' });
    expect(fieldsOf(result, 'kubectl')).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:team': {} } } });
  });

  it('removes list items of a map-type list: a container, a port, an env var (the emptied list goes)', () => {
    const trimmed = { name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] };
    const result = applied(apply(created, config({ app: 'web', tier: 'fe', team: 'x' }, [trimmed]), 'kubectl', { now: LATER }));
    expect(containersOf(result)).toEqual([trimmed]);
    expect(fieldsOf(result, 'kubectl')).toMatchObject({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } } } },
    });
  });

  it('keeps a list item another applier owns', () => {
    const b = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template: { spec: { containers: [sidecar] } } } };
    const shared = applied(apply(created, b, 'b', { now: LATER }));
    const result = applied(apply(shared, config({ app: 'web', tier: 'fe', team: 'x' }, [nginx]), 'kubectl', { now: EVEN_LATER }));
    expect(containersOf(result).map((c) => c.name)).toEqual(['nginx', 'sidecar']);
  });

  it('keeps the live order and puts new items where the configuration has them', () => {
    const first = { name: 'init', image: 'busybox' };
    const result = applied(apply(created, config({ app: 'web', tier: 'fe', team: 'x' }, [first, nginx, sidecar]), 'kubectl', { now: LATER }));
    expect(containersOf(result).map((c) => c.name)).toEqual(['init', 'nginx', 'sidecar']);
  });
});

describe('objects applied to for the first time', () => {
  const untracked = kube(deployment({ replicas: 1 }));

  it('gives fields set before tracking to "before-first-apply", so changing them conflicts', () => {
    const result = apply(untracked, deployment({ replicas: 3 }), 'ci');
    expect(result.conflicts?.map((c) => [c.owner.manager, c.field])).toEqual([['before-first-apply', '.spec.replicas']]);
    expect(applyConflictError(result.conflicts ?? []).message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
  });

  it('shares them when the apply agrees', () => {
    const result = applied(apply(untracked, deployment({ replicas: 1 }), 'ci'));
    expect(managers(result)).toEqual([['ci', 'Apply', undefined], ['before-first-apply', 'Update', T0]]);
  });
});

describe('moving from client-side to server-side apply', () => {
  const manifest = deployment({ replicas: 2 });
  const annotated = (config: JsonObject): JsonObject => {
    const copy = structuredClone(config);
    (copy.metadata as JsonObject).annotations = { [LAST_APPLIED_ANNOTATION]: goJson(config) + '\n' };
    return copy;
  };
  // What `kubectl apply` (client-side) leaves: the annotation, owned by kubectl-client-side-apply.
  const obj = kube(annotated(manifest));
  obj.metadata.managedFields = computeUpdateManagedFields({ schema: deployments, resetFields: statusResetFields(), old: undefined, obj, manager: 'kubectl-client-side-apply', apiVersion: 'apps/v1', now: NOW });
  const newer = deployment({ replicas: 2, containers: [{ name: 'nginx', image: 'nginx:1.26' }] });

  it('lets kubectl take over what its last-applied annotation still holds, and rewrites the annotation', () => {
    const result = applied(apply(obj, newer, 'kubectl', { now: LATER }));
    expect(containersOf(result)).toEqual([{ name: 'nginx', image: 'nginx:1.26' }]);
    expect(result.metadata.annotations).toEqual({ [LAST_APPLIED_ANNOTATION]: goJson(newer) + '\n' });
    expect(fieldsOf(result, 'kubectl')).toEqual(WEB_FIELDS);
  });

  it('still conflicts on what someone changed since', () => {
    const edited = updated(obj, (o) => (containersOf(o)[0] = { name: 'nginx', image: 'nginx:edited' }), 'kubectl-edit');
    const result = apply(edited, newer, 'kubectl', { now: EVEN_LATER });
    expect(result.conflicts?.map((c) => [c.owner.manager, c.field])).toEqual([['kubectl-edit', '.spec.template.spec.containers[name="nginx"].image']]);
  });

  it('does so for the manager kubectl only', () => {
    expect(apply(obj, newer, 'ci', { now: LATER }).conflicts?.map((c) => c.owner.manager)).toEqual(['kubectl-client-side-apply']);
  });
});

describe('configurations kube-apiserver refuses', () => {
  it.each<[string, JsonObject, number, string]>([
    ['another version', { ...deployment(), apiVersion: 'apps/v1beta1' }, 400, 'invalid object type: apps/v1beta1, Kind=Deployment'],
    ['another kind', { ...deployment(), apiVersion: 'v1', kind: 'Pod' }, 400, 'invalid object type: /v1, Kind=Pod'],
    ['managedFields', { ...deployment(), metadata: { name: 'web', managedFields: [] } }, 400, 'metadata.managedFields must be nil'],
    [
      'a repeated container',
      deployment({ containers: [{ name: 'nginx', image: 'a' }, { name: 'nginx', image: 'b' }] }),
      500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="nginx"]',
    ],
    [
      'containers without names',
      deployment({ containers: [{ image: 'a' }, { image: 'b' }] }),
      500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n' +
        '  .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)\n' +
        '  .spec.template.spec.containers: element 1: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
  ])('%s', (_, config, code, message) => {
    expect(() => apply(undefined, config, 'kubectl')).toThrow(expect.objectContaining({ code, message }));
  });
});

describe('nulls', () => {
  it('unsets a field the configuration sets to null, as the round trip through Go types does', () => {
    const live = applied(apply(undefined, deployment({ replicas: 2 }), 'kubectl'));
    live.metadata.creationTimestamp = '2024-05-01T09:00:00Z';
    const config = deployment({ replicas: 2 });
    (config.metadata as JsonObject).creationTimestamp = null;
    const result = applied(apply(live, config, 'kubectl', { now: LATER }));
    expect('creationTimestamp' in result.metadata).toBe(false);
  });
});
