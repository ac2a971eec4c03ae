/**
 * Test support for the workload controllers: an in-process server with two spaces, typed reads
 * and writes through its generic store (as the system), and pod status written the way a kubelet
 * would (Running and Ready, Succeeded, Failed), since no kubelet runs here.
 */
import { vi } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import type { ObjectLocation } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';
import { startInProcessServer, type InProcessServer, type InProcessServerOptions } from './in-process-server.js';

export const eventually = (check: () => Promise<void> | void, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 50 });

export interface WorkloadTestServer {
  server: InProcessServer;
  kind(group: string, resource: string): ResourceDefinition;
  read<T extends KubeObject = KubeObject>(group: string, resource: string, loc: ObjectLocation): Promise<T | undefined>;
  list<T extends KubeObject = KubeObject>(group: string, resource: string, tenant: string, namespace?: string): Promise<T[]>;
  create<T extends KubeObject = KubeObject>(group: string, resource: string, tenant: string, obj: KubeObject): Promise<T>;
  /** Writes a pod's status as a kubelet would: `Running` (and Ready), `Succeeded` or `Failed` (exit code 1). */
  setPodPhase(pod: Pod, phase: 'Running' | 'Succeeded' | 'Failed', ready?: boolean): Promise<void>;
  close(): Promise<void>;
}

const version = (group: string) => (group === '' ? 'v1' : 'v1');

export async function startWorkloadTestServer(controllers: InProcessServerOptions['controllers'] = {}, tenants: string[] = ['t1', 't2']): Promise<WorkloadTestServer> {
  const log = { info: vi.fn(), error: vi.fn(), warn: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn(), child: () => log } as never;
  const server = await startInProcessServer({ controllers, log });
  const plane = server.plane;
  const kind = (group: string, resource: string) => plane.registry.lookup(group, version(group), resource)!;
  const read = async <T extends KubeObject>(group: string, resource: string, loc: ObjectLocation): Promise<T | undefined> => {
    try {
      return (await plane.generic.get(kind(group, resource), loc)) as T;
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  for (const name of tenants) await plane.generic.create(kind('', 'tenants'), { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
  for (const name of tenants) {
    await eventually(async () => {
      const t = await read<KubeObject & { status?: { phase?: string } }>('', 'tenants', { tenant: '', name });
      if (t?.status?.phase !== 'Active') throw new Error(`tenant ${name} not active`);
    });
  }
  return {
    server,
    kind,
    read,
    async list<T extends KubeObject>(group: string, resource: string, tenant: string, namespace?: string) {
      return (await plane.generic.list(kind(group, resource), namespace ? { tenant, namespace } : { tenant })).items as T[];
    },
    async create<T extends KubeObject>(group: string, resource: string, tenant: string, obj: KubeObject) {
      return (await plane.generic.create(kind(group, resource), { tenant, namespace: obj.metadata.namespace }, obj)) as T;
    },
    async setPodPhase(pod, phase, ready = phase === 'Running') {
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const terminated = phase === 'Running' ? undefined : { exitCode: phase === 'Succeeded' ? 0 : 1, reason: phase === 'Succeeded' ? 'Completed' : 'Error', startedAt: now, finishedAt: now };
      const containers = (pod.spec?.containers ?? []).map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: ready && phase === 'Running',
        restartCount: 0,
        started: phase === 'Running',
        state: terminated ? { terminated } : { running: { startedAt: now } },
      }));
      await plane.generic.mutate(
        kind('', 'pods'),
        { tenant: pod.metadata.tenant!, namespace: pod.metadata.namespace!, name: pod.metadata.name! },
        (current) => ({
          ...current,
          status: {
            ...(current.status as object),
            phase,
            conditions: [
              { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now },
              { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: now },
            ],
            containerStatuses: containers,
            startTime: now,
          },
        }),
        { subresource: 'status' },
      );
    },
    close: () => server.close(),
  };
}
