/**
 * The kinds an Established CRD serves: a resource definition for the generic store per served
 * version (its schema, subresources, printer columns, selectable fields and deprecation), under
 * the accepted names, all stored in the storage version.
 * Compiled definitions are shared by identical CRDs, whatever their space, so a hundred spaces
 * installing the same CRD hold one definition (and one watch cache).
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, humanAge, nameColumn, type PrinterColumn, type ResourceDefinition, type ScaleSubresource } from '../../registry/resource-definition.js';
import { compareKubeAwareVersions } from '../../registry/version-priority.js';
import { compileRules, evaluateRules, ruleSchemaPath } from './cel-rules.js';
import { applyDefaults, validateAgainstSchema } from './schema-validation.js';
import { ref, type Schema } from '../../schema/schema.js';
import { isConditionTrue, type CustomResourceColumnDefinition, type CustomResourceDefinition, type CustomResourceSubresources } from './types.js';

/** A simple JSON path (`.spec.cronSpec`, `.status.items[0]`) evaluated against an object. */
export function simpleJsonPath(obj: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let value: unknown = obj;
  for (const step of steps) {
    if (value === null || typeof value !== 'object') return undefined;
    value = step.startsWith('[') ? (value as unknown[])[Number(step.slice(1, -1))] : (value as Record<string, unknown>)[step];
  }
  return value;
}

/** One additional printer column, rendered as kube-apiserver's custom resource Table does (dates as ages). */
function printerColumn(col: CustomResourceColumnDefinition): PrinterColumn {
  const type = (col.type ?? 'string') as PrinterColumn['type'];
  return {
    name: col.name ?? '',
    type,
    ...(col.format ? { format: col.format } : {}),
    description: col.description ?? 'Custom resource definition column (in JSONPath format): ' + (col.jsonPath ?? ''),
    priority: col.priority && col.priority > 0 ? 1 : 0,
    cell: (obj, now) => {
      const value = simpleJsonPath(obj, col.jsonPath ?? '');
      if (value === undefined || value === null) return '';
      if (type === 'date') return typeof value === 'string' ? humanAge(value, now) : '';
      if (type === 'string') return typeof value === 'object' ? JSON.stringify(value) : String(value);
      return typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
    },
  };
}

/** Kubernetes' default when a version names no columns: the age, from the creation timestamp. */
const DEFAULT_COLUMNS: CustomResourceColumnDefinition[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since the object was created.' }];

/**
 * The schema with what an embedded resource always has declared (apiVersion, kind, metadata), as
 * kube-apiserver completes it, so they are neither pruned nor unknown to clients.
 */
export function withEmbeddedTypeMeta(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, withEmbeddedTypeMeta(s)]));
  if (schema.items && !Array.isArray(schema.items)) out.items = withEmbeddedTypeMeta(schema.items);
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = withEmbeddedTypeMeta(schema.additionalProperties);
  if (schema['x-kubernetes-embedded-resource']) {
    out.properties = {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
      ...out.properties,
    };
  }
  return out;
}

/** The version's schema, completed with the fields every object has. */
function objectSchema(group: string, version: string, kind: string, own: Schema | undefined): Schema {
  const base: Schema = own ? withEmbeddedTypeMeta(own) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    ...base,
    type: 'object',
    properties: {
      ...base.properties,
      apiVersion: { type: 'string', description: 'Versioned schema of this representation of the object.' },
      kind: { type: 'string', description: 'REST resource this object represents.' },
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
    },
    'x-kubernetes-group-version-kind': [{ group, version, kind }],
  };
}

/** Sets the value at a simple JSON path (`.spec.replicas`), making the objects on the way. */
function setSimpleJsonPath(obj: KubeObject, path: string, value: unknown): void {
  const steps = path.split('.').filter((s) => s !== '');
  let at = obj as Record<string, unknown>;
  for (const step of steps.slice(0, -1)) {
    const next = at[step];
    at = (next !== null && typeof next === 'object' ? next : (at[step] = {})) as Record<string, unknown>;
  }
  at[steps[steps.length - 1]!] = value;
}

/** The scale subresource over the version's replica paths, as kube-apiserver's custom resource scale does. */
function scaleSubresource(scale: NonNullable<CustomResourceSubresources['scale']>): ScaleSubresource {
  const replicas = (obj: KubeObject, path: string | undefined): number => {
    const value = path ? simpleJsonPath(obj, path) : undefined;
    return typeof value === 'number' ? value : 0;
  };
  return {
    specReplicas: (obj) => replicas(obj, scale.specReplicasPath),
    setSpecReplicas: (obj, value) => setSimpleJsonPath(obj, scale.specReplicasPath ?? '', value),
    statusReplicas: (obj) => replicas(obj, scale.statusReplicasPath),
    selector: (obj) => {
      const value = scale.labelSelectorPath ? simpleJsonPath(obj, scale.labelSelectorPath) : undefined;
      return typeof value === 'string' ? value : '';
    },
  };
}

