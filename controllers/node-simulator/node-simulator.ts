/**
 * The node simulator, in the spirit of kwok: N Nodes (`sim-node-0`, …) with capacity and
 * heartbeats, and the pods placed on them (in any space) taken through their lifecycle as a
 * kubelet would report it, without running anything (pod-status.ts). It is no kubelet, and says
 * so in what it writes (simulated-nodes.ts). One instance over every space, on the tenant-aware
 * client, as its own user (`system:node-simulator`, bootstrap-policy.ts).
 *
 * - Heartbeats: each node's Lease in the system space's `kube-node-lease` renewed every 10 s, its
 *   status conditions every minute, as a kubelet's defaults; one timer for all nodes.
 * - Pods: a work queue keyed by pod (tenant included); a reconcile reads the pod from the shared
 *   informer, writes its status only when it changes, and asks to be woken for the next timed step.
 *   So a thousand running pods cost no writes at all between their transitions.
 * - Deletion: a pod marked for deletion goes (DELETE with grace period 0 and its uid as
 *   precondition) once its grace period, capped at MAX_SIMULATED_GRACE_MS, has passed.
 *
 * @example
 *   const simulator = startNodeSimulator({ client, nodes: 3, ...DEFAULT_NODE_SIMULATOR_SETTINGS, log });
 *   await simulator.synced;
 *   await simulator.stop();
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import type { Lease } from '../../api/kinds/coordination/lease.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/client/api-status.js';
import { nodes } from '../../api/kinds/core/node.js';
import { pods } from '../../api/kinds/core/pod.js';
import { leases } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { clientSources } from '../runtime/client-source.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import { InformerFactory } from '../runtime/informer-factory.js';
import { PodIps } from './pod-ips.js';
import { simulatePod } from './pod-status.js';
import { freePodCIDR, NODE_LEASE_NAMESPACE, nodeAddress, nodeConditions, nodeLease, simulatedNode, type NodeCapacity } from './simulated-nodes.js';

/** The longest a pod being deleted waits for its grace period here: a simulated container stops at once. */
export const MAX_SIMULATED_GRACE_MS = 3_000;
/** Concurrent heartbeat writes: enough to renew 1,000 leases well within their 10 s. */
const HEARTBEAT_IN_FLIGHT = 16;
/** Retry soon after a conflict: the informer brings the newer pod meanwhile. */
const CONFLICT_RETRY_MS = 200;
const POD_WORKERS = 4;

export interface NodeSimulatorSettings {
  nodes: number;
  /** Node names are this followed by 0 … nodes-1. */
  namePrefix: string;
  capacity: NodeCapacity;
  /** How long the containers of pods that finish (Jobs', restartPolicy Never/OnFailure) run. */
  podRuntimeMs: number;
  leaseRenewMs: number;
  nodeStatusMs: number;
}

export const DEFAULT_NODE_SIMULATOR_SETTINGS: NodeSimulatorSettings = {
  nodes: 3,
  namePrefix: 'sim-node-',
  capacity: { cpu: '32', memory: '256Gi', pods: '110' },
  podRuntimeMs: 5_000,
  leaseRenewMs: 10_000,
  nodeStatusMs: 60_000,
};

