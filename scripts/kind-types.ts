/**
 * Renders the named schemas the kinds register (`definitions` in api/schema/schema.ts) as one
 * TypeScript file of interfaces for `kube-spaces/client`, so a controller author's `Pod` has every
 * field the server's schema has, with its description, rather than the fields the server's own code
 * happens to touch. scripts/generate-client-types.ts writes the file; a test checks it is current.
 *
 * @example
 *   import '../api/kinds/index.js'; // registers every kind's schemas
 *   const source = renderKindTypes(definitions); // the text of src/client/kind-types.generated.ts
 */
import { QUANTITY, refName, type Schema, type SchemaDefinitions } from '../api/schema/schema.js';

/** The generated file, from the repository root. */
export const KIND_TYPES_FILE = 'src/client/kind-types.generated.ts';

/** The command that rewrites the generated file. */
export const GENERATE_COMMAND = 'npm run generate:client-types';

/** Rendered as the client's own `ObjectMeta`, which `KubeObject` requires of every object. */
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const HEADER = `/**
 * Types of every schema the server registers (its built-in kinds and the types they are made of),
 * generated from those schemas by scripts/kind-types.ts: every property with its description,
 * optional unless the schema requires it. Do not edit: run \`${GENERATE_COMMAND}\`
 * after changing a schema (a test fails while this file is stale).
 *
 * Names: a schema's last name segment (\`io.k8s.api.core.v1.Pod\` → \`Pod\`). Where several schemas
 * share that segment, each of them is prefixed by its group and version instead (the names the
 * JavaScript Kubernetes client gives them): \`CoreV1Event\` and \`EventsV1Event\`, \`RbacV1Subject\` and
 * \`FlowcontrolV1Subject\`, \`AdmissionregistrationV1alpha1MutatingAdmissionPolicy\`. Each type's
 * comment ends with its schema's name. \`BuiltinKindTypes\` maps \`apiVersion/kind\` to a kind's type.
 *
 * Mapping: \`$ref\` → the named type; arrays → \`T[]\`; maps → \`Record<string, T>\`; \`enum\` → a
 * union of literals; IntOrString → \`number | string\`; Quantity → \`string | number\`; free-form
 * objects (\`x-kubernetes-preserve-unknown-fields\`) → \`Record<string, unknown>\`; a schema without a
 * type (any JSON value) → \`unknown\`. A kind (a schema with a group/version/kind and ObjectMeta
 * metadata) extends \`KubeObject\`, and its \`metadata\` is the client's \`ObjectMeta\`, \`tenant\`
 * included; the server always sets it.
 */
import type { KubeObject, ObjectMeta } from '../../api/registry/object.js';`;

/**
 * The TypeScript name of each schema: its last segment, or group, version and last segment for
 * every schema whose last segment another schema shares (see the generated file's header).
 */
export function typeNames(schemaNames: Iterable<string>): Map<string, string> {
  const bySegment = new Map<string, string[]>();
  for (const name of schemaNames) {
    const segment = lastSegment(name);
    bySegment.set(segment, [...(bySegment.get(segment) ?? []), name]);
  }
  const names = new Map<string, string>();
  for (const [segment, sharing] of bySegment) {
    for (const name of sharing) names.set(name, sharing.length === 1 ? segment : groupVersionPrefix(name) + segment);
  }
  const taken = new Map<string, string>();
  for (const [schemaName, typeName] of names) {
    const other = taken.get(typeName);
    if (other !== undefined) throw new Error(`schemas ${other} and ${schemaName} would both be named ${typeName}`);
    taken.set(typeName, schemaName);
  }
  return names;
}

function lastSegment(schemaName: string): string {
  return schemaName.slice(schemaName.lastIndexOf('.') + 1);
}

/** `io.k8s.api.events.v1.Event` → `EventsV1`: the two segments before the name. */
function groupVersionPrefix(schemaName: string): string {
  const [group = '', version = ''] = schemaName.split('.').slice(-3, -1);
  return pascalCase(group) + pascalCase(version);
}

