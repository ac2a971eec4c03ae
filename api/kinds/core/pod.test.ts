import { describe, expect, it } from 'vitest';
import { create, messages, update } from '../apps/testing.js';
import { pods } from './pod.js';
import type { Container, Pod } from './types.js';

const pod = (containers: Container[], spec: Pod['spec'] = {}): Pod => ({ metadata: { name: 'web' }, spec: { ...spec, containers } });
const nginx: Container = { name: 'web', image: 'nginx:1.25' };

async function created(input: Pod): Promise<Pod> {
  const { object, errors } = await create(pods, input);
  expect(messages(errors)).toEqual([]);
  return object;
}

describe('pod defaults', () => {
  it('gives a minimal pod what a real cluster shows', async () => {
    const { spec, status } = await created(pod([{ name: 'web', image: 'nginx' }]));
    expect(spec).toEqual({
      containers: [
        {
          name: 'web',
          image: 'nginx',
          imagePullPolicy: 'Always',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    expect(status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry:5000/team/app', 'Always'],
    ['registry:5000/team/app:v2', 'IfNotPresent'],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
  ])('pulls %s with policy %s', async (image, policy) => {
    const { spec } = await created(pod([{ name: 'c', image }]));
    expect(spec?.containers?.[0]?.imagePullPolicy).toBe(policy);
  });

  it('defaults port protocols, copies limits into requests and computes the QoS class', async () => {
    const { spec, status } = await created(pod([{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '0.5', memory: '128Mi' } } }]));
    expect(spec?.containers?.[0]?.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(spec?.containers?.[0]?.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } });
    expect(status?.qosClass).toBe('Guaranteed');
  });

  it('keeps a toleration the pod already has', async () => {
    const tolerations = [{ operator: 'Exists' }];
    const { spec } = await created(pod([nginx], { tolerations }));
    expect(spec?.tolerations).toEqual(tolerations);
  });

  it('marks a gated pod as not scheduled', async () => {
    const { status } = await created(pod([nginx], { schedulingGates: [{ name: 'example.com/quota' }] }));
    expect(status?.conditions).toEqual([{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }]);
  });
});

describe('pod validation', () => {
  it.each<[string, Pod, string[]]>([
    ['no containers', pod([]), ['spec.containers: Required value']],
    ['a container without image', pod([{ name: 'web' }]), ['spec.containers[0].image: Required value']],
    ['a container without name', pod([{ image: 'nginx' }]), ['spec.containers[0].name: Required value']],
    ['duplicate container names', pod([nginx, nginx]), ['spec.containers[1].name: Duplicate value: "web"']],
    ['a bad restart policy', pod([nginx], { restartPolicy: 'Sometimes' }), [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]],
    ['a mount of no volume', pod([{ ...nginx, volumeMounts: [{ name: 'data', mountPath: '/data' }] }]), ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
    ['a bad container port', pod([{ ...nginx, ports: [{ containerPort: 0 }] }]), ['spec.containers[0].ports[0].containerPort: Required value']],
    ['a secret volume without a secret', pod([nginx], { volumes: [{ name: 'v', secret: {} }] }), ['spec.volumes[0].secret.secretName: Required value']],
    ['a volume with two sources', pod([nginx], { volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] }), [
      'spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
    ]],
    ['a request above its limit', pod([{ ...nginx, resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }]), [
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]],
    ['a value with valueFrom', pod([{ ...nginx, env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }]), [
      'spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
    ]],
    ['a probe without a handler', pod([{ ...nginx, livenessProbe: {} }]), ['spec.containers[0].livenessProbe: Required value: must specify a handler type']],
    ['a value on an Exists toleration', pod([nginx], { tolerations: [{ key: 'a', operator: 'Exists', value: 'x' }] }), [
      "spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
    ]],
  ])('%s', async (_, input, expected) => {
    const { errors } = await create(pods, input);
    expect(messages(errors)).toEqual(expected);
  });
});

describe('pod updates', () => {
  it('lets the image change', async () => {
    const old = await created(pod([nginx]));
    const next = structuredClone(old);
    next.spec!.containers![0]!.image = 'nginx:1.26';
    expect(update(pods, next, old)).toEqual([]);
  });

  it('refuses other spec changes with Kubernetes’ message', async () => {
    const old = await created(pod([nginx]));
    const next = structuredClone(old);
    next.spec!.containers![0]!.command = ['sh'];
    expect(messages(update(pods, next, old))).toEqual([
      'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    ]);
  });

  it('refuses added containers', async () => {
    const old = await created(pod([nginx]));
    const next = structuredClone(old);
    next.spec!.containers!.push({ ...nginx, name: 'two', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
    expect(messages(update(pods, next, old))).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
  });
});

describe('ephemeral containers', () => {
  const debugger1 = { name: 'dbg', image: 'busybox', terminationMessagePolicy: 'File', resources: {} };

  it('may not be set on create', async () => {
    const { errors } = await create(pods, pod([nginx], { ephemeralContainers: [debugger1] }));
    expect(messages(errors)).toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']);
  });

  it('may be added through their subresource, never changed or removed, and not through a pod update', async () => {
    const old = await created(pod([nginx]));
    const added = structuredClone(old);
    added.spec!.ephemeralContainers = [debugger1];
    pods.defaults!(added);
    expect(pods.validate!(added)).toEqual([]);
    expect(pods.validateUpdate!(added, old, 'ephemeralcontainers')).toEqual([]);
    expect(messages(pods.validateUpdate!(added, old))).toEqual([expect.stringContaining('spec: Forbidden: pod updates may not change fields')]);

    const changed = structuredClone(added);
    changed.spec!.ephemeralContainers![0]!.image = 'alpine';
    expect(messages(pods.validateUpdate!(changed, added, 'ephemeralcontainers'))).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed\n']);
    const removed = structuredClone(added);
    removed.spec!.ephemeralContainers = [];
    expect(messages(pods.validateUpdate!(removed, added, 'ephemeralcontainers'))).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n']);
  });

  it('are validated as containers, without the fields a debugging container may not have', () => {
    const bad = pod([nginx], { terminationGracePeriodSeconds: 30, ephemeralContainers: [{ ...debugger1, name: 'web', ports: [{ containerPort: 80 }], targetContainerName: 'nope' }] });
    pods.defaults!(bad);
    expect(messages(pods.validate!(bad)).filter((m) => m.startsWith('spec.ephemeralContainers'))).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "web"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });
});

describe('pod status IPs', () => {
  // A status write carries only what the writer set; defaults run on every write, status ones too.
  const withStatus = (status: Pod['status']): Pod => {
    const p = pod([nginx]);
    p.status = status;
    pods.defaults!(p);
    return p;
  };

  it('fills podIPs and hostIPs from podIP and hostIP, which kubectl -o wide reads', () => {
    expect(withStatus({ podIP: '10.1.2.3', hostIP: '192.168.0.9' }).status).toMatchObject({ podIPs: [{ ip: '10.1.2.3' }], hostIPs: [{ ip: '192.168.0.9' }] });
  });

  it('fills podIP from podIPs, and lets podIP win when they differ (Kubernetes’ conversion)', () => {
    expect(withStatus({ podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }).status).toMatchObject({ podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] });
    expect(withStatus({ podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.1' }] }).status).toMatchObject({ podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.2' }] });
  });
});

describe('pod field selectors', () => {
  it('exposes the fields Kubernetes does', async () => {
    const p = await created(pod([nginx], { nodeName: 'node-1' }));
    const fields = Object.fromEntries(Object.entries(pods.selectableFields).map(([k, f]) => [k, f(p)]));
    expect(fields).toEqual({
      'spec.nodeName': 'node-1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'default',
      'spec.hostNetwork': 'false',
      'status.phase': 'Pending',
      'status.podIP': '',
      'status.nominatedNodeName': '',
    });
  });
});
