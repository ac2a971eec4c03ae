/**
 * Cluster IP allocation for Services. Each space is its own cluster, so each has the whole
 * service range. An allocation is a storage key per (space, IP), created if absent: two services
 * can never hold the same IP, whatever the races, and the key goes when its service does.
 */
import { isStorageError } from '../../storage/errors.js';
import { objectKey } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import { invalid } from '../registry/api-errors.js';
import { fieldErrors } from '../registry/field-error.js';
import type { AdmissionPlugin, Undo } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

const ALLOCATIONS = { group: '', resource: 'serviceipallocations', scope: 'space' } as const;
const RANDOM_TRIES = 32; // a nearly full range falls back to a scan

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
}

export interface Ipv4Range {
  cidr: string;
  base: number;
  size: number;
}

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** Parses an IPv4 CIDR such as `10.96.0.0/12`; throws on anything else. */
export function parseIpv4Range(cidr: string): Ipv4Range {
  const [addr = '', bits = ''] = cidr.split('/');
  const ip = ipToInt(addr);
  const prefix = Number(bits);
  if (ip === undefined || !/^\d+$/.test(bits) || prefix < 8 || prefix > 30) throw new Error(`invalid service cluster IP range ${JSON.stringify(cidr)} (an IPv4 CIDR from /8 to /30)`);
  const size = 2 ** (32 - prefix);
  return { cidr, base: ip - (ip % size), size };
}

export class ClusterIpAllocator {
  constructor(
    private readonly store: Store,
    readonly range: Ipv4Range,
  ) {}

  private key(tenant: string, ip: string): string {
    return objectKey(ALLOCATIONS, { tenant, name: ip });
  }

  /** The range's first usable address: the `kubernetes` Service's in every space, as in Kubernetes. */
  get kubernetesServiceIp(): string {
    return intToIp(this.range.base + 1);
  }

  /** Whether `ip` is a usable address of the range (not its network or broadcast address). */
  contains(ip: string): boolean {
    const n = ipToInt(ip);
    return n !== undefined && n > this.range.base && n < this.range.base + this.range.size - 1;
  }

  /** Reserves `ip` for `owner`; false when another service holds it. */
  async reserve(tenant: string, ip: string, owner: string): Promise<boolean> {
    try {
      await this.store.create(this.key(tenant, ip), owner);
      return true;
    } catch (err) {
      if (isStorageError(err, 'AlreadyExists')) return false;
      throw err;
    }
  }

  /** Reserves a free address of the range, or undefined when the range is full. */
  async allocate(tenant: string, owner: string): Promise<string | undefined> {
    // The first usable address is the `kubernetes` Service's (`kubernetesServiceIp`); allocation starts after it.
    const first = this.range.base + 2;
    const count = this.range.size - 3;
    for (let i = 0; i < RANDOM_TRIES; i += 1) {
      const ip = intToIp(first + Math.floor(Math.random() * count));
      if (await this.reserve(tenant, ip, owner)) return ip;
    }
    for (let offset = 0; offset < count; offset += 1) {
      const ip = intToIp(first + offset);
      if (await this.reserve(tenant, ip, owner)) return ip;
    }
    return undefined;
  }

  async release(tenant: string, ip: string): Promise<void> {
    try {
      await this.store.delete(this.key(tenant, ip));
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
  }
}

function isService(def: ResourceDefinition): boolean {
  return def.group === '' && def.resource === 'services';
}

/** Whether a service of this spec gets a cluster IP at all. */
function wantsClusterIp(spec: ServiceSpec): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

/** Admission that gives each new Service its cluster IP (or checks the one it asks for). */
export function clusterIpAdmission(allocator: ClusterIpAllocator): AdmissionPlugin {
  return {
    async admit({ operation, def, tenant, object, old }): Promise<Undo | void> {
      if (!isService(def) || (operation !== 'create' && operation !== 'update')) return;
      const spec = (object.spec ??= {}) as ServiceSpec;
      const previous = (old?.spec ?? {}) as ServiceSpec;
      if (!wantsClusterIp(spec) || (operation === 'update' && previous.clusterIP)) return;
      const owner = `${object.metadata.namespace}/${object.metadata.name}`;
      const name = object.metadata.name ?? '';
      let ip = spec.clusterIP;
      if (ip) {
        if (!allocator.contains(ip)) {
          throw invalid(def, name, [fieldErrors.invalid('spec.clusterIPs[0]', ip, `provided IP is not in the valid range. The range of valid IPs is ${allocator.range.cidr}`)]);
        }
        if (!(await allocator.reserve(tenant, ip, owner))) {
          throw invalid(def, name, [fieldErrors.invalid('spec.clusterIPs[0]', ip, 'provided IP is already allocated')]);
        }
      } else {
        ip = await allocator.allocate(tenant, owner);
        if (!ip) throw invalid(def, name, [fieldErrors.invalid('spec.clusterIPs[0]', '', `range is full: no IP left in ${allocator.range.cidr}`)]);
      }
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      const reserved = ip;
      return () => allocator.release(tenant, reserved);
    },
    async deleted(def: ResourceDefinition, obj: KubeObject) {
      const ip = (obj.spec as ServiceSpec | undefined)?.clusterIP;
      if (isService(def) && ip && ip !== 'None' && obj.metadata.tenant) await allocator.release(obj.metadata.tenant, ip);
    },
  };
}