function pascalCase(segment: string): string {
  const word = segment.replace(/[^A-Za-z0-9]/g, '');
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Whether objects of this schema are stored objects: a group/version/kind, and ObjectMeta metadata. */
function isKind(schema: Schema): boolean {
  const metadata = schema.properties?.metadata;
  const metadataType = metadata && (refName(metadata) ?? (metadata.allOf?.length === 1 ? refName(metadata.allOf[0]!) : undefined));
  return schema['x-kubernetes-group-version-kind'] !== undefined && metadataType === OBJECT_META;
}

/** The whole generated file, for the given schemas. */
export function renderKindTypes(definitions: SchemaDefinitions): string {
  const names = typeNames(definitions.keys());
  names.set(OBJECT_META, 'ObjectMeta');
  const declarations = [...definitions]
    .filter(([schemaName]) => schemaName !== OBJECT_META)
    .map(([schemaName, schema]) => ({ typeName: names.get(schemaName)!, lines: declaration(schemaName, schema, names) }))
    .sort((a, b) => compare(a.typeName, b.typeName));
  return [HEADER, ...declarations.map((d) => d.lines.join('\n')), builtinKindTypes(definitions, names).join('\n')].join('\n') + '\n';
}

/** Code-unit order, so the output does not depend on the machine's locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function declaration(schemaName: string, schema: Schema, names: Map<string, string>): string[] {
  const typeName = names.get(schemaName)!;
  const doc = docComment([...descriptionLines(schema), ...(schema.description ? [''] : []), `Schema \`${schemaName}\`.`], '');
  if (schema.type === 'object' && schema.properties) {
    const heritage = isKind(schema) ? ' extends KubeObject' : '';
    return ['', ...doc, `export interface ${typeName}${heritage} {`, ...members(schema, names, '  '), '}'];
  }
  return ['', ...doc, `export type ${typeName} = ${typeOf(schema, names, '')};`];
}

function builtinKindTypes(definitions: SchemaDefinitions, names: Map<string, string>): string[] {
  const entries: Array<[string, string]> = [];
  for (const [schemaName, schema] of definitions) {
    if (!isKind(schema)) continue;
    for (const { group, version, kind } of schema['x-kubernetes-group-version-kind']!) {
      entries.push([`${group ? `${group}/` : ''}${version}/${kind}`, names.get(schemaName)!]);
    }
  }
  entries.sort(([a], [b]) => compare(a, b));
  return [
    '',
    '/** The type of each kind above, by `apiVersion/kind` (`v1/Pod`, `apps/v1/Deployment`). */',
    'export interface BuiltinKindTypes {',
    ...entries.map(([key, typeName]) => `  '${key}': ${typeName};`),
    '}',
  ];
}

function members(schema: Schema, names: Map<string, string>, indent: string): string[] {
  const required = new Set(schema.required ?? []);
  // Every object the server hands out has metadata; KubeObject requires it.
  if (isKind(schema)) required.add('metadata');
  const properties = schema.properties ?? {};
  return Object.keys(properties)
    .sort(compare)
    .flatMap((key) => {
      const property = properties[key]!;
      const optional = required.has(key) ? '' : '?';
      return [...docComment(descriptionLines(property), indent), `${indent}${propertyKey(key)}${optional}: ${typeOf(property, names, indent)};`];
    });
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : quote(key);
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function typeOf(schema: Schema, names: Map<string, string>, indent: string): string {
  const target = refName(schema);
  if (target !== undefined) {
    const typeName = names.get(target);
    if (typeName === undefined) throw new Error(`reference to undefined schema ${target}`);
    return typeName;
  }
  if (schema.allOf) {
    // `described(ref, …)`: Kubernetes' form for a reference with a description of its own.
    if (schema.allOf.length !== 1) throw new Error(`allOf of ${schema.allOf.length} schemas has no TypeScript form here`);
    return typeOf(schema.allOf[0]!, names, indent);
  }
  if (schema[QUANTITY]) return 'string | number';
  if (schema['x-kubernetes-int-or-string']) return 'number | string';
  if (schema.anyOf) throw new Error('anyOf beyond IntOrString has no TypeScript form here');
  if (schema.enum) return schema.enum.map((value) => (typeof value === 'string' ? quote(value) : String(value))).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      if (!schema.items) throw new Error('array schema without items');
      const item = typeOf(schema.items, names, indent);
      return item.includes(' | ') ? `Array<${item}>` : `${item}[]`;
    }
    case 'object':
      if (schema.properties) return ['{', ...members(schema, names, `${indent}  `), `${indent}}`].join('\n');
      if (typeof schema.additionalProperties === 'object') return `Record<string, ${typeOf(schema.additionalProperties, names, indent)}>`;
      // Free-form: x-kubernetes-preserve-unknown-fields, or any properties allowed.
      return 'Record<string, unknown>';
    case undefined:
      // No type: any JSON value (apiextensions' JSON and its schema-or-bool unions).
      return 'unknown';
  }
}

function descriptionLines(schema: Schema): string[] {
  const lines = schema.description ? schema.description.split('\n') : [];
  if (schema.default !== undefined) lines.push(`@defaultValue \`${JSON.stringify(schema.default)}\``);
  return lines;
}

function docComment(lines: string[], indent: string): string[] {
  // `*/` inside a description would end the comment early.
  const safe = lines.map((line) => line.replace(/\*\//g, '*\\/'));
  if (safe.length === 0) return [];
  if (safe.length === 1) return [`${indent}/** ${safe[0]} */`];
  return [`${indent}/**`, ...safe.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`];
}