/** Field selectors on the version's `selectableFields`: the value at the path, as its text. */
function selectableFields(fields: Array<{ jsonPath?: string }>): Record<string, (obj: KubeObject) => string | undefined> {
  return Object.fromEntries(
    fields.map(({ jsonPath = '' }) => [
      jsonPath.replace(/^\./, ''),
      (obj: KubeObject) => {
        const value = simpleJsonPath(obj, jsonPath);
        return value === undefined || value === null || typeof value === 'object' ? undefined : String(value);
      },
    ]),
  );
}

/**
 * kube-apiserver's text for a deprecated version without a warning of its own: the kind in that
 * version is deprecated, and the best served, not deprecated, newer version is named.
 */
export function defaultDeprecationWarning(version: string, spec: NonNullable<CustomResourceDefinition['spec']>): string {
  const kind = spec.names?.kind ?? '';
  const text = `${spec.group}/${version} ${kind} is deprecated`;
  const newer = (spec.versions ?? [])
    .flatMap((v) => (v.served && !v.deprecated && v.name && compareKubeAwareVersions(version, v.name) > 0 ? [v.name] : []))
    .sort(compareKubeAwareVersions);
  return newer.length === 0 ? text : `${text}; use ${spec.group}/${newer[0]} ${kind}`;
}

/** The kinds of the served versions, the storage version's first. */
function compile(crd: CustomResourceDefinition): ResourceDefinition[] {
  const spec = crd.spec;
  const names = crd.status?.acceptedNames;
  const storage = spec?.versions?.find((v) => v.storage);
  if (!spec?.group || !names?.plural || !names.kind || !storage?.name) return [];
  const served = (spec.versions ?? []).filter((v) => v.served && v.name);
  served.sort((a, b) => (a === storage ? -1 : b === storage ? 1 : 0));
  return served.map((version) => {
    const own = version.schema?.openAPIV3Schema;
    const rules = own ? compileRules(own, ruleSchemaPath(spec.versions ?? [], (spec.versions ?? []).indexOf(version))) : undefined;
    const columns = version.additionalPrinterColumns?.length ? version.additionalPrinterColumns : DEFAULT_COLUMNS;
    const scale = version.subresources?.scale;
    const deprecationWarning = version.deprecated ? (version.deprecationWarning ?? defaultDeprecationWarning(version.name!, spec)) : undefined;
    return defineKind<KubeObject>({
      group: spec.group!,
      version: version.name!,
      storageVersion: storage.name,
      ...(deprecationWarning !== undefined ? { deprecationWarning } : {}),
      kind: names.kind!,
      resource: names.plural!,
      ...(names.singular ? { singular: names.singular } : {}),
      scope: spec.scope === 'Cluster' ? 'space' : 'namespace',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      schema: objectSchema(spec.group!, version.name!, names.kind!, own as Schema | undefined),
      unstructured: true,
      ...(own ? { defaults: (obj: KubeObject) => applyDefaults(obj, own), validate: (obj: KubeObject) => validateAgainstSchema(obj, own, '') } : {}),
      // CEL rules, with the old object on update for transition rules and ratcheting.
      ...(rules?.root
        ? { validateCreate: (obj: KubeObject) => evaluateRules(rules, obj, undefined), validateUpdate: (obj: KubeObject, old: KubeObject) => evaluateRules(rules, obj, old) }
        : {}),
      kubeFinalizerNames: false,
      status: version.subresources?.status !== undefined,
      ...(scale ? { scale: scaleSubresource(scale) } : {}),
      tracksGeneration: true,
      columns: [nameColumn, ...columns.map(printerColumn)],
      selectableFields: selectableFields(version.selectableFields ?? []),
    });
  });
}

const compiled = new Map<string, ResourceDefinition[]>();

/** What the CRD decides about the served kind: its spec and accepted names. */
function servedShapeHash(crd: CustomResourceDefinition): string {
  return createHash('sha256').update(JSON.stringify([crd.spec, crd.status?.acceptedNames])).digest('hex');
}

/**
 * The kinds `crd` serves, one per served version with the storage version's first, or none
 * while it serves nothing (not Established). The same definitions are returned for identical CRDs.
 */
export function customResourceKinds(crd: CustomResourceDefinition): readonly ResourceDefinition[] {
  if (!isConditionTrue(crd, 'Established')) return [];
  const hash = servedShapeHash(crd);
  let kinds = compiled.get(hash);
  if (!kinds) compiled.set(hash, (kinds = compile(crd)));
  return kinds;
}
