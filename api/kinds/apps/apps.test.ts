import { describe, expect, it } from 'vitest';
import { controllerRevisions, type ControllerRevision } from './controllerrevision.js';
import { daemonSets, TEMPLATE_GENERATION_ANNOTATION, type DaemonSet } from './daemonset.js';
import { deployments, type Deployment } from './deployment.js';
import { replicaSets, type ReplicaSet } from './replicaset.js';
import { statefulSets, type StatefulSet } from './statefulset.js';
import { cells, create, headers, messages, update } from './testing.js';

const template = () => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });

const deployment = (spec: Partial<NonNullable<Deployment['spec']>> = {}): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});

describe('Deployment', () => {
  it('defaults like a real cluster and starts with an empty status', async () => {
    const { object, errors } = await create(deployments, deployment());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 } },
    });
    expect(object.status).toEqual({});
  });

  it('leaves a Recreate strategy without rolling parameters', async () => {
    const { object } = await create(deployments, deployment({ strategy: { type: 'Recreate' } }));
    expect(object.spec?.strategy).toEqual({ type: 'Recreate' });
  });

  it.each<[string, Partial<NonNullable<Deployment['spec']>>, string[]]>([
    [
      'no selector',
      { selector: undefined },
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    ['an empty selector', { selector: {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    [
      'a selector that misses the template',
      { selector: { matchLabels: { app: 'db' } } },
      ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'a bad selector operator',
      { selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Near', values: ['x'] }] } },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"Near","values":["x"]}]}: invalid label selector',
      ],
    ],
    ['negative replicas', { replicas: -1 }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'a Recreate strategy with rolling parameters',
      { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } },
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    ['an unknown strategy', { strategy: { type: 'BlueGreen' } }, ['spec.strategy: Unsupported value: {"type":"BlueGreen"}: supported values: "Recreate", "RollingUpdate"']],
    [
      'no surge and no unavailability',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } },
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0'],
    ],
    [
      'more than 100% unavailable',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } } },
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
    ],
    [
      'a surge that is not a percentage',
      { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'lots' } } },
      [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'a deadline within minReadySeconds',
      { minReadySeconds: 30, progressDeadlineSeconds: 30 },
      ['spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds'],
    ],
    [
      'pods that do not restart',
      { template: { ...template(), spec: { ...template().spec, restartPolicy: 'Never' } } },
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'pods with a deadline',
      { template: { ...template(), spec: { ...template().spec, activeDeadlineSeconds: 60 } } },
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
  ])('refuses %s', async (_what, spec, want) => {
    const { errors } = await create(deployments, deployment(spec));
    expect(messages(errors)).toEqual(want);
  });

  it('refuses a template without containers', async () => {
    const { errors } = await create(deployments, deployment({ template: { metadata: { labels: { app: 'web' } } } }));
    expect(messages(errors)).toContain('spec.template.spec.containers: Required value');
  });

  it('keeps its selector for life', async () => {
    const { object } = await create(deployments, deployment());
    const moved = structuredClone(object);
    moved.spec!.selector = { matchLabels: { app: 'web', tier: 'fe' } };
    moved.spec!.template!.metadata!.labels = { app: 'web', tier: 'fe' };
    expect(messages(update(deployments, moved, object))).toEqual(['spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"fe"}}: field is immutable']);
    const scaled = structuredClone(object);
    scaled.spec!.replicas = 5;
    expect(update(deployments, scaled, object)).toEqual([]);
  });

  it('maps onto the scale subresource', async () => {
    const { object } = await create(deployments, deployment({ replicas: 3 }));
    object.status = { replicas: 2 };
    const scale = deployments.scale!;
    expect([scale.specReplicas(object), scale.statusReplicas(object), scale.selector(object)]).toEqual([3, 2, 'app=web']);
    scale.setSpecReplicas(object, 7);
    expect(object.spec?.replicas).toBe(7);
  });

  it('prints READY UP-TO-DATE AVAILABLE, and the template when wide', async () => {
    const { object } = await create(deployments, deployment({ replicas: 3 }));
    object.status = { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 };
    expect(headers(deployments)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(headers(deployments, true)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(cells(deployments, object)).toEqual(['web', '2/3', 3, 2, '10m', 'nginx', 'nginx:1.25', 'app=web']);
  });

  it('is in the all category, with short name deploy and status and scale subresources', () => {
    expect(deployments).toMatchObject({ shortNames: ['deploy'], categories: ['all'], status: true, tracksGeneration: true, scope: 'namespace' });
  });
});

