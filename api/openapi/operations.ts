/**
 * What the OpenAPI documents say about a kind, independent of the OpenAPI version: its paths, the
 * operations on each (with Kubernetes' operation ids, actions and GVK tags) and the named schemas
 * a document must carry. `openapi-v3.ts` and `openapi-v2.ts` each render this in their own form.
 *
 * @example
 *   kindPaths(deployments, '/apis/apps/v1')[1].operations[0].operationId; // 'readAppsV1NamespacedDeployment'
 */
import type { ResourceDefinition, Verb } from '../registry/resource-definition.js';
import { acceptedPatchTypes, PATCH_TYPES } from '../patch/apply-patch.js';
import { scaleSchema } from '../schema/autoscaling-types.js';
import { definitions, ref, refName, type GroupVersionKind, type Schema } from '../schema/schema.js';

export type ParameterType = 'string' | 'boolean' | 'integer';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  description: string;
  type: ParameterType;
  required?: true;
}

export interface Operation {
  method: 'get' | 'put' | 'post' | 'patch' | 'delete';
  /** `x-kubernetes-action`. */
  action: 'get' | 'put' | 'post' | 'patch' | 'delete' | 'list' | 'deletecollection';
  operationId: string;
  description: string;
  gvk: GroupVersionKind;
  parameters: Parameter[];
  /** The request body: the object itself, or a patch in one of `patchTypes`. */
  body?: 'object' | 'patch';
  /** For a patch: the content types the kind takes (custom resources take no strategic merge patch, and kubectl apply reads this). */
  patchTypes?: readonly string[];
  /** The schema of a 200 answer. */
  response: Schema;
}

export interface PathItem {
  path: string;
  /** Parameters shared by every operation of the path (name and namespace). */
  parameters: Parameter[];
  operations: Operation[];
}

export const PATCH_CONTENT_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
/** What every operation answers in. */
export const RESPONSE_CONTENT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

const SCALE_GVK: GroupVersionKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

function query(name: string, description: string, type: ParameterType = 'string'): Parameter {
  return { name, in: 'query', description, type };
}

function pathParam(name: string, description: string): Parameter {
  return { name, in: 'path', description, type: 'string', required: true };
}

