import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, update } from '../apps/testing.js';
import { nodes, type Node } from './node.js';

function node(extra: Partial<Node> = {}): Node {
  return {
    metadata: { name: 'node-1', creationTimestamp: CREATED, labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'edge' } },
    spec: {},
    status: {
      conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
      addresses: [{ type: 'Hostname', address: 'node-1' }, { type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: '10.0.0.2' }],
      nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.13' },
    },
    ...extra,
  };
}

describe('node columns', () => {
  it('has kubectl’s headers', () => {
    expect(headers(nodes)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    expect(headers(nodes, true)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']);
  });

  it('renders status from the Ready condition, sorted roles, the first internal address', () => {
    expect(cells(nodes, node())).toEqual(['node-1', 'Ready', 'control-plane,edge,worker', '10m', 'v1.33.0', '10.0.0.1', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', 'containerd://1.7.13']);
  });

  it('shows NotReady, Unknown, SchedulingDisabled and unknown versions as kubectl does', () => {
    const notReady = node({ spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } });
    expect(cells(nodes, notReady).slice(1, 3)).toEqual(['NotReady,SchedulingDisabled', 'control-plane,edge,worker']);
    const bare: Node = { metadata: { name: 'n', creationTimestamp: CREATED } };
    expect(cells(nodes, bare)).toEqual(['n', 'Unknown', '<none>', '10m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});

describe('node strategy', () => {
  it('keeps the status a node registers with', async () => {
    const { object, errors } = await create(nodes, node());
    expect(errors).toEqual([]);
    expect(object.status?.nodeInfo?.kubeletVersion).toBe('v1.33.0');
  });

  it('validates taints and pod ranges', async () => {
    const { errors } = await create(nodes, node({ spec: { podCIDRs: ['10.0.0.0/33'], taints: [{ key: 'a', effect: 'Sometimes' }, { key: 'bad key!', effect: 'NoSchedule' }] } }));
    expect(errors.map((e) => e.field)).toEqual(['spec.taints[0].effect', 'spec.taints[1].key', 'spec.podCIDRs[0]']);
  });

  it('keeps pod ranges and provider ID once set', () => {
    const old = node({ spec: { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], providerID: 'kind://a' } });
    const errors = update(nodes, node({ spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], providerID: 'kind://b' } }), old);
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
    expect(update(nodes, node({ spec: { podCIDRs: ['10.244.0.0/24'] } }), node())).toEqual([]);
  });
});