const replicaSet = (spec: Partial<NonNullable<ReplicaSet['spec']>> = {}): ReplicaSet => ({
  metadata: { name: 'web-5d4f8' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});

describe('ReplicaSet', () => {
  it('defaults replicas and starts with zero observed replicas', async () => {
    const { object, errors } = await create(replicaSets, replicaSet());
    expect(errors).toEqual([]);
    expect(object.spec?.replicas).toBe(1);
    expect(object.status).toEqual({ replicas: 0 });
  });

  it('refuses an empty selector in the deployment wording Kubernetes uses', async () => {
    const { errors } = await create(replicaSets, replicaSet({ selector: {} }));
    expect(messages(errors)).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for deployment']);
  });

  it('prints DESIRED CURRENT READY, and selects by status.replicas', async () => {
    const { object } = await create(replicaSets, replicaSet({ replicas: 3 }));
    object.status = { replicas: 3, readyReplicas: 1 };
    expect(headers(replicaSets)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    expect(cells(replicaSets, object)).toEqual(['web-5d4f8', 3, 3, 1, '10m', 'nginx', 'nginx:1.25', 'app=web']);
    expect(replicaSets.selectableFields['status.replicas']!(object)).toBe('3');
  });
});

const statefulSet = (spec: Partial<NonNullable<StatefulSet['spec']>> = {}): StatefulSet => ({
  metadata: { name: 'db' },
  spec: {
    serviceName: 'db',
    selector: { matchLabels: { app: 'web' } },
    template: template(),
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    ...spec,
  },
});

describe('StatefulSet', () => {
  it('defaults management, update strategy, claim retention and claim templates', async () => {
    const { object, errors } = await create(statefulSets, statefulSet());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
    });
    expect(object.spec?.volumeClaimTemplates?.[0]).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
    expect(object.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('does not invent rolling parameters for an explicit OnDelete strategy', async () => {
    const { object } = await create(statefulSets, statefulSet({ updateStrategy: { type: 'OnDelete' } }));
    expect(object.spec?.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('names pods after itself, so its name must be a DNS label', () => {
    expect(statefulSets.nameRule).toBe('dns1123-label');
  });

  it.each<[string, Partial<NonNullable<StatefulSet['spec']>>, string[]]>([
    ['an unknown pod management policy', { podManagementPolicy: 'Random' }, ['spec.podManagementPolicy: Invalid value: "Random": must be \'OrderedReady\' or \'Parallel\'']],
    [
      'rolling parameters on OnDelete',
      { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } },
      ['spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\''],
    ],
    [
      'a negative partition',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -2 } } },
      ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -2: must be greater than or equal to 0'],
    ],
    [
      'an unknown claim retention policy',
      { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Retain' } },
      ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
    ],
    ['an empty selector', { selector: {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']],
  ])('refuses %s', async (_what, spec, want) => {
    const { errors } = await create(statefulSets, statefulSet(spec));
    expect(messages(errors)).toEqual(want);
  });

  it('lets updates change only replicas, template, strategies and minReadySeconds', async () => {
    const { object } = await create(statefulSets, statefulSet());
    const scaled = structuredClone(object);
    scaled.spec!.replicas = 3;
    scaled.spec!.template!.spec!.containers![0]!.image = 'nginx:1.26';
    expect(update(statefulSets, scaled, object)).toEqual([]);
    const renamed = structuredClone(object);
    renamed.spec!.serviceName = 'other';
    expect(messages(update(statefulSets, renamed, object))).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('prints READY as ready/desired', async () => {
    const { object } = await create(statefulSets, statefulSet({ replicas: 3 }));
    object.status = { replicas: 3, readyReplicas: 2 };
    expect(headers(statefulSets, true)).toEqual(['NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']);
    expect(cells(statefulSets, object)).toEqual(['db', '2/3', '10m', 'nginx', 'nginx:1.25']);
  });
});

const daemonSet = (spec: Partial<NonNullable<DaemonSet['spec']>> = {}): DaemonSet => ({
  metadata: { name: 'agent' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});

describe('DaemonSet', () => {
  it('defaults a rolling update of one node at a time and records the template generation', async () => {
    const { object, errors } = await create(daemonSets, daemonSet());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
    expect(object.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    expect(object.metadata.annotations).toEqual({ [TEMPLATE_GENERATION_ANNOTATION]: '1' });
  });

  it('bumps the template generation only when the template changes', async () => {
    const { object } = await create(daemonSets, daemonSet());
    const relabelled = structuredClone(object);
    relabelled.metadata.labels = { team: 'a' };
    daemonSets.prepareForUpdate!(relabelled, object);
    expect(relabelled.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION]).toBe('1');
    const changed = structuredClone(object);
    changed.spec!.template!.spec!.containers![0]!.image = 'nginx:1.26';
    daemonSets.prepareForUpdate!(changed, object);
    expect(changed.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION]).toBe('2');
  });

  it.each<[string, NonNullable<DaemonSet['spec']>['updateStrategy'], string[]]>([
    [
      'surge and unavailability together',
      { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
      ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'],
    ],
    [
      'neither surge nor unavailability',
      { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ],
    ['an unknown strategy', { type: 'Eventually' }, ['spec.updateStrategy: Unsupported value: {"type":"Eventually"}: supported values: "RollingUpdate", "OnDelete"']],
  ])('refuses %s', async (_what, updateStrategy, want) => {
    const { errors } = await create(daemonSets, daemonSet({ updateStrategy }));
    expect(messages(errors)).toEqual(want);
  });

  it('prints node counts and the node selector', async () => {
    const { object } = await create(daemonSets, daemonSet());
    object.spec!.template!.spec!.nodeSelector = { 'kubernetes.io/os': 'linux' };
    object.status = { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2, numberMisscheduled: 0 };
    expect(headers(daemonSets)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
    expect(cells(daemonSets, object)).toEqual(['agent', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '10m', 'nginx', 'nginx:1.25', 'app=web']);
  });
});

describe('ControllerRevision', () => {
  const revision = (): ControllerRevision => ({
    metadata: { name: 'db-7c9f', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1', controller: true }] },
    data: { spec: { template: {} } },
    revision: 2,
  });

  it('needs data and keeps it for life', async () => {
    expect(messages((await create(controllerRevisions, { metadata: { name: 'r' }, revision: 1 })).errors)).toEqual(['data: Required value: data is mandatory']);
    const { object } = await create(controllerRevisions, revision());
    expect(messages(update(controllerRevisions, { ...object, data: { other: true } }, object))).toEqual(['data: Invalid value: {"other":true}: field is immutable']);
  });

  it('prints its controller as kind.group/name', async () => {
    const { object } = await create(controllerRevisions, revision());
    expect(headers(controllerRevisions)).toEqual(['NAME', 'CONTROLLER', 'REVISION', 'AGE']);
    expect(cells(controllerRevisions, object)).toEqual(['db-7c9f', 'statefulset.apps/db', 2, '10m']);
  });
});
