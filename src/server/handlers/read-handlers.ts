/** GET of one object and LIST of a collection, answered as JSON, YAML or Table. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toTable } from '../../../api/registry/table.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { HandlerDeps } from './handler-deps.js';
import { ApiError } from '../../../api/status.js';
import { negotiateFormat, sendFormatted, type ResponseFormat } from '../negotiate.js';
import { fieldSelectorParam, includeObjectParam, intParam, labelSelectorParam, param, validateListOptions, type Query } from './query.js';
import type { ResourceRequest } from './resolve-resource.js';
import { getScale } from './scale.js';
import { handleStream } from './pod-subresources.js';
import { podLog } from './pod-log.js';
import { assertVisible, narrowedToSpace, seesPartAboveSpaces } from './above-spaces.js';
import { seesSharedDefaults, sharedDefault, sharedDefaults } from './shared-defaults.js';
import { isSpaceUsageSummary, spaceUsageSummary } from './space-usage-summary.js';

/** Location of the named object of a request. */
export function locationOf(req: ResourceRequest): { tenant: string; namespace?: string; name: string } {
  return { tenant: req.tenant, namespace: req.namespace, name: req.name! };
}

function tableOf(req: ResourceRequest, format: ResponseFormat, query: Query, objects: KubeObject[], metadata: Record<string, unknown>): unknown {
  const table = toTable(req.def, objects, { includeObject: includeObjectParam(query), acrossSpaces: req.acrossSpaces, metadata });
  return format.kind === 'table' && format.version === 'v1beta1' ? { ...table, apiVersion: 'meta.k8s.io/v1beta1' } : table;
}

export async function handleGet(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const query = request.query as Query;
  if (req.subresource === 'scale') return sendFormatted(reply, 200, negotiateFormat(request.headers.accept, false), await getScale(deps, req));
  if (req.subresource === 'log') return reply.type('text/plain').send(await podLog(deps, req, query));
  if (req.subresource === 'exec' || req.subresource === 'attach' || req.subresource === 'portforward') return handleStream(deps, req, request);
  // A pod's status reads print as the pod does (`kubectl get pod x --subresource=status`).
  const format = negotiateFormat(request.headers.accept, req.subresource === undefined || req.subresource === 'status');
  let obj = isSpaceUsageSummary(req)
    ? await spaceUsageSummary(deps, req)
    : await deps.watchCaches.read(req.def, locationOf(req), param(query, 'resourceVersion')).catch((err: unknown) => {
        if (err instanceof ApiError && err.reason === 'NotFound' && seesSharedDefaults(req)) return sharedDefault(deps, req, err);
        throw err;
      });
  if (seesPartAboveSpaces(req)) obj = assertVisible(req, deps.nodeUsage, obj);
  if (format.kind === 'table') return sendFormatted(reply, 200, format, tableOf(req, format, query, [obj], { resourceVersion: obj.metadata.resourceVersion }));
  return sendFormatted(reply, 200, format, obj);
}

export async function handleList(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const query = request.query as Query;
  const format = negotiateFormat(request.headers.accept, true);
  validateListOptions(query);
  // A limit of zero or less is no limit, as kube-apiserver takes it.
  const limit = intParam(query, 'limit');
  const rvMatch = param(query, 'resourceVersionMatch');
  const labelSelector = labelSelectorParam(query);
  const asked = fieldSelectorParam(query, req.def);
  const fieldMatch = seesPartAboveSpaces(req) ? narrowedToSpace(req, deps.nodeUsage, asked) : asked;
  const scope = { tenant: req.tenant, namespace: req.namespace };
  const resourceVersion = param(query, 'resourceVersion');
  const continueToken = param(query, 'continue') || undefined;
  // The watch cache answers the first page of a LIST that accepts its state (see `readList`).
  const fromCache = continueToken === undefined && rvMatch !== 'Exact' ? await deps.watchCaches.readList(req.def, scope, { labelSelector, fieldMatch }, resourceVersion, limit ?? 0) : undefined;
  const result =
    fromCache ??
    (await deps.generic.list(req.def, scope, {
      labelSelector,
      fieldMatch,
      limit,
      continue: continueToken,
      resourceVersion,
      resourceVersionMatch: rvMatch === 'Exact' || rvMatch === 'NotOlderThan' ? rvMatch : undefined,
    }));
  // The shared defaults follow the space's own objects, on the last page.
  if (seesSharedDefaults(req) && !result.metadata.continue) {
    result.items.push(...(await sharedDefaults(deps, req, labelSelector, fieldMatch)));
    result.items.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  }
  if (format.kind === 'table') return sendFormatted(reply, 200, format, tableOf(req, format, query, result.items, { ...result.metadata }));
  return sendFormatted(reply, 200, format, { kind: req.def.listKind, apiVersion: req.def.apiVersion, metadata: result.metadata, items: result.items });
}
