/**
 * Node port allocation for NodePort and LoadBalancer Services, as kube-apiserver's service
 * registry does it (`pkg/registry/core/service/storage/alloc.go`): a port without a `nodePort` gets
 * a free one of 30000–32767, a port asking for one gets it only if it is in the range and free
 * (422 `provided port is already allocated` otherwise). Nodes are shared by every space, so the
 * range is one for all of them: an allocation is a storage key per port above the spaces, created
 * if absent, so two services never hold one port whatever the races. Ports are released when
 * their service goes, drops them, or stops needing them (type change, or
 * `allocateLoadBalancerNodePorts: false`). A release on update happens when the update is admitted
 * (not on a dry run): should that write then fail, the port is free while the old service still names it.
 */
import { isStorageError } from '../../storage/errors.js';
import { objectKey } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import type { ServiceSpec } from '../kinds/core/types.js';
import { invalid } from '../registry/api-errors.js';
import { fieldErrors, type FieldError } from '../registry/field-error.js';
import type { AdmissionPlugin, Undo } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

const ALLOCATIONS = { group: '', resource: 'servicenodeportallocations', scope: 'cluster' } as const;
export const NODE_PORT_RANGE = { first: 30000, last: 32767 } as const;
const RANDOM_TRIES = 32; // a nearly full range falls back to a scan

export class NodePortAllocator {
  constructor(private readonly store: Store) {}

  private key(port: number): string {
    return objectKey(ALLOCATIONS, { name: String(port) });
  }

  /** Reserves `port` for `owner`; false when it is taken. */
  async reserve(port: number, owner: string): Promise<boolean> {
    try {
      await this.store.create(this.key(port), owner);
      return true;
    } catch (err) {
      if (isStorageError(err, 'AlreadyExists')) return false;
      throw err;
    }
  }

  /** A free port of the range, reserved; undefined when the range is full. */
  async allocate(owner: string): Promise<number | undefined> {
    const size = NODE_PORT_RANGE.last - NODE_PORT_RANGE.first + 1;
    for (let i = 0; i < RANDOM_TRIES; i += 1) {
      const port = NODE_PORT_RANGE.first + Math.floor(Math.random() * size);
      if (await this.reserve(port, owner)) return port;
    }
    for (let port: number = NODE_PORT_RANGE.first; port <= NODE_PORT_RANGE.last; port += 1) if (await this.reserve(port, owner)) return port;
    return undefined;
  }

  async release(port: number): Promise<void> {
    try {
      await this.store.delete(this.key(port));
    } catch (err) {
      if (!isStorageError(err, 'NotFound')) throw err;
    }
  }
}

const isService = (def: ResourceDefinition): boolean => def.group === '' && def.resource === 'services';

function needsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

/** The node ports a service of this spec holds. */
function heldPorts(spec: ServiceSpec | undefined): Set<number> {
  const ports = spec && needsNodePorts(spec) ? (spec.ports ?? []).map((p) => p.nodePort) : [];
  return new Set(ports.filter((n): n is number => typeof n === 'number' && n > 0));
}

export function nodePortAdmission(allocator: NodePortAllocator): AdmissionPlugin {
  return {
    async admit({ operation, def, tenant, object, old, dryRun }): Promise<Undo | void> {
      if (!isService(def) || (operation !== 'create' && operation !== 'update')) return;
      const spec = (object.spec ?? {}) as ServiceSpec;
      const before = heldPorts(old?.spec as ServiceSpec | undefined);
      const owner = `${tenant}/${object.metadata.namespace}/${object.metadata.name}`;
      const reserved: number[] = [];
      const undo = async (): Promise<void> => {
        for (const port of reserved) await allocator.release(port);
      };
      const errs: FieldError[] = [];
      const kept = new Set<number>();
      if (needsNodePorts(spec)) {
        for (const [i, port] of (spec.ports ?? []).entries()) {
          const field = `spec.ports[${i}].nodePort`;
          if (port.nodePort) {
            if (before.has(port.nodePort) || kept.has(port.nodePort)) {
              kept.add(port.nodePort);
              continue;
            }
            if (port.nodePort < NODE_PORT_RANGE.first || port.nodePort > NODE_PORT_RANGE.last) {
              errs.push(fieldErrors.invalid(field, port.nodePort, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.first}-${NODE_PORT_RANGE.last}`));
            } else if (await allocator.reserve(port.nodePort, owner)) {
              reserved.push(port.nodePort);
              kept.add(port.nodePort);
            } else {
              errs.push(fieldErrors.invalid(field, port.nodePort, 'provided port is already allocated'));
            }
            continue;
          }
          const allocated = await allocator.allocate(owner);
          if (allocated === undefined) {
            errs.push(fieldErrors.invalid(field, 0, `range is full: no port left in ${NODE_PORT_RANGE.first}-${NODE_PORT_RANGE.last}`));
            continue;
          }
          reserved.push(allocated);
          kept.add(allocated);
          port.nodePort = allocated;
        }
      }
      if (errs.length > 0) {
        await undo();
        throw invalid(def, object.metadata.name ?? '', errs);
      }
      if (!dryRun) for (const port of before) if (!kept.has(port)) await allocator.release(port);
      return reserved.length > 0 ? undo : undefined;
    },
    async deleted(def: ResourceDefinition, obj: KubeObject) {
      if (!isService(def)) return;
      for (const port of heldPorts(obj.spec as ServiceSpec | undefined)) await allocator.release(port);
    },
  };
}