const writeParams = [
  query('dryRun', 'When present (All), the request is fully processed but nothing is persisted.'),
  query('fieldManager', 'The name of the actor making the change, recorded in managedFields.'),
  query('fieldValidation', 'How unknown or duplicate fields are treated: Ignore, Warn or Strict.'),
];
const patchParams = [...writeParams, query('force', 'Takes ownership of conflicting fields (apply patches only).', 'boolean')];
const listParams = [
  query('labelSelector', 'Restricts the result to objects whose labels match.'),
  query('fieldSelector', 'Restricts the result to objects whose fields match.'),
  query('limit', 'The most items to return; more are fetched with continue.', 'integer'),
  query('continue', 'The token from a previous page of the same listing.'),
  query('resourceVersion', 'Which version of the collection to read or watch from.'),
  query('resourceVersionMatch', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  query('timeoutSeconds', 'Ends a watch after this many seconds.', 'integer'),
  query('watch', 'Streams changes instead of returning a list.', 'boolean'),
  query('allowWatchBookmarks', 'Lets a watch send BOOKMARK events.', 'boolean'),
  query('sendInitialEvents', 'Starts a watch with the current state as ADDED events.', 'boolean'),
];
const deleteParams = [query('dryRun', 'When present (All), nothing is persisted.'), query('propagationPolicy', 'Whether and how dependents are deleted.')];

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Kubernetes' operation id infix for a group version: `CoreV1`, `AppsV1`, `RbacAuthorizationV1`. */
export function groupVersionName(group: string, version: string): string {
  const groupName = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return [...groupName.split('.'), version].map(capitalize).join('');
}

/**
 * The component name of a kind's schema: its own for built-in kinds, Kubernetes' name for a
 * custom resource's (`com.example.stable.v1.CronTab`: the group reversed, version, kind). Custom
 * names are per document, so two spaces' same-named kinds never meet.
 */
function schemaName(def: ResourceDefinition): string {
  return refName(def.schema) ?? [...def.group.split('.').reverse(), def.version, def.kind].join('.');
}

/** The paths of one kind under `prefix` (`/api/v1`): collection, item, and its subresources. */
export function kindPaths(def: ResourceDefinition, prefix: string): PathItem[] {
  const objectSchema = ref(schemaName(def));
  const accepted = new Set(acceptedPatchTypes(def.schema).map((t) => PATCH_TYPES[t]));
  const patchTypes = PATCH_CONTENT_TYPES.filter((t) => accepted.has(t as (typeof PATCH_TYPES)[keyof typeof PATCH_TYPES]));
  const namespaced = def.scope === 'namespace';
  const base = namespaced ? `${prefix}/namespaces/{namespace}/${def.resource}` : `${prefix}/${def.resource}`;
  const scopeParams = namespaced ? [pathParam('namespace', 'object name and auth scope, such as for teams and projects')] : [];
  const itemParams = [pathParam('name', `name of the ${def.kind}`), ...scopeParams];
  const gvk: GroupVersionKind = { group: def.group, version: def.version, kind: def.kind };
  // `readCoreV1NamespacedPodStatus`, `deleteRbacAuthorizationV1CollectionClusterRole`.
  const id = (verb: string, suffix = '', collection = false): string =>
    `${verb}${groupVersionName(def.group, def.version)}${collection ? 'Collection' : ''}${namespaced ? 'Namespaced' : ''}${def.kind}${suffix}`;
  const can = (verb: Verb): boolean => def.verbs.includes(verb);

  const collection: Operation[] = [];
  if (can('list')) collection.push({ method: 'get', action: 'list', operationId: id('list'), description: `list or watch objects of kind ${def.kind}`, gvk, parameters: listParams, response: objectSchema });
  if (can('create')) collection.push({ method: 'post', action: 'post', operationId: id('create'), description: `create a ${def.kind}`, gvk, parameters: writeParams, body: 'object', response: objectSchema });
  if (can('deletecollection')) {
    collection.push({ method: 'delete', action: 'deletecollection', operationId: id('delete', '', true), description: `delete collection of ${def.kind}`, gvk, parameters: listParams.slice(0, 2), response: objectSchema });
  }
  const item: Operation[] = [];
  if (can('get')) item.push({ method: 'get', action: 'get', operationId: id('read'), description: `read the specified ${def.kind}`, gvk, parameters: [], response: objectSchema });
  if (can('update')) item.push({ method: 'put', action: 'put', operationId: id('replace'), description: `replace the specified ${def.kind}`, gvk, parameters: writeParams, body: 'object', response: objectSchema });
  if (can('patch')) item.push({ method: 'patch', action: 'patch', operationId: id('patch'), description: `partially update the specified ${def.kind}`, gvk, parameters: patchParams, body: 'patch', patchTypes, response: objectSchema });
  if (can('delete')) item.push({ method: 'delete', action: 'delete', operationId: id('delete'), description: `delete a ${def.kind}`, gvk, parameters: deleteParams, response: objectSchema });

  const paths: PathItem[] = [];
  if (collection.length > 0) paths.push({ path: base, parameters: scopeParams, operations: collection });
  if (item.length > 0) paths.push({ path: `${base}/{name}`, parameters: itemParams, operations: item });
  const subresource = (name: string, title: string, subGvk: GroupVersionKind, schema: Schema, types: readonly string[]): PathItem => ({
    path: `${base}/{name}/${name}`,
    parameters: itemParams,
    operations: [
      { method: 'get', action: 'get', operationId: id('read', title), description: `read ${name} of the specified ${def.kind}`, gvk: subGvk, parameters: [], response: schema },
      { method: 'put', action: 'put', operationId: id('replace', title), description: `replace ${name} of the specified ${def.kind}`, gvk: subGvk, parameters: writeParams, body: 'object', response: schema },
      { method: 'patch', action: 'patch', operationId: id('patch', title), description: `partially update ${name} of the specified ${def.kind}`, gvk: subGvk, parameters: patchParams, body: 'patch', patchTypes: types, response: schema },
    ],
  });
  if (def.status) paths.push(subresource('status', 'Status', gvk, objectSchema, patchTypes));
  if (def.scale) paths.push(subresource('scale', 'Scale', SCALE_GVK, scaleSchema, PATCH_CONTENT_TYPES));
  return paths;
}

/** Every path of every kind in `defs`, each under its group version's prefix, sorted as kube-apiserver's documents are. */
export function documentPaths(defs: readonly ResourceDefinition[]): PathItem[] {
  return defs.flatMap((def) => kindPaths(def, `/${groupVersionPath(def.group, def.version)}`)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The document key (`api/v1`, `apis/apps/v1`) of a group/version. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** Every named schema the paths use, directly or through others, sorted by name: a self-contained document. */
export function reachableSchemas(paths: readonly PathItem[], defs: readonly ResourceDefinition[]): Map<string, Schema> {
  const out = new Map<string, Schema>();
  // Custom resources' schemas are the kinds' own, named here.
  const local = new Map(defs.filter((d) => refName(d.schema) === undefined).map((d) => [schemaName(d), d.schema]));
  const visit = (s: Schema | undefined): void => {
    if (!s) return;
    const name = refName(s);
    if (name !== undefined) {
      const target = local.get(name) ?? definitions.get(name);
      if (out.has(name) || !target) return;
      out.set(name, target);
      visit(target);
      return;
    }
    for (const child of Object.values(s.properties ?? {})) visit(child);
    if (s.items) visit(s.items);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? [])]) visit(sub);
  };
  for (const path of paths) for (const op of path.operations) visit(op.response);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
