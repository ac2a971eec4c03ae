/**
 * Writes the local APIServices at start, one per group version this server serves, as
 * kube-apiserver's autoregistration does (`v1.`, `v1.apps`, …), with its discovery priorities.
 * They carry kube-aggregator's `automanaged: onstart` label: what is missing is created, one whose
 * spec drifted is set back, and labelled ones of group versions no longer served are removed.
 * Every other APIService (an admin's, an aggregated server's) is left alone.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../../api/registry/registry.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { APIService } from '../../../api/kinds/apiregistration/apiservice.js';
import { semanticEqual } from '../../../api/validation/equality.js';
import { ApiError } from '../../../api/status.js';

const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/** kube-apiserver's group and version priorities (`cmd/kube-apiserver/app/aggregator.go`) for the groups served here. */
const PRIORITIES: Readonly<Record<string, { group: number; version: number }>> = {
  'v1': { group: 18000, version: 1 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1beta1': { group: 16700, version: 12 },
  'admissionregistration.k8s.io/v1alpha1': { group: 16700, version: 9 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
};

/** The local APIService of every served group version that kube-apiserver registers one for. */
export function localAPIServices(registry: ResourceRegistry): APIService[] {
  return registry.groupVersions().flatMap(({ group, version }) => {
    const priority = PRIORITIES[group ? `${group}/${version}` : version];
    if (!priority) return [];
    const apiService: APIService = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `${version}.${group}`, labels: { [AUTOMANAGED_LABEL]: 'onstart' } },
      spec: { group, version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
    };
    return [apiService];
  });
}

export async function ensureLocalAPIServices(generic: GenericStore, def: ResourceDefinition, registry: ResourceRegistry): Promise<void> {
  const wanted = localAPIServices(registry);
  const names = new Set(wanted.map((a) => a.metadata.name));
  await Promise.all(
    wanted.map(async (apiService) => {
      try {
        await generic.create(def, { tenant: '' }, apiService);
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
      }
      const loc = { tenant: '', name: apiService.metadata.name! };
      const current = (await generic.get(def, loc)) as APIService;
      if (current.metadata.labels?.[AUTOMANAGED_LABEL] !== 'onstart' || semanticEqual(current.spec, apiService.spec)) return;
      await generic.mutate(def, loc, (obj) => ({ ...obj, spec: apiService.spec }));
    }),
  );
  const { items } = await generic.list(def, { tenant: '' });
  const stale = items.filter((a) => a.metadata.labels?.[AUTOMANAGED_LABEL] === 'onstart' && !names.has(a.metadata.name));
  await Promise.all(
    stale.map((a) =>
      generic.delete(def, { tenant: '', name: a.metadata.name! }).catch((err: unknown) => {
        if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
      }),
    ),
  );
}
