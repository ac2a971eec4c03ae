/**
 * The `/openapi/v2` document: one Swagger 2.0 document for everything a space serves, built from
 * the same paths and schemas as the v3 documents, and its protobuf form (gnostic's
 * `openapi.v2.Document`). kubectl up to 1.28 fetches it in protobuf for `explain`, client-side
 * validation and strategic merge patch; Helm and older client-go tools read it in JSON.
 *
 * v2 differs from v3 in form only: references point into `#/definitions/`, a described reference
 * is `$ref` with a description beside it rather than `allOf: [$ref]`, int-or-string values are
 * strings of format `int-or-string` rather than `anyOf`, and bodies are `in: body` parameters.
 *
 * @example
 *   const doc = swaggerDocument(registry.view(tenant), 'v1.33.0');
 *   doc.definitions['io.k8s.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind']; // [{ group: '', kind: 'ConfigMap', version: 'v1' }]
 *   const bytes = swaggerProtobuf(doc);
 */
import protobuf from 'protobufjs';
import { stringify as toYaml } from 'yaml';
import type { RegistryView } from '../registry/registry.js';
import { refName, type Schema } from '../schema/schema.js';
import { documentPaths, reachableSchemas, RESPONSE_CONTENT_TYPES, type Operation, type Parameter, type PathItem } from './operations.js';

/** The protobuf media type kube-apiserver answers with (it also accepts the older `…v2@v1.0+protobuf`). */
export const SWAGGER_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
export const SWAGGER_PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** A Swagger 2.0 schema: like a v3 one, in v2's form (see the module comment). */
export type SwaggerSchema = { [key: string]: unknown };

export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, SwaggerSchema>;
}

const DEFINITIONS = '#/definitions/';

/** A v3 schema in v2's form. */
export function swaggerSchema(s: Schema): SwaggerSchema {
  const { $ref: _ref, allOf, anyOf, properties, items, additionalProperties, 'x-kubernetes-int-or-string': intOrString, ...rest } = s;
  let out: SwaggerSchema = {};
  const name = refName(s);
  if (name !== undefined) out.$ref = DEFINITIONS + name;
  // Kubernetes' v2 form of IntOrString and Quantity. v2 has no anyOf: other alternatives (none
  // among the built-in schemas) would be left out, leaving any value allowed.
  if (intOrString && anyOf) Object.assign(out, { type: 'string', format: 'int-or-string' });
  Object.assign(out, rest);
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, swaggerSchema(p)]));
  if (items) out.items = swaggerSchema(items);
  if (additionalProperties !== undefined) out.additionalProperties = typeof additionalProperties === 'object' ? swaggerSchema(additionalProperties) : additionalProperties;
  // A described reference: v2 allows a description (and extensions) beside `$ref`.
  if (allOf?.length === 1 && s.type === undefined && properties === undefined) out = { ...swaggerSchema(allOf[0]!), ...out };
  else if (allOf) out.allOf = allOf.map(swaggerSchema);
  return out;
}