export interface NodeSimulatorOptions extends NodeSimulatorSettings {
  /** Acts as NODE_SIMULATOR_USER. */
  client: KubeClient;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface NodeSimulator {
  /** Resolves once the nodes are registered and pods are being served. */
  synced: Promise<void>;
  stop(): Promise<void>;
}

interface ServedNode {
  name: string;
  hostIP: string;
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function inBatches<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function startNodeSimulator(options: NodeSimulatorOptions): NodeSimulator {
  const { client, log } = options;
  const informers = new InformerFactory(clientSources(client), (err, informer) => log.error({ err, informer }, 'node simulator informer error'));
  const nodeInformer = informers.informerFor(nodes, { kind: 'own' });
  const podInformer = informers.informerFor(pods);
  const served = new Map<string, ServedNode>();
  const ips = new PodIps();
  const heldLeases = new Map<string, Lease>();
  const assignedCIDRs = new Set<string>();
  const stopping = new AbortController();
  const nodeClient = client.ownSpace().resource(nodes);
  const leaseClient = client.space(SYSTEM_TENANT).namespace(NODE_LEASE_NAMESPACE).resource(leases);
  const names = Array.from({ length: options.nodes }, (_, i) => `${options.namePrefix}${i}`);

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const pod = podInformer.get(key) as Pod | undefined;
    const node = served.get(pod?.spec?.nodeName ?? '');
    if (!pod || !node) return done;
    const podClient = client.space(key.tenant).namespace(key.namespace).resource(pods);
    const now = Date.now();
    try {
      if (pod.metadata.deletionTimestamp) {
        const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
        const endsAt = Date.parse(pod.metadata.deletionTimestamp) - graceMs + Math.min(graceMs, MAX_SIMULATED_GRACE_MS);
        if (now < endsAt) return requeueAfter(endsAt - now);
        await podClient.delete(key.name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
        return done;
      }
      const podIP = pod.spec?.hostNetwork ? node.hostIP : ips.allocate(node.name, pod.metadata.uid ?? '');
      if (!podIP) {
        log.error({ pod: key, node: node.name }, 'node simulator: no pod IP left on the node');
        return requeueAfter(10_000);
      }
      const step = simulatePod(pod, { now, podRuntimeMs: options.podRuntimeMs, hostIP: node.hostIP, podIP });
      if (step.status) await podClient.updateStatus({ ...pod, status: step.status });
      return step.recheckInMs === undefined ? done : requeueAfter(step.recheckInMs);
    } catch (err) {
      // Gone meanwhile (its deletion reaches us as an event), or changed meanwhile: look again soon.
      if (isNotFound(err)) return done;
      if (isConflict(err)) return requeueAfter(CONFLICT_RETRY_MS);
      throw err;
    }
  };
  const controller = new Controller({ name: 'node-simulator', reconcile, workers: POD_WORKERS, log });

  podInformer.onChange((key, obj, previous) => {
    if (!obj) {
      if (previous?.metadata.uid) ips.release(previous.metadata.uid);
      return;
    }
    if (served.has((obj as Pod).spec?.nodeName ?? '')) controller.enqueue(key);
  });

  /** Registers the node, or takes over the one of that name (its pod range kept). */
  const register = async (name: string, index: number): Promise<void> => {
    let node = nodeInformer.get({ tenant: '', namespace: '', name }) as Node | undefined;
    if (!node) {
      // The ranges of nodes the informer knows, and of those registered just now (it may not show them yet).
      const taken = new Set([...nodeInformer.lister<Node>().list().map((n) => n.spec?.podCIDR ?? ''), ...assignedCIDRs]);
      try {
        node = await nodeClient.create(simulatedNode({ name, index, podCIDR: freePodCIDR(taken), capacity: options.capacity }, Date.now()));
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        node = await nodeClient.get(name);
      }
    }
    const cidr = node.spec?.podCIDR;
    if (!cidr) throw new Error(`node ${name} exists without a pod CIDR; the simulator serves only nodes it can give pod IPs`);
    assignedCIDRs.add(cidr);
    ips.addNode(name, cidr);
    const hostIP = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? nodeAddress(index);
    served.set(name, { name, hostIP });
  };

  const renewLease = async (name: string): Promise<void> => {
    try {
      const current = heldLeases.get(name) ?? (await leaseClient.get(name).catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err))));
      const lease = nodeLease(name, Date.now(), current);
      heldLeases.set(name, current ? await leaseClient.update(lease) : await leaseClient.create(lease));
    } catch (err) {
      heldLeases.delete(name); // read afresh next time
      if (!isConflict(err) && !isAlreadyExists(err)) log.error({ err, node: name }, 'node simulator: lease renewal failed');
    }
  };

  const postStatus = async (name: string): Promise<void> => {
    const node = nodeInformer.get({ tenant: '', namespace: '', name }) as Node | undefined;
    if (!node) return; // deleted: a kubelet does not register again until it restarts; neither does the simulator
    try {
      await nodeClient.patch(name, 'merge', { status: { conditions: nodeConditions(Date.now(), node) } }, { subresource: 'status' });
    } catch (err) {
      if (!isNotFound(err)) log.error({ err, node: name }, 'node simulator: node status update failed');
    }
  };

  const every = (ms: number, task: () => Promise<void>): void => {
    const tick = async (): Promise<void> => {
      if (stopping.signal.aborted) return;
      await task();
      if (!stopping.signal.aborted) timers.push(setTimeout(() => void tick(), ms));
    };
    timers.push(setTimeout(() => void tick(), ms));
  };
  const timers: NodeJS.Timeout[] = [];

  informers.start();
  const synced = (async () => {
    await Promise.all([nodeInformer.waitForSync(), podInformer.waitForSync()]);
    for (const [i, name] of names.entries()) await register(name, i);
    // IPs pods already hold (a restarted simulator) are theirs before any new one is handed out.
    for (const pod of podInformer.lister<Pod>().list()) {
      const node = served.get(pod.spec?.nodeName ?? '');
      const ip = pod.status?.podIP;
      if (node && ip && !pod.spec?.hostNetwork) ips.claim(node.name, pod.metadata.uid ?? '', ip);
    }
    await inBatches(names, HEARTBEAT_IN_FLIGHT, renewLease);
    if (stopping.signal.aborted) return;
    every(options.leaseRenewMs, () => inBatches(names, HEARTBEAT_IN_FLIGHT, renewLease));
    every(options.nodeStatusMs, () => inBatches(names, HEARTBEAT_IN_FLIGHT, postStatus));
    controller.start();
    for (const pod of podInformer.lister<Pod>().list()) if (served.has(pod.spec?.nodeName ?? '')) controller.enqueue(keyOf(pod));
    log.info({ nodes: names.length, first: names[0], podRuntimeMs: options.podRuntimeMs }, 'node simulator serving (simulated nodes, no kubelet)');
  })();
  synced.catch((err: unknown) => log.error({ err }, 'node simulator failed to start'));

  return {
    synced,
    async stop() {
      stopping.abort();
      for (const timer of timers.splice(0)) clearTimeout(timer);
      informers.stop();
      await controller.stop();
    },
  };
}
