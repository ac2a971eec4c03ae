/**
 * The `scale` subresource: a workload seen as an `autoscaling/v1` Scale. Reads build the Scale
 * from the object; writes change only `spec.replicas`, guarded by the Scale's resourceVersion.
 */
import type { ReviewedView, WriteOptions } from '../../../api/registry/generic-store.js';
import { scaleSchema } from '../../../api/schema/autoscaling-types.js';
import type { KubeObject } from '../../../api/registry/object.js';
import { fieldErrors } from '../../../api/registry/field-error.js';
import { invalid } from '../../../api/registry/api-errors.js';
import type { ResourceDefinition, ScaleSubresource } from '../../../api/registry/resource-definition.js';
import type { HandlerDeps } from './handler-deps.js';
import { locationOf } from './read-handlers.js';
import type { ResourceRequest } from './resolve-resource.js';

export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

function scaleOf(def: ResourceDefinition, obj: KubeObject): Scale {
  const sub = def.scale as ScaleSubresource;
  const { name, namespace, tenant, uid, resourceVersion, creationTimestamp } = obj.metadata;
  const selector = sub.selector(obj);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, tenant, uid, resourceVersion, creationTimestamp },
    spec: { replicas: sub.specReplicas(obj) },
    status: selector ? { replicas: sub.statusReplicas(obj), selector } : { replicas: sub.statusReplicas(obj) },
  };
}

export async function getScale(deps: HandlerDeps, req: ResourceRequest): Promise<Scale> {
  return scaleOf(req.def, await deps.generic.get(req.def, locationOf(req)));
}

function replicasOf(req: ResourceRequest, scale: KubeObject): number {
  const replicas = (scale as Partial<Scale>).spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid(req.def, req.name!, [fieldErrors.invalid('spec.replicas', replicas ?? null, 'must be greater than or equal to 0')]);
  }
  return replicas;
}

/** Webhooks and policies are asked about the Scale (an UPDATE of `<resource>/scale`), as kube-apiserver asks them. */
function scaleView(req: ResourceRequest): ReviewedView {
  return {
    subresource: 'scale',
    kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    schema: scaleSchema,
    of: (obj) => scaleOf(req.def, obj),
    apply: (obj, scale) => (req.def.scale as ScaleSubresource).setSpecReplicas(obj, replicasOf(req, scale)),
  };
}

/** Changes the workload's replicas through a change of its Scale. */
async function writeScale(deps: HandlerDeps, req: ResourceRequest, change: (scale: Scale) => KubeObject, opts: WriteOptions): Promise<Scale> {
  const sub = req.def.scale as ScaleSubresource;
  const updated = await deps.generic.mutate(
    req.def,
    locationOf(req),
    (current) => {
      const desired = change(scaleOf(req.def, current));
      sub.setSpecReplicas(current, replicasOf(req, desired));
      // A resourceVersion in the Scale is a precondition on the workload.
      if (desired.metadata?.resourceVersion) current.metadata.resourceVersion = desired.metadata.resourceVersion;
      return current;
    },
    { ...opts, reviewedView: scaleView(req) },
  );
  return scaleOf(req.def, updated);
}

export function updateScale(deps: HandlerDeps, req: ResourceRequest, body: KubeObject, opts: WriteOptions): Promise<Scale> {
  return writeScale(deps, req, () => body, opts);
}

export function patchScale(deps: HandlerDeps, req: ResourceRequest, applyPatch: (current: KubeObject) => KubeObject, opts: WriteOptions): Promise<Scale> {
  return writeScale(deps, req, (scale) => applyPatch(scale), opts);
}
