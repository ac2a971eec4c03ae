/**
 * The kind an Established CRD serves: a resource definition for the generic store, built from
 * the CRD's storage version (its schema, subresources and printer columns) and accepted names.
 * Compiled definitions are shared by identical CRDs, whatever their space, so a hundred spaces
 * installing the same CRD hold one definition (and one watch cache).
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, humanAge, nameColumn, type PrinterColumn, type ResourceDefinition } from '../../registry/resource-definition.js';
import { ref, type Schema } from '../../schema/schema.js';
import { isConditionTrue, type CustomResourceColumnDefinition, type CustomResourceDefinition } from './types.js';

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

/** The storage version's schema, completed with the fields every object has. */
function objectSchema(group: string, version: string, kind: string, own: Schema | undefined): Schema {
  const base: Schema = own ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
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

function compile(crd: CustomResourceDefinition): ResourceDefinition | undefined {
  const spec = crd.spec;
  const names = crd.status?.acceptedNames;
  const version = spec?.versions?.find((v) => v.storage && v.served);
  if (!spec?.group || !names?.plural || !names.kind || !version?.name) return undefined;
  const columns = version.additionalPrinterColumns?.length ? version.additionalPrinterColumns : DEFAULT_COLUMNS;
  return defineKind<KubeObject>({
    group: spec.group,
    version: version.name,
    kind: names.kind,
    resource: names.plural,
    ...(names.singular ? { singular: names.singular } : {}),
    scope: spec.scope === 'Cluster' ? 'space' : 'namespace',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    schema: objectSchema(spec.group, version.name, names.kind, version.schema?.openAPIV3Schema as Schema | undefined),
    kubeFinalizerNames: false,
    status: version.subresources?.status !== undefined,
    tracksGeneration: true,
    columns: [nameColumn, ...columns.map(printerColumn)],
  });
}

const compiled = new Map<string, ResourceDefinition | undefined>();

/** What the CRD decides about the served kind: its spec and accepted names. */
function servedShapeHash(crd: CustomResourceDefinition): string {
  return createHash('sha256').update(JSON.stringify([crd.spec, crd.status?.acceptedNames])).digest('hex');
}

/**
 * The kind `crd` serves, or undefined while it serves none (not Established, being deleted, or
 * without a served storage version). The same definition object is returned for identical CRDs.
 */
export function customResourceKind(crd: CustomResourceDefinition): ResourceDefinition | undefined {
  if (!isConditionTrue(crd, 'Established')) return undefined;
  const hash = servedShapeHash(crd);
  if (!compiled.has(hash)) compiled.set(hash, compile(crd));
  return compiled.get(hash);
}
