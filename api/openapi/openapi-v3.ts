/**
 * `/openapi/v3` documents built from the registry: a root listing one document per group/version,
 * and per group/version the paths of every kind with its operations and the schemas they use.
 * kubectl reads them for `explain`, to detect server-side field validation (a `patch` operation
 * tagged with the kind's GVK that takes `fieldValidation`) and for strategic merge patch (merge
 * keys in the schemas, and the SMP content type on the patch operation).
 */
import type { RegistryView } from '../registry/registry.js';
import type { Schema } from '../schema/schema.js';
import {
  documentPaths,
  groupVersionPath,
  reachableSchemas,
  RESPONSE_CONTENT_TYPES,
  type Operation,
  type Parameter,
  type PathItem,
} from './operations.js';

export interface OpenApiDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}

function parameter(p: Parameter): unknown {
  return { name: p.name, in: p.in, description: p.description, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

function content(schema: Schema, types: readonly string[]): unknown {
  return Object.fromEntries(types.map((t) => [t, { schema }]));
}

function requestBody(op: Operation): unknown {
  return { content: op.body === 'object' ? content(op.response, ['*/*']) : content({ type: 'object' }, op.patchTypes ?? []), required: true };
}

function operation(op: Operation): unknown {
  return {
    description: op.description,
    operationId: op.operationId,
    ...(op.parameters.length > 0 ? { parameters: op.parameters.map(parameter) } : {}),
    ...(op.body ? { requestBody: requestBody(op) } : {}),
    responses: { '200': { description: 'OK', content: content(op.response, RESPONSE_CONTENT_TYPES) } },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': op.gvk,
  };
}

function pathItem(item: PathItem): Record<string, unknown> {
  return { parameters: item.parameters.map(parameter), ...Object.fromEntries(item.operations.map((op) => [op.method, operation(op)])) };
}

export function groupVersionDocument(view: RegistryView, group: string, version: string, kubeVersion: string): OpenApiDocument | undefined {
  const defs = view.all().filter((d) => d.group === group && d.version === version);
  if (defs.length === 0) return undefined;
  const paths = documentPaths(defs);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: kubeVersion },
    paths: Object.fromEntries(paths.map((p) => [p.path, pathItem(p)])),
    components: { schemas: Object.fromEntries(reachableSchemas(paths, defs)) },
  };
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