function parameter(p: Parameter): unknown {
  return { description: p.description, in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function operation(op: Operation): unknown {
  const body = op.body && { in: 'body', name: 'body', required: true, schema: op.body === 'object' ? swaggerSchema(op.response) : { type: 'object' } };
  return {
    description: op.description,
    consumes: op.body === 'patch' ? (op.patchTypes ?? []) : ['*/*'],
    produces: RESPONSE_CONTENT_TYPES,
    schemes: ['https'],
    operationId: op.operationId,
    ...(body || op.parameters.length > 0 ? { parameters: [...(body ? [body] : []), ...op.parameters.map(parameter)] } : {}),
    responses: { '200': { description: 'OK', schema: swaggerSchema(op.response) }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': op.gvk,
  };
}

function pathItem(item: PathItem): Record<string, unknown> {
  return { ...Object.fromEntries(item.operations.map((op) => [op.method, operation(op)])), parameters: item.parameters.map(parameter) };
}

/** The whole `/openapi/v2` document of what `view` serves. */
export function swaggerDocument(view: RegistryView, kubeVersion: string): SwaggerDocument {
  const defs = view.all();
  const paths = documentPaths(defs);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: kubeVersion },
    paths: Object.fromEntries(paths.map((p) => [p.path, pathItem(p)])),
    definitions: Object.fromEntries([...reachableSchemas(paths, defs)].map(([name, s]) => [name, swaggerSchema(s)])),
  };
}

// --- protobuf form: the JSON document mapped onto gnostic's messages (our openapi-v2.proto) ---

const messages = protobuf.loadSync(new URL('../protobuf/proto/gnostic/openapi-v2.proto', import.meta.url).pathname);
messages.resolveAll();
const documentType = messages.lookupType('gnostic.openapi.v2.Document');

type Message = Record<string, unknown>;
type Json = Record<string, unknown>;

/** gnostic keeps free values (defaults, enum members, extensions) as YAML text; JSON values print as YAML. */
const any = (value: unknown): Message => ({ yaml: toYaml(value) });

function extensions(json: Json): Message[] {
  return Object.entries(json)
    .filter(([key]) => key.startsWith('x-'))
    .map(([name, value]) => ({ name, value: any(value) }));
}

function schemaMessage(s: Json): Message {
  const m: Message = {};
  if (typeof s.$ref === 'string') m.ref = s.$ref;
  if (typeof s.format === 'string') m.format = s.format;
  if (typeof s.description === 'string') m.description = s.description;
  if (s.default !== undefined) m.default = any(s.default);
  if (Array.isArray(s.required)) m.required = s.required;
  if (Array.isArray(s.enum)) m.enum = s.enum.map(any);
  if (typeof s.additionalProperties === 'object') m.additionalProperties = { schema: schemaMessage(s.additionalProperties as Json) };
  else if (typeof s.additionalProperties === 'boolean') m.additionalProperties = { allowed: s.additionalProperties };
  if (typeof s.type === 'string') m.type = { value: [s.type] };
  if (s.items) m.items = { schema: [schemaMessage(s.items as Json)] };
  if (Array.isArray(s.allOf)) m.allOf = s.allOf.map((sub: Json) => schemaMessage(sub));
  if (s.properties) m.properties = namedSchemas(s.properties as Record<string, Json>);
  const ext = extensions(s);
  if (ext.length > 0) m.vendorExtension = ext;
  return m;
}

function namedSchemas(schemas: Record<string, Json>): Message {
  return { entry: Object.entries(schemas).map(([name, s]) => ({ name, value: schemaMessage(s) })) };
}

function parameterMessage(p: Json): Message {
  if (p.in === 'body') return { parameter: { body: { name: p.name, in: p.in, required: p.required === true, schema: schemaMessage(p.schema as Json) } } };
  const fields: Message = { in: p.in, description: p.description, name: p.name, type: p.type, uniqueItems: p.uniqueItems === true };
  if (p.required === true) fields.required = true;
  return { parameter: { nonBody: p.in === 'path' ? { path: fields } : { query: fields } } };
}

function operationMessage(op: Json): Message {
  const responses = Object.entries(op.responses as Record<string, Json>).map(([code, r]) => ({
    name: code,
    value: { response: { description: r.description, ...(r.schema ? { schema: { schema: schemaMessage(r.schema as Json) } } : {}) } },
  }));
  return {
    description: op.description,
    operationId: op.operationId,
    produces: op.produces,
    consumes: op.consumes,
    parameters: ((op.parameters as Json[] | undefined) ?? []).map(parameterMessage),
    responses: { responseCode: responses },
    schemes: op.schemes,
    vendorExtension: extensions(op),
  };
}

function pathItemMessage(item: Record<string, unknown>): Message {
  const m: Message = {};
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) if (item[method]) m[method] = operationMessage(item[method] as Json);
  m.parameters = ((item.parameters as Json[] | undefined) ?? []).map(parameterMessage);
  return m;
}

/** The document as gnostic's `openapi.v2.Document` protobuf, what kubectl decodes. */
export function swaggerProtobuf(doc: SwaggerDocument): Uint8Array {
  const message = {
    swagger: doc.swagger,
    info: doc.info,
    paths: { path: Object.entries(doc.paths).map(([name, item]) => ({ name, value: pathItemMessage(item) })) },
    definitions: namedSchemas(doc.definitions),
  };
  // Plain objects in the messages' shape encode as they are (fromObject would copy the whole tree first).
  return documentType.encode(message).finish();
}
