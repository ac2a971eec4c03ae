/**
 * The Nodes and Leases the node simulator writes. Everything says "simulated" where a kubelet
 * would name itself (labels, condition reasons, versions, container runtime), so nobody takes a
 * simulated node for a real one.
 *
 * @example
 *   simulatedNode({ name: 'sim-node-0', index: 0, podCIDR: '10.244.0.0/24', capacity }, now)
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Lease } from '../../api/kinds/coordination/lease.js';
import { microTime, nowTimestamp } from '../../api/registry/timestamp.js';

/** Marks the nodes the simulator made (and serves). */
export const SIMULATED_NODE_LABEL = 'node-simulator.kube-spaces.io/simulated';
/** Where node leases live: the system space's `kube-node-lease`, as nodes are above every space. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** As the kubelet's `nodeLeaseDurationSeconds`. */
export const NODE_LEASE_DURATION_SECONDS = 40;

export interface NodeCapacity {
  cpu: string;
  memory: string;
  pods: string;
}

export interface SimulatedNodeSpec {
  name: string;
  /** The node's place among the simulator's nodes, which gives its address. */
  index: number;
  podCIDR: string;
  capacity: NodeCapacity;
}

/** The node's InternalIP: `10.240.x.y`, from its index (up to 65,000 nodes). */
export function nodeAddress(index: number): string {
  const n = index + 1;
  return `10.240.${Math.floor(n / 256)}.${n % 256}`;
}

/** The lowest /24 of 10.244.0.0/14 (1,024 nodes) no node in `taken` holds. */
export function freePodCIDR(taken: ReadonlySet<string>): string {
  for (let i = 0; i < 1024; i += 1) {
    const cidr = `10.${244 + Math.floor(i / 256)}.${i % 256}.0/24`;
    if (!taken.has(cidr)) return cidr;
  }
  throw new Error('no free pod CIDR left in 10.244.0.0/14');
}

const CONDITIONS: ReadonlyArray<{ type: string; status: string; reason: string; message: string }> = [
  { type: 'MemoryPressure', status: 'False', reason: 'SimulatedHasSufficientMemory', message: 'simulated node has sufficient memory available' },
  { type: 'DiskPressure', status: 'False', reason: 'SimulatedHasNoDiskPressure', message: 'simulated node has no disk pressure' },
  { type: 'PIDPressure', status: 'False', reason: 'SimulatedHasSufficientPID', message: 'simulated node has sufficient PID available' },
  { type: 'Ready', status: 'True', reason: 'SimulatedNodeReady', message: 'the kube-spaces node simulator is posting ready status (no kubelet runs here)' },
];

/** The node's conditions with a heartbeat at `now`; transition times kept from `previous` where unchanged. */
export function nodeConditions(now: number, previous: Node | undefined): NonNullable<Node['status']>['conditions'] {
  const at = nowTimestamp(now);
  return CONDITIONS.map((c) => {
    const old = previous?.status?.conditions?.find((p) => p.type === c.type);
    const since = old?.status === c.status && typeof old['lastTransitionTime'] === 'string' ? old['lastTransitionTime'] : at;
    return { ...c, lastHeartbeatTime: at, lastTransitionTime: since };
  });
}

/** A node as the simulator registers it. */
export function simulatedNode(spec: SimulatedNodeSpec, now: number): Node {
  const resources = { cpu: spec.capacity.cpu, memory: spec.capacity.memory, pods: spec.capacity.pods, 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        [SIMULATED_NODE_LABEL]: 'true',
      },
    },
    spec: { podCIDR: spec.podCIDR, podCIDRs: [spec.podCIDR], providerID: `kube-spaces-simulated://${spec.name}` },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: nodeConditions(now, undefined),
      addresses: [
        { type: 'InternalIP', address: nodeAddress(spec.index) },
        { type: 'Hostname', address: spec.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: 'simulated',
        osImage: 'kube-spaces simulated node',
        containerRuntimeVersion: 'simulated://kube-spaces',
        kubeletVersion: 'simulated',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/** The node's lease in `kube-node-lease`, renewed at `now`. */
export function nodeLease(node: string, now: number, current?: Lease): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { ...(current?.metadata ?? {}), name: node, namespace: NODE_LEASE_NAMESPACE },
    spec: { ...current?.spec, holderIdentity: node, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: microTime(now) },
  };
}
