/**
 * The kinds an Established CRD serves: a resource definition for the generic store per served
 * version (its schema, subresources, printer columns, selectable fields and deprecation), under
 * the accepted names, all stored in the storage version.
 * Compiled definitions are shared by identical CRDs, whatever their space, so a hundred spaces
 * installing the same CRD hold one definition (and one watch cache), and dropped once no CRD
 * uses them (`CustomResourceKinds`).
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, humanAge, nameColumn, type PrinterColumn, type ResourceDefinition, type ScaleSubresource } from '../../registry/resource-definition.js';
import { compareKubeAwareVersions } from '../../registry/version-priority.js';
import { evaluateRules, releaseRules, retainRules, ruleSchemaPath } from './cel-rules.js';
import { applyDefaults, validateAgainstSchema } from './schema-validation.js';
import { ref, type Schema } from '../../schema/schema.js';
import { SYSTEM_TENANT } from '../../spaces.js';
import { conversionWebhook, type ResolveSpaceService } from './conversion-webhook.js';
import { isConditionTrue, type CustomResourceColumnDefinition, type CustomResourceDefinition, type CustomResourceSubresources, type JSONSchemaProps } from './types.js';

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

/** The kinds one distinct CRD serves, and the CEL rule sets they hold. */
interface CompiledSpec {
  kinds: ResourceDefinition[];
  rules: Array<{ schema: JSONSchemaProps; path: string }>;
}

/** Without services (tests): a service reference answers nowhere, as Go's lookup fails. */
const noServices: ResolveSpaceService = async (_tenant, ref) => ({ error: `dial tcp: lookup ${ref.name ?? ''}.${ref.namespace ?? ''}.svc: no such host` });

/**
 * The kinds of the served versions, the storage version's first. A Webhook conversion strategy
 * gives them one converter, whose service reference `resolve` finds for the objects' space.
 */
function compile(crd: CustomResourceDefinition, resolve: ResolveSpaceService): CompiledSpec {
  const spec = crd.spec;
  const names = crd.status?.acceptedNames;
  const storage = spec?.versions?.find((v) => v.storage);
  const held: CompiledSpec['rules'] = [];
  if (!spec?.group || !names?.plural || !names.kind || !storage?.name) return { kinds: [], rules: held };
  const webhook = spec.conversion?.strategy === 'Webhook' ? spec.conversion.webhook : undefined;
  const converter = webhook ? conversionWebhook(names.kind, webhook, resolve) : undefined;
  const served = (spec.versions ?? []).filter((v) => v.served && v.name);
  served.sort((a, b) => (a === storage ? -1 : b === storage ? 1 : 0));
  const kinds = served.map((version) => {
    const own = version.schema?.openAPIV3Schema;
    const rulesPath = ruleSchemaPath(spec.versions ?? [], (spec.versions ?? []).indexOf(version));
    if (own) held.push({ schema: own, path: rulesPath });
    const rules = own ? retainRules(own, rulesPath) : undefined;
    const columns = version.additionalPrinterColumns?.length ? version.additionalPrinterColumns : DEFAULT_COLUMNS;
    const scale = version.subresources?.scale;
    const deprecationWarning = version.deprecated ? (version.deprecationWarning ?? defaultDeprecationWarning(version.name!, spec)) : undefined;
    return defineKind<KubeObject>({
      group: spec.group!,
      version: version.name!,
      storageVersion: storage.name,
      ...(converter ? { converter } : {}),
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
  return { kinds, rules: held };
}

/** What the CRD decides about the served kind: its spec and accepted names. */
function servedShapeHash(crd: CustomResourceDefinition): string {
  return createHash('sha256').update(JSON.stringify([crd.spec, crd.status?.acceptedNames])).digest('hex');
}

/** A CRD as a user of compiled kinds: its space and name. */
const userOf = (tenant: string, name: string): string => `${tenant}/${name}`;

/**
 * The compiled kinds of the CRDs a server serves, shared by identical CRDs whatever their space
 * (so a hundred spaces installing the same CRD hold one definition and one watch cache), each
 * kept while at least one CRD uses it. A CRD uses the kinds of its current spec: when it changes
 * or goes, the kinds no CRD uses any more are dropped with their CEL rules, and `onRetired` is
 * told (to end their watch caches).
 *
 * @example
 *   const kinds = new CustomResourceKinds((defs) => defs.forEach((d) => watchCaches.forget(d)));
 *   kinds.of(crd);                  // on every change of an Established CRD
 *   kinds.release('t1', crd.metadata.name); // once the CRD is gone
 */
export class CustomResourceKinds {
  private readonly compiled = new Map<string, CompiledSpec & { users: Set<string> }>();
  /** Each CRD's spec hash. */
  private readonly used = new Map<string, string>();

  constructor(
    private readonly onRetired: (defs: readonly ResourceDefinition[]) => void = () => {},
    private readonly resolveService: ResolveSpaceService = noServices,
  ) {}

  /**
   * The kinds `crd` serves, one per served version with the storage version's first, or none
   * while it serves nothing (not Established). The same definitions are returned for identical CRDs.
   */
  of(crd: CustomResourceDefinition): readonly ResourceDefinition[] {
    const user = userOf(crd.metadata.tenant ?? '', crd.metadata.name ?? '');
    if (!isConditionTrue(crd, 'Established')) {
      this.releaseUser(user);
      return [];
    }
    const hash = servedShapeHash(crd);
    if (this.used.get(user) !== hash) this.releaseUser(user);
    let spec = this.compiled.get(hash);
    if (!spec) {
      const users = new Set<string>();
      const name = crd.metadata.name ?? '';
      // Identical CRDs of several spaces share the kinds: a conversion webhook's service is looked
      // up in the space of the CRD serving the objects, theirs or (shared with them) the system's.
      const resolve: ResolveSpaceService = (tenant, ref) => this.resolveService(users.has(userOf(tenant, name)) ? tenant : SYSTEM_TENANT, ref);
      this.compiled.set(hash, (spec = { ...compile(crd, resolve), users }));
    }
    spec.users.add(user);
    this.used.set(user, hash);
    return spec.kinds;
  }

  /** The CRD `name` of `tenant` is gone: it uses no kinds any more. */
  release(tenant: string, name: string): void {
    this.releaseUser(userOf(tenant, name));
  }

  /** How many distinct CRDs have compiled kinds (for tests and metrics). */
  get size(): number {
    return this.compiled.size;
  }

  private releaseUser(user: string): void {
    const hash = this.used.get(user);
    if (hash === undefined) return;
    this.used.delete(user);
    const spec = this.compiled.get(hash);
    if (!spec) return;
    spec.users.delete(user);
    if (spec.users.size > 0) return;
    this.compiled.delete(hash);
    for (const { schema, path } of spec.rules) releaseRules(schema, path);
    this.onRetired(spec.kinds);
  }
}
