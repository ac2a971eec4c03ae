/**
 * `/openapi/v3` documents built from the registry: a root listing one document per group/version,
 * and per group/version the paths of every kind with its operations and the schemas they use.
 * kubectl reads them for `explain`, to detect server-side field validation (a `patch` operation
 * tagged with the kind's GVK that takes `fieldValidation`) and for strategic merge patch (merge
 * keys in the schemas, and the SMP content type on the patch operation).
 */
import { createHash } from 'node:crypto';
import type { RegistryView } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { definitions, refName, type Schema } from '../schema/schema.js';

export interface OpenApiDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

/** The document key (`api/v1`, `apis/apps/v1`) of a group/version. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

const PATCH_CONTENT_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

function queryParam(name: string, description: string, type: 'string' | 'boolean' | 'integer' = 'string'): unknown {
  return { name, in: 'query', description, schema: { type, uniqueItems: true } };
}

const writeParams = [
  queryParam('dryRun', 'When present (All), the request is fully processed but nothing is persisted.'),
  queryParam('fieldManager', 'The name of the actor making the change, recorded in managedFields.'),
  queryParam('fieldValidation', 'How unknown or duplicate fields are treated: Ignore, Warn or Strict.'),
];
const listParams = [
  queryParam('labelSelector', 'Restricts the result to objects whose labels match.'),
  queryParam('fieldSelector', 'Restricts the result to objects whose fields match.'),
  queryParam('limit', 'The most items to return; more are fetched with continue.', 'integer'),
  queryParam('continue', 'The token from a previous page of the same listing.'),
  queryParam('resourceVersion', 'Which version of the collection to read or watch from.'),
  queryParam('resourceVersionMatch', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  queryParam('timeoutSeconds', 'Ends a watch after this many seconds.', 'integer'),
  queryParam('watch', 'Streams changes instead of returning a list.', 'boolean'),
  queryParam('allowWatchBookmarks', 'Lets a watch send BOOKMARK events.', 'boolean'),
  queryParam('sendInitialEvents', 'Starts a watch with the current state as ADDED events.', 'boolean'),
];

function schemaContent(schema: Schema, types = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']): unknown {
  return Object.fromEntries(types.map((t) => [t, { schema }]));
}

function operation(def: ResourceDefinition, action: string, opts: { params?: unknown[]; body?: unknown; description: string }): unknown {
  const op: Record<string, unknown> = {
    description: opts.description,
    operationId: `${action}${def.kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: def.group, version: def.version, kind: def.kind },
    responses: { '200': { description: 'OK', content: schemaContent(def.schema) } },
  };
  if (opts.params) op.parameters = opts.params;
  if (opts.body) op.requestBody = opts.body;
  return op;
}

function kindPaths(def: ResourceDefinition, prefix: string): Record<string, Record<string, unknown>> {
  const base = def.scope === 'namespace' ? `${prefix}/namespaces/{namespace}/${def.resource}` : `${prefix}/${def.resource}`;
  const nameParam = { name: 'name', in: 'path', required: true, description: `name of the ${def.kind}`, schema: { type: 'string', uniqueItems: true } };
  const nsParam = { name: 'namespace', in: 'path', required: true, description: 'object name and auth scope, such as for teams and projects', schema: { type: 'string', uniqueItems: true } };
  const scopeParams = def.scope === 'namespace' ? [nsParam] : [];
  const jsonBody = { content: schemaContent(def.schema, ['*/*']), required: true };
  const patchBody = { content: Object.fromEntries(PATCH_CONTENT_TYPES.map((t) => [t, { schema: { type: 'object' } }])), required: true };

  const item: Record<string, unknown> = { parameters: [nameParam, ...scopeParams] };
  const collection: Record<string, unknown> = { parameters: scopeParams };
  if (def.verbs.includes('get')) item.get = operation(def, 'get', { description: `read the specified ${def.kind}` });
  if (def.verbs.includes('update')) item.put = operation(def, 'put', { description: `replace the specified ${def.kind}`, params: writeParams, body: jsonBody });
  if (def.verbs.includes('patch')) {
    item.patch = operation(def, 'patch', { description: `partially update the specified ${def.kind}`, params: [...writeParams, queryParam('force', 'Takes ownership of conflicting fields (apply patches only).', 'boolean')], body: patchBody });
  }
  if (def.verbs.includes('delete')) item.delete = operation(def, 'delete', { description: `delete a ${def.kind}`, params: [queryParam('dryRun', 'When present (All), nothing is persisted.'), queryParam('propagationPolicy', 'Whether and how dependents are deleted.')] });
  if (def.verbs.includes('list')) collection.get = operation(def, 'list', { description: `list or watch objects of kind ${def.kind}`, params: listParams });
  if (def.verbs.includes('create')) collection.post = operation(def, 'post', { description: `create a ${def.kind}`, params: writeParams, body: jsonBody });
  if (def.verbs.includes('deletecollection')) collection.delete = operation(def, 'deletecollection', { description: `delete a collection of ${def.kind}`, params: listParams.slice(0, 2) });
  const paths: Record<string, Record<string, unknown>> = { [base]: collection, [`${base}/{name}`]: item };
  if (def.status) {
    paths[`${base}/{name}/status`] = {
      parameters: [nameParam, ...scopeParams],
      get: operation(def, 'get', { description: `read status of the specified ${def.kind}` }),
      put: operation(def, 'put', { description: `replace status of the specified ${def.kind}`, params: writeParams, body: jsonBody }),
      patch: operation(def, 'patch', { description: `partially update status of the specified ${def.kind}`, params: writeParams, body: patchBody }),
    };
  }
  return paths;
}

/** Every named schema reachable from `roots`, so a document is self-contained. */
function reachableSchemas(roots: Schema[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const visit = (s: Schema | undefined): void => {
    if (!s) return;
    const name = refName(s);
    if (name !== undefined) {
      if (out[name]) return;
      const target = definitions.get(name);
      if (!target) return;
      out[name] = target;
      visit(target);
      return;
    }
    for (const child of Object.values(s.properties ?? {})) visit(child);
    if (s.items) visit(s.items);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? [])]) visit(sub);
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function groupVersionDocument(view: RegistryView, group: string, version: string, kubeVersion: string): OpenApiDocument | undefined {
  const defs = view.all().filter((d) => d.group === group && d.version === version);
  if (defs.length === 0) return undefined;
  const prefix = `/${groupVersionPath(group, version)}`;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of defs) Object.assign(paths, kindPaths(def, prefix));
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: kubeVersion }, paths, components: { schemas: reachableSchemas(defs.map((d) => d.schema)) } };
}

/** A content hash for a document, used in the root's URLs so clients cache by it. */
export function documentHash(doc: OpenApiDocument): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
}

/** The `/openapi/v3` root. `urlPrefix` is `/tenants/<t>` for the prefix form (clients fetch these URLs as given). */
export function openApiRoot(view: RegistryView, urlPrefix: string, hashOf: (group: string, version: string) => string): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, version } of view.groupVersions()) {
    const key = groupVersionPath(group, version);
    paths[key] = { serverRelativeURL: `${urlPrefix}/openapi/v3/${key}?hash=${hashOf(group, version)}` };
  }
  return { paths };
}

/** gnostic `Document{swagger: "2.0"}` in protobuf: enough for kubectl 1.27–1.28, which insist on fetching v2. */
export const OPENAPI_V2_STUB = Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]);
export const OPENAPI_V2_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
