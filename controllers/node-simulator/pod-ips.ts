/**
 * Pod IPs of the simulated nodes: each node has a /24 of its own (`spec.podCIDR`) and hands out
 * `.2`–`.254` to the pods placed on it, one per pod uid, unique while the pod exists and free
 * again once it is deleted. Pods keep their IP across a simulator restart: `claim` records the IPs
 * already in their statuses before any new one is handed out.
 *
 * @example
 *   const ips = new PodIps();
 *   ips.addNode('sim-node-0', '10.244.0.0/24');
 *   ips.allocate('sim-node-0', uid) // '10.244.0.2'
 *   ips.release(uid);
 */
const FIRST_HOST = 2; // .0 is the network, .1 the node's bridge
const LAST_HOST = 254;

export class PodIps {
  /** Per node: the /24's first three octets, and which host numbers are taken. */
  private readonly nodes = new Map<string, { prefix: string; used: Set<number> }>();
  private readonly byUid = new Map<string, { node: string; host: number }>();

  /** Registers a node's /24 (`a.b.c.0/24`). */
  addNode(node: string, podCIDR: string): void {
    const match = /^(\d+\.\d+\.\d+)\.0\/24$/.exec(podCIDR);
    if (!match) throw new Error(`pod CIDR ${podCIDR} of node ${node} is not a /24`);
    if (!this.nodes.has(node)) this.nodes.set(node, { prefix: match[1]!, used: new Set() });
  }

  /** Records an IP a pod already holds; false when it is not the node's or someone else's. */
  claim(node: string, uid: string, ip: string): boolean {
    const range = this.nodes.get(node);
    if (!range || !ip.startsWith(`${range.prefix}.`)) return false;
    const held = this.byUid.get(uid);
    if (held) return held.node === node && `${range.prefix}.${held.host}` === ip;
    const host = Number(ip.slice(range.prefix.length + 1));
    if (!Number.isInteger(host) || host < FIRST_HOST || host > LAST_HOST || range.used.has(host)) return false;
    range.used.add(host);
    this.byUid.set(uid, { node, host });
    return true;
  }

  /** The pod's IP, allocated on first request; undefined when the node's range is full. */
  allocate(node: string, uid: string): string | undefined {
    const range = this.nodes.get(node);
    if (!range) return undefined;
    const held = this.byUid.get(uid);
    if (held?.node === node) return `${range.prefix}.${held.host}`;
    if (held) this.release(uid);
    for (let host = FIRST_HOST; host <= LAST_HOST; host += 1) {
      if (range.used.has(host)) continue;
      range.used.add(host);
      this.byUid.set(uid, { node, host });
      return `${range.prefix}.${host}`;
    }
    return undefined;
  }

  release(uid: string): void {
    const held = this.byUid.get(uid);
    if (!held) return;
    this.nodes.get(held.node)?.used.delete(held.host);
    this.byUid.delete(uid);
  }
}
