/**
 * The one generic store: create, read, update, delete and list for every kind, from the kind's
 * definition and its small strategy. It owns system metadata (uid, timestamps, generation,
 * resourceVersion), optimistic concurrency, generateName retries, finalizers, dry-run, the
 * spec/status split and the mapping of storage errors to API errors (kube-apiserver's
 * `registry/generic/registry/store.go` plays the same part). Watch lives in `watch-hub.ts`.
 *
 * Every operation names its space: a tenant is part of every location, never implied.
 */
import type { UserInfo } from '../access.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../status.js';
import { isStorageError, StorageError } from '../../storage/errors.js';
import { keyPrefix, objectKey } from '../../storage/keys.js';
import type { KeyValue, Store } from '../../storage/store.js';
import { StorageClusters } from '../../storage/storage-clusters.js';
import { decodeClusterContinue, encodeClusterContinue, encodeContinue } from '../../storage/continue-token.js';
import { formatClusterRevisions, isClusterRevisions, ownRevision, parseClusterRevisions } from './cluster-revisions.js';
import type { LabelSelector } from '../selection/label-selector.js';
import { canonicalizeDecoded, checkObject, dropFields } from '../schema/check-object.js';
import type { Schema } from '../schema/schema.js';
import { computeUpdateManagedFields, FieldSet, fieldsOutside, statusResetFields } from '../apply/index.js';
import { goQuote } from '../apply/path-element.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.js';
import { alreadyExists, badRequest, checkTypeMeta, conflict, expired, fromStorageError, invalid, notFound, typeMetaText } from './api-errors.js';
import type { FieldError } from './field-error.js';
import { deletionFinalizers, type PropagationOptions } from './garbage-collection.js';
import { gracefulDeletion, type DeletionMark } from './graceful-deletion.js';
import { nowTimestamp } from './timestamp.js';
import type { KubeObject, ListMeta } from './object.js';
import type { ObjectConverter, ResourceDefinition, UpdateSubresource } from './resource-definition.js';

/** The tenant value that means every space, for list, watch and delete-collection. */
export { ALL_TENANTS } from '../spaces.js';
import { ALL_TENANTS } from '../spaces.js';
import { semanticEqual } from '../validation/equality.js';

export interface ObjectLocation {
  tenant: string;
  /** For namespace-scoped kinds only. */
  namespace?: string;
  name: string;
}

export interface CollectionScope {
  /** A tenant, or ALL_TENANTS. Ignored for cluster-scoped kinds. */
  tenant: string;
  /** Restricts to one namespace (of one space, or of every space with ALL_TENANTS). */
  namespace?: string;
}

export interface ListQuery {
  labelSelector?: LabelSelector;
  fieldMatch?: (obj: KubeObject) => boolean;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface ListResult {
  items: KubeObject[];
  metadata: ListMeta;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  dryRun?: boolean;
  /** Who writes, recorded in managedFields (see `fieldManagerName`); the server's own writes are `kube-spaces`. */
  fieldManager?: string;
  fieldValidation?: FieldValidation;
  /** Keys the request body held twice, reported per `fieldValidation` like unknown fields. */
  duplicateFields?: string[];
  /** Warnings for the response's `Warning` headers; the store appends to it. */
  warnings?: string[];
  /** Annotations for the request's audit events; admission adds to it. */
  auditAnnotations?: Map<string, string>;
  /** Who asks for the write, for admission checks that depend on it (RBAC escalation); unset for the server's own writes. */
  user?: UserInfo;
}

export interface DeleteOptions extends WriteOptions, PropagationOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  /** The eviction asking for this delete: webhooks and policies are asked about it instead. */
  reviewedAs?: ReviewedWrite;
}

/**
 * A write as webhooks and admission policies are asked about it when the request names a
 * subresource whose body is a kind of its own, as kube-apiserver asks them: `scale` is an UPDATE of
 * an autoscaling/v1 Scale, `eviction` a CREATE of a policy/v1 Eviction. Other admission plugins
 * still see the stored write (the workload's update, the pod's delete).
 */
export interface ReviewedWrite {
  operation: 'create' | 'update';
  subresource: 'scale' | 'eviction';
  kind: { group: string; version: string; kind: string };
  schema: Schema;
  object: KubeObject;
  old: KubeObject | undefined;
}

/** The write as webhooks and policies are asked about it: the reviewed view, or the write itself. */
export interface AskedWrite {
  operation: AdmissionAttributes['operation'];
  subresource: string;
  kind: ReviewedWrite['kind'];
  schema: Schema;
  object: KubeObject;
  old: KubeObject | undefined;
  /** A view of a kind of its own (a Scale, an Eviction): not converted between the resource's versions. */
  view: boolean;
}

export function askedWrite(attrs: AdmissionAttributes): AskedWrite {
  const r = attrs.reviewed;
  if (r) return { ...r, view: true };
  const { def } = attrs;
  return { operation: attrs.operation, subresource: attrs.subresource ?? '', kind: { group: def.group, version: def.version, kind: def.kind }, schema: def.schema, object: attrs.object, old: attrs.old, view: false };
}

/** An object as the store writes it: the kind's storage kind and version, no resourceVersion (the store's revision is the truth). */
export function storedForm(def: ResourceDefinition, obj: KubeObject): string {
  const stored = def.toStorage(obj);
  const { resourceVersion: _rv, ...metadata } = stored.metadata;
  return JSON.stringify({ ...stored, metadata });
}

/** How an update through `scale` is shown to webhooks and policies, and takes back what they changed. */
export interface ReviewedView {
  subresource: 'scale';
  kind: ReviewedWrite['kind'];
  schema: Schema;
  of(obj: KubeObject): KubeObject;
  /** Writes a mutated view back into the object to store. */
  apply(obj: KubeObject, view: KubeObject): void;
}

export interface DeleteResult {
  object: KubeObject;
  /** False when finalizers keep the object (now marked for deletion): the API answers 202. */
  deleted: boolean;
}

export type { UpdateSubresource } from './resource-definition.js';

/** Options of the update path; `markDeleting` is the store's own, for DELETE of a held or gracefully deleted object. */
interface UpdateOptions extends WriteOptions {
  subresource?: UpdateSubresource;
  reviewedView?: ReviewedView;
  /** The object comes from server-side apply, whose managedFields are already computed. */
  applied?: boolean;
  markDeleting?: DeletionMark;
}

export interface AdmissionAttributes {
  operation: 'create' | 'update' | 'delete';
  def: ResourceDefinition;
  tenant: string;
  namespace: string | undefined;
  object: KubeObject;
  old: KubeObject | undefined;
  /** Who asks; undefined for the server's own writes (controllers). */
  user: UserInfo | undefined;
  /** A dry run: plugins check, but charge or reserve nothing that outlives the request (quota). */
  dryRun?: boolean;
  /** The part an update writes (`status`, …); undefined for the whole object. */
  subresource?: UpdateSubresource;
  /** What webhooks and policies are asked about instead, for `scale` and `eviction`. */
  reviewed?: ReviewedWrite;
  /** The response's `Warning` headers; plugins that only warn (PodSecurity's warn mode) append here. */
  warnings?: string[];
  /** The request's audit annotations (admission policies' `Audit` action and auditAnnotations). */
  auditAnnotations?: Map<string, string>;
}

/**
 * An admission plugin, in two phases as kube-apiserver's chain. `mutate` (mutating admission: a
 * LimitRange's defaults) runs on create and update before the kind's strategy prepares and
 * validates the object. `admit` (validating admission) runs after validation, just before the
 * write: it may refuse it with an ApiError, or reserve something (a cluster IP, quota usage) and
 * return how to undo that should the write not happen. `deleted` runs after an object is gone, to
 * release what it held.
 */
export interface AdmissionPlugin {
  mutate?(attrs: AdmissionAttributes): Promise<void> | void;
  admit(attrs: AdmissionAttributes): Promise<Undo | void> | Undo | void;
  deleted?(def: ResourceDefinition, obj: KubeObject): Promise<void>;
}

export type Undo = () => Promise<void>;

/** A change applied to the current object by update-like verbs (patch, scale, finalize). */
export type Mutation = (current: KubeObject) => KubeObject | Promise<KubeObject>;

/** The field manager of the server's own writes (controllers, admission). */
export const SERVER_FIELD_MANAGER = 'kube-spaces';

/**
 * What the main resource's writes may not own, made once: the fields a create takes are
 * remembered per reset-field set by identity (apply/created-fields.ts). Never changed.
 */
const STATUS_RESET_FIELDS = statusResetFields();
const NO_RESET_FIELDS = new FieldSet();

/** Concurrent deletes of one delete-collection: enough to hide etcd's round trips, few enough to stay fair. */
const DELETE_COLLECTION_IN_FLIGHT = 32;
const GENERATE_NAME_ATTEMPTS = 8; // generated names collide rarely; a few retries make a failure vanishingly unlikely
const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'; // Kubernetes' alphabet: no vowels, so no words

export { nowTimestamp };

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i += 1) s += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return s;
}

/** Everything but metadata and status: what a generation counts changes of. */
function specOf(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

async function runUndos(undos: Undo[]): Promise<void> {
  for (const undo of undos.reverse()) await undo();
}

function isReason(err: unknown, reason: ApiError['reason']): boolean {
  return err instanceof ApiError && err.reason === reason;
}

/** Go's wording for unknown fields: `strict decoding error: unknown field "a", unknown field "b"`. */
function strictDecodingError(unknown: string[], duplicates: string[] = []): string {
  return `strict decoding error: ${[...duplicates.map((f) => `duplicate field ${goQuote(f)}`), ...unknown.map((f) => `unknown field ${goQuote(f)}`)].join(', ')}`;
}

/** A PUT body or a patch result must name the object of the URL (no name is no match), as kube-apiserver's checkName says. */
function assertNameMatches(obj: KubeObject, loc: ObjectLocation): void {
  const name = obj.metadata?.name ?? '';
  if (name !== loc.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${loc.name})`);
}

function sameJSON(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class GenericStore {
  /** The storage clusters; a Store alone is the one default cluster. */
  readonly clusters: StorageClusters;
  /** Every key's store: the cluster of its space (`StorageClusters.routed`). */
  private readonly store: Store;

  constructor(
    storage: Store | StorageClusters,
    private readonly admission: AdmissionPlugin[] = [],
  ) {
    this.clusters = storage instanceof StorageClusters ? storage : new StorageClusters(storage);
    this.store = this.clusters.routed;
  }

  /** Whether a collection spans storage clusters: every space of a space or namespace kind, with clusters configured. */
  acrossClusters(def: ResourceDefinition, scope: CollectionScope): boolean {
    return this.clusters.multiple && def.scope !== 'cluster' && scope.tenant === ALL_TENANTS;
  }

  /** A resourceVersion given for one object, as its own cluster's revision: a `tenants/all` view's names every cluster. */
  private async objectRevision(def: ResourceDefinition, loc: ObjectLocation, rv: string): Promise<string> {
    if (!isClusterRevisions(rv)) return rv;
    return ownRevision(rv, await this.clusters.clusterOf(def.scope === 'cluster' ? undefined : loc.tenant));
  }

  // ---- keys and encoding ------------------------------------------------------------------

  key(def: ResourceDefinition, loc: ObjectLocation): string {
    const storage = def.storage;
    return def.scope === 'cluster'
      ? objectKey(storage, { name: loc.name })
      : objectKey(storage, def.scope === 'space' ? { tenant: loc.tenant, name: loc.name } : { tenant: loc.tenant, namespace: loc.namespace, name: loc.name });
  }

  /** The storage prefix of a collection; one namespace across all spaces is a filter, not a prefix. */
  prefix(def: ResourceDefinition, scope: CollectionScope): string {
    if (def.scope === 'cluster' || scope.tenant === ALL_TENANTS) return keyPrefix(def.storage);
    return keyPrefix(def.storage, def.scope === 'namespace' && scope.namespace !== undefined ? { tenant: scope.tenant, namespace: scope.namespace } : { tenant: scope.tenant });
  }

  private encode(def: ResourceDefinition, obj: KubeObject): string {
    return storedForm(def, obj);
  }

  /** For a kind whose versions convert through a call: the object in the storage version, to `encode`. */
  private async toStorageVersion(converter: ObjectConverter, def: ResourceDefinition, obj: KubeObject, tenant: string): Promise<KubeObject> {
    const [stored] = await converter.convert([obj], def.storage.apiVersion, obj.metadata.tenant ?? tenant, false);
    return stored!;
  }

  /**
   * What a write answers for a kind whose versions convert through a call: the object written,
   * converted back from its storage version, as kube-apiserver decodes what it stored.
   */
  private async writtenAs(def: ResourceDefinition, stored: KubeObject, revision: number): Promise<KubeObject> {
    const written = { ...stored, metadata: { ...stored.metadata, resourceVersion: String(revision) } };
    return (await this.served(def, [written], false))[0]!;
  }

  /**
   * An object as `def` serves it: stored in any version of its kind (or as the kind it is a view
   * of), read in this one through the kind's conversion. With a converter (`served`), an object
   * stored in another version is left in it, its defaults waiting for the conversion.
   */
  decode(def: ResourceDefinition, kv: KeyValue): KubeObject {
    const obj = def.fromStorage(JSON.parse(kv.value) as KubeObject);
    obj.metadata.resourceVersion = String(kv.modRevision);
    if (def.unstructured && (!def.converter || obj.apiVersion === def.apiVersion)) def.defaults?.(obj);
    return obj;
  }

  /**
   * Decoded objects in `def`'s version, for a kind whose versions convert through a call (a CRD's
   * conversion webhook): each space's objects in one call, as kube-apiserver converts a list in one
   * review (a space's webhook sees its own space's objects only), then the version's defaults.
   * The objects given are not changed (the watch cache's are frozen); the order is kept.
   */
  async served(def: ResourceDefinition, objects: readonly KubeObject[], list: boolean): Promise<KubeObject[]> {
    const converter = def.converter;
    if (!converter) return [...objects];
    const bySpace = new Map<string, number[]>();
    objects.forEach((obj, i) => {
      if (obj.apiVersion === def.apiVersion) return;
      const tenant = obj.metadata.tenant ?? '';
      const at = bySpace.get(tenant);
      if (at) at.push(i);
      else bySpace.set(tenant, [i]);
    });
    const out = [...objects];
    for (const [tenant, at] of bySpace) {
      const converted = await converter.convert(at.map((i) => objects[i]!), def.apiVersion, tenant, list);
      at.forEach((i, k) => {
        const obj = converted[k]!;
        def.defaults?.(obj);
        out[i] = obj;
      });
    }
    return out;
  }

  // ---- reads ------------------------------------------------------------------------------

  async get(def: ResourceDefinition, loc: ObjectLocation, resourceVersion?: string): Promise<KubeObject> {
    const revision = resourceVersion && resourceVersion !== '0' ? this.parseResourceVersion(resourceVersion) : undefined;
    try {
      const { kv } = await this.store.get(this.key(def, loc), revision === undefined ? {} : { revision });
      if (!kv) throw notFound(def, loc.name);
      const obj = this.decode(def, kv);
      return def.converter ? (await this.served(def, [obj], false))[0]! : obj;
    } catch (err) {
      throw fromStorageError(err, def, loc.name);
    }
  }

  async list(def: ResourceDefinition, scope: CollectionScope, query: ListQuery = {}): Promise<ListResult> {
    return this.acrossClusters(def, scope) ? this.listAcrossClusters(def, scope, query) : this.listFrom(this.store, def, scope, query);
  }

  /** A LIST served by one store (one cluster's revisions): a space's, or every space's in that cluster. */
  async listFrom(store: Store, def: ResourceDefinition, scope: CollectionScope, query: ListQuery = {}): Promise<ListResult> {
    const prefix = this.prefix(def, scope);
    const filter = this.collectionFilter(def, scope, query);
    const limit = query.limit && query.limit > 0 ? query.limit : 0;
    // Any resourceVersion must parse (a tenants/all one naming clusters is no revision of one store); only Exact reads at it.
    const given = query.resourceVersion ? this.parseResourceVersion(query.resourceVersion) : undefined;
    let revision = given && query.resourceVersionMatch === 'Exact' ? given : undefined;
    const items: KubeObject[] = [];
    let token = query.continue;
    try {
      // Fill the page: with a filter, a store page may hold fewer matches than asked for.
      for (;;) {
        const want = limit ? limit - items.length : 0;
        const page = await store.list(prefix, { limit: want, ...(token ? { continue: token } : revision !== undefined ? { revision } : {}) });
        for (const kv of page.items) {
          const obj = this.decode(def, kv);
          if (!filter || filter(obj)) items.push(obj);
        }
        revision = page.revision;
        token = page.continue;
        if (!token || (limit && items.length >= limit)) {
          const metadata: ListMeta = { resourceVersion: String(page.revision) };
          if (token) {
            metadata.continue = token;
            // Kubernetes counts what remains only when no filter makes the count a guess.
            if (!filter) metadata.remainingItemCount = page.remaining;
          }
          return { items: def.converter ? await this.served(def, items, true) : items, metadata };
        }
      }
    } catch (err) {
      if (isStorageError(err, 'TooOld') && query.continue) {
        throw expired(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        );
      }
      throw fromStorageError(err, def, '');
    }
  }

  /**
   * Every space's objects across the storage clusters: each cluster's listing (at the revision the
   * resourceVersion or the continue token names for it), merged in key order as one store's would
   * be. The list's resourceVersion names every cluster's revision; a page's continue token holds
   * them and the last key given, after which every cluster resumes (each key lives in one cluster).
   */
  private async listAcrossClusters(def: ResourceDefinition, scope: CollectionScope, query: ListQuery): Promise<ListResult> {
    const ids = this.clusters.ids;
    const prefix = this.prefix(def, scope);
    const limit = query.limit && query.limit > 0 ? query.limit : 0;
    const resumed = query.continue ? this.decodeClusterContinue(def, prefix, query.continue) : undefined;
    const given = query.resourceVersion ? parseClusterRevisions(ids, query.resourceVersion) : undefined;
    const exact = !resumed && query.resourceVersionMatch === 'Exact' ? given : undefined;
    const pages = await Promise.all(
      ids.map(async (id) => {
        const rev = resumed?.revs[id] ?? exact?.get(id);
        const page = await this.listFrom(this.clusters.store(id), def, scope, {
          labelSelector: query.labelSelector,
          fieldMatch: query.fieldMatch,
          limit,
          ...(resumed ? { continue: encodeContinue({ rev: rev!, after: resumed.after }) } : rev !== undefined ? { resourceVersion: String(rev), resourceVersionMatch: 'Exact' as const } : {}),
        });
        return { id, page, keys: page.items.map((obj) => this.keyOf(def, obj)) };
      }),
    );
    const revisions = new Map(pages.map(({ id, page }) => [id, Number(page.metadata.resourceVersion)]));
    const merged = pages.flatMap(({ page, keys }) => page.items.map((obj, i) => ({ key: keys[i]!, obj }))).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const taken = limit ? merged.slice(0, limit) : merged;
    const metadata: ListMeta = { resourceVersion: formatClusterRevisions(ids, revisions) };
    const more = taken.length < merged.length || pages.some(({ page }) => page.metadata.continue !== undefined);
    if (more) {
      metadata.continue = encodeClusterContinue({ revs: Object.fromEntries(revisions), after: taken[taken.length - 1]!.key });
      const remaining = pages.map(({ page }) => page.metadata.remainingItemCount);
      if (remaining.every((n) => n !== undefined) && !this.collectionFilter(def, scope, query)) {
        metadata.remainingItemCount = merged.length - taken.length + remaining.reduce((a, n) => a + n!, 0);
      }
    }
    return { items: taken.map(({ obj }) => obj), metadata };
  }

  /** A tenants/all continue token, checked to name every cluster's revision. */
  private decodeClusterContinue(def: ResourceDefinition, prefix: string, token: string): { revs: Record<string, number>; after: string } {
    try {
      const state = decodeClusterContinue(prefix, token);
      if (this.clusters.ids.some((id) => !Number.isSafeInteger(state.revs[id]) || state.revs[id]! <= 0)) throw new StorageError('InvalidContinue', prefix, 'continue token is not valid for this list');
      return state;
    } catch (err) {
      throw fromStorageError(err, def, '');
    }
  }

  /** The storage key of a decoded object (its tenant, namespace and name). */
  keyOf(def: ResourceDefinition, obj: KubeObject): string {
    return this.key(def, { tenant: obj.metadata.tenant ?? '', namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' });
  }

  /** The predicate a collection's objects must meet beyond its prefix, or undefined for all. */
  collectionFilter(def: ResourceDefinition, scope: CollectionScope, query: Pick<ListQuery, 'labelSelector' | 'fieldMatch'>): ((obj: KubeObject) => boolean) | undefined {
    const checks: Array<(obj: KubeObject) => boolean> = [];
    if (def.scope === 'namespace' && scope.tenant === ALL_TENANTS && scope.namespace !== undefined) {
      const ns = scope.namespace;
      checks.push((obj) => obj.metadata.namespace === ns);
    }
    const labels = query.labelSelector;
    if (labels && !labels.empty) checks.push((obj) => labels.matches(obj.metadata.labels));
    if (query.fieldMatch) checks.push(query.fieldMatch);
    if (checks.length === 0) return undefined;
    return (obj) => checks.every((c) => c(obj));
  }

  private parseResourceVersion(rv: string): number {
    const n = Number(rv);
    if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n)) throw badRequest(`invalid resource version "${rv}"`);
    return n;
  }

  // ---- create -----------------------------------------------------------------------------

  async create(def: ResourceDefinition, loc: Omit<ObjectLocation, 'name'>, body: KubeObject, opts: WriteOptions & { applied?: boolean } = {}): Promise<KubeObject> {
    const obj = this.admitBody(def, body, opts);
    this.bindLocation(def, obj, loc);
    const meta = obj.metadata;
    if (!meta.name && meta.generateName) meta.name = meta.generateName + randomSuffix();
    const name = meta.name ?? '';

    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (def.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    // A kind with a status subresource starts with the status its strategy gives it, never the client's.
    if (def.status && !def.createWithStatus) delete obj.status;

    def.defaults?.(obj);
    const attrs: AdmissionAttributes = { operation: 'create', def, tenant: loc.tenant, namespace: meta.namespace, object: obj, old: undefined, user: opts.user, dryRun: opts.dryRun, warnings: opts.warnings, auditAnnotations: opts.auditAnnotations };
    await this.mutateAdmission(attrs);
    await def.prepareForCreate?.(obj, { tenant: loc.tenant, namespace: meta.namespace, user: opts.user });
    this.validate(def, obj, undefined);
    if (!opts.applied) this.recordManagedFields(def, obj, undefined, opts);
    const undos = await this.admit(attrs);
    // The stored form of a kind converted through a call, once written: answered after the write
    // is final (a failure converting it back must not undo what admission reserved for it).
    let written: { stored: KubeObject; revision: number } | undefined;
    try {
      if (opts.dryRun) {
        // Dry run: the would-be object, nothing stored, no revision consumed, nothing kept reserved.
        await this.assertAbsent(def, { ...loc, name });
        await runUndos(undos);
        return obj;
      }
      for (let attempt = 1; !written; attempt += 1) {
        try {
          const stored = def.converter ? await this.toStorageVersion(def.converter, def, obj, loc.tenant) : obj;
          const kv = await this.store.create(this.key(def, { ...loc, name: meta.name! }), this.encode(def, stored));
          if (def.converter) {
            written = { stored, revision: kv.modRevision };
            continue;
          }
          meta.resourceVersion = String(kv.modRevision);
          return obj;
        } catch (err) {
          const retryName = isStorageError(err, 'AlreadyExists') && body.metadata?.generateName && !body.metadata?.name && attempt < GENERATE_NAME_ATTEMPTS;
          if (!retryName) throw fromStorageError(err, def, meta.name!);
          meta.name = meta.generateName + randomSuffix();
        }
      }
    } catch (err) {
      await runUndos(undos);
      throw err;
    }
    return this.writtenAs(def, written.stored, written.revision);
  }

  /** Runs the mutating phase of the admission plugins, in order. */
  private async mutateAdmission(attrs: AdmissionAttributes): Promise<void> {
    for (const plugin of this.admission) await plugin.mutate?.(attrs);
  }

  /** Runs the admission plugins in order; if one refuses, what earlier ones reserved is undone. */
  private async admit(attrs: AdmissionAttributes): Promise<Undo[]> {
    const undos: Undo[] = [];
    try {
      for (const plugin of this.admission) {
        const undo = await plugin.admit(attrs);
        if (undo) undos.push(undo);
      }
    } catch (err) {
      await runUndos(undos);
      throw err;
    }
    return undos;
  }

  /** Tells the plugins an object is gone for good. */
  private async released(def: ResourceDefinition, obj: KubeObject): Promise<void> {
    for (const plugin of this.admission) await plugin.deleted?.(def, obj);
  }

  private async assertAbsent(def: ResourceDefinition, loc: ObjectLocation): Promise<void> {
    const { kv } = await this.store.get(this.key(def, loc)).catch((err: unknown) => {
      throw fromStorageError(err, def, loc.name);
    });
    if (kv) throw alreadyExists(def, loc.name);
  }

  // ---- update -----------------------------------------------------------------------------

  /**
   * PUT: replaces the object (or its status, for `subresource: 'status'`). With a
   * `metadata.resourceVersion` the write is conditional (409 on mismatch); without one the
   * kind must allow unconditional updates, and the write retries on races.
   */
  async update(
    def: ResourceDefinition,
    loc: ObjectLocation,
    body: KubeObject,
    opts: WriteOptions & { subresource?: UpdateSubresource } = {},
  ): Promise<{ object: KubeObject; created: boolean }> {
    const incoming = this.admitBody(def, body, opts);
    assertNameMatches(incoming, loc);
    const expectedRv = incoming.metadata.resourceVersion && (await this.objectRevision(def, loc, incoming.metadata.resourceVersion));
    let current: KubeObject;
    try {
      current = await this.get(def, loc);
    } catch (err) {
      if (!isReason(err, 'NotFound') || !def.allowCreateOnUpdate || opts.subresource) throw err;
      const created = await this.create(def, loc, incoming, opts);
      return { object: created, created: true };
    }
    // Only an existing object needs the version (a PUT that creates a Lease needs none), as in kube-apiserver.
    if (!expectedRv && !def.allowUnconditionalUpdate) {
      throw invalid(def, loc.name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
    }
    const object = await this.guaranteedUpdate(def, loc, current, () => incoming, { ...opts, expectedRv });
    return { object, created: false };
  }

  /**
   * Read-modify-write for patch, scale and finalize: `mutate` receives the current object and
   * returns the desired one. Retries on races unless the result pins a resourceVersion.
   */
  async mutate(def: ResourceDefinition, loc: ObjectLocation, mutate: Mutation, opts: WriteOptions & { subresource?: UpdateSubresource; applied?: boolean; reviewedView?: ReviewedView } = {}): Promise<KubeObject> {
    const current = await this.get(def, loc);
    const checked: Mutation = async (obj) => this.admitMutated(def, loc, await mutate(obj), opts);
    return this.guaranteedUpdate(def, loc, current, checked, opts);
  }

  /**
   * A patch can produce anything, so its result is decoded into the kind again, as kube-apiserver's
   * patch handler does: a wrong type, another kind or (under Strict) an unknown field is 422
   * Invalid on `patch`; unknown fields are otherwise dropped (with a warning under Warn); and the
   * result must still name the object of the URL (400).
   */
  private admitMutated(def: ResourceDefinition, loc: ObjectLocation, obj: KubeObject, opts: WriteOptions): KubeObject {
    const invalidPatch = (why: string): ApiError => {
      const text = JSON.stringify(obj) ?? 'null';
      const shown = text.length > 256 ? `${text.slice(0, 256)}…` : text;
      return invalid(def, loc.name, [{ type: 'FieldValueInvalid', field: 'patch', message: `Invalid value: ${JSON.stringify(shown)}: ${why}` }]);
    };
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw invalidPatch('the patched object is no JSON object');
    if ((obj.kind ?? def.kind) !== def.kind || (obj.apiVersion ?? def.apiVersion) !== def.apiVersion) {
      throw invalidPatch(`Object 'Kind' is ${JSON.stringify(typeMetaText(obj.kind))} in version ${JSON.stringify(typeMetaText(obj.apiVersion))} (expected ${JSON.stringify(def.kind)} in ${JSON.stringify(def.apiVersion)})`);
    }
    const check = checkObject(obj, def.schema);
    if (check.typeError) throw invalidPatch(check.typeError);
    // Custom resources decode into plain maps: their nulls are left for the structural schema to judge.
    if (!def.unstructured) canonicalizeDecoded(check);
    if (check.unknownFields.length > 0) {
      const validation = opts.fieldValidation ?? 'Ignore';
      if (validation === 'Strict') throw invalidPatch(strictDecodingError(check.unknownFields));
      if (validation === 'Warn') for (const f of check.unknownFields) opts.warnings?.push(`unknown field ${goQuote(f)}`);
      dropFields(obj, check.unknownFields);
    }
    obj.metadata ??= {};
    assertNameMatches(obj, loc);
    return obj;
  }

  private async guaranteedUpdate(
    def: ResourceDefinition,
    loc: ObjectLocation,
    first: KubeObject,
    mutate: Mutation,
    opts: UpdateOptions & { expectedRv?: string },
  ): Promise<KubeObject> {
    let current = first;
    for (;;) {
      const desired = await mutate(structuredClone(current));
      const given = opts.expectedRv ?? (desired.metadata?.resourceVersion !== current.metadata.resourceVersion ? desired.metadata?.resourceVersion : undefined);
      const pinned = given && (await this.objectRevision(def, loc, given));
      if (pinned && pinned !== current.metadata.resourceVersion) throw conflict(def, loc.name);

      const view = opts.reviewedView;
      const attrs = (object: KubeObject): AdmissionAttributes => ({
        operation: 'update', def, tenant: loc.tenant, namespace: current.metadata.namespace, object, old: current,
        user: opts.user, dryRun: opts.dryRun, subresource: opts.subresource, warnings: opts.warnings, auditAnnotations: opts.auditAnnotations,
        reviewed: view && { operation: 'update', subresource: view.subresource, kind: view.kind, schema: view.schema, object: view.of(object), old: view.of(current) },
      });
      const asked = attrs(desired);
      await this.mutateAdmission(asked);
      if (view && asked.reviewed) view.apply(desired, asked.reviewed.object);
      const next = this.prepareUpdate(def, loc, desired, current, opts);
      const undos = await this.admit(attrs(next));

      // An update that changes nothing writes nothing and keeps the resourceVersion.
      if (sameJSON({ ...next, metadata: { ...next.metadata, resourceVersion: undefined } }, { ...current, metadata: { ...current.metadata, resourceVersion: undefined } })) {
        await runUndos(undos);
        return current;
      }
      if (opts.dryRun) {
        await runUndos(undos);
        return next;
      }
      const finalized = next.metadata.deletionTimestamp !== undefined && !this.held(def, next);
      let written: { stored: KubeObject; revision: number };
      try {
        const key = this.key(def, loc);
        if (finalized) {
          // The last finalizer is gone from an object marked for deletion: the object goes.
          await this.store.delete(key, Number(current.metadata.resourceVersion));
          await this.released(def, next);
          return next;
        }
        const stored = def.converter ? await this.toStorageVersion(def.converter, def, next, loc.tenant) : next;
        const kv = await this.store.update(key, this.encode(def, stored), Number(current.metadata.resourceVersion));
        if (!def.converter) {
          next.metadata.resourceVersion = String(kv.modRevision);
          return next;
        }
        written = { stored, revision: kv.modRevision };
      } catch (err) {
        await runUndos(undos);
        if (!isStorageError(err, 'Conflict') || pinned) throw fromStorageError(err, def, loc.name);
        current = await this.get(def, loc);
        continue;
      }
      // Converted back once the write is final (see `create`).
      return this.writtenAs(def, written.stored, written.revision);
    }
  }

  /** Applies the update rules to `desired` against `current`; returns the object to store. */
  private prepareUpdate(
    def: ResourceDefinition,
    loc: ObjectLocation,
    desired: KubeObject,
    current: KubeObject,
    opts: UpdateOptions,
  ): KubeObject {
    let next: KubeObject;
    if (opts.subresource === 'status') {
      // The status subresource writes status only (and keeps everything else as stored).
      next = { ...structuredClone(current), status: desired.status };
    } else if (opts.subresource === 'finalize') {
      // A namespace's finalize subresource writes spec.finalizers only.
      next = structuredClone(current);
      const finalizers = (desired.spec as { finalizers?: unknown } | undefined)?.finalizers;
      next.spec = { ...(next.spec as object | undefined), finalizers };
    } else if (opts.subresource === 'ephemeralcontainers') {
      // A pod's ephemeralcontainers subresource writes spec.ephemeralContainers only.
      next = structuredClone(current);
      const ephemeralContainers = (desired.spec as { ephemeralContainers?: unknown } | undefined)?.ephemeralContainers;
      next.spec = { ...(next.spec as object | undefined), ephemeralContainers };
    } else if (opts.subresource === 'approval') {
      // A CertificateSigningRequest's approval subresource writes status.conditions only.
      next = structuredClone(current);
      const conditions = (desired.status as { conditions?: unknown } | undefined)?.conditions;
      next.status = { ...(next.status as object | undefined), conditions };
    } else if (opts.subresource === 'binding') {
      // The binding handler changed the stored pod itself; nothing of a client's body is in it.
      next = desired;
      this.bindLocation(def, next, loc);
    } else {
      next = desired;
      this.bindLocation(def, next, loc);
      if (def.status) next.status = structuredClone(current.status);
    }
    const meta = next.metadata;
    const old = current.metadata;
    meta.name = loc.name;
    // A uid given must be the stored one (validation says so); none given means "this one".
    meta.uid ||= old.uid;
    meta.creationTimestamp = old.creationTimestamp;
    meta.resourceVersion = old.resourceVersion;
    if (opts.markDeleting) {
      meta.deletionTimestamp = opts.markDeleting.timestamp;
      meta.deletionGracePeriodSeconds = opts.markDeleting.gracePeriodSeconds;
      if (!old.deletionTimestamp) def.markDeleting?.(next);
    } else if (old.deletionTimestamp) {
      meta.deletionTimestamp = old.deletionTimestamp;
      meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
    } else {
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
    }
    if (meta.generateName === undefined && old.generateName !== undefined) meta.generateName = old.generateName;
    delete meta.selfLink;
    def.defaults?.(next);
    // Subresource writes took only their part from the request: the kind's update rules are for the main resource.
    if (opts.subresource === undefined) def.prepareForUpdate?.(next, current);
    // Counted after defaulting, so a body that differs only in defaulted fields is no new generation.
    if (def.tracksGeneration) {
      meta.generation = (old.generation ?? 1) + (opts.subresource === undefined && !semanticEqual(specOf(next), specOf(current)) ? 1 : 0);
    } else {
      delete meta.generation;
    }
    // Marking for deletion is the store's own change to the deletion fields and the garbage
    // collector's finalizers, not the client's (so switching policy on a second DELETE is no "new finalizer").
    const base = opts.markDeleting
      ? { ...current, metadata: { ...old, deletionTimestamp: meta.deletionTimestamp, deletionGracePeriodSeconds: meta.deletionGracePeriodSeconds, finalizers: meta.finalizers } }
      : current;
    this.validate(def, next, base, opts.subresource);
    // A binding is the scheduler's placement, not a field owned by a manager (as in kube-apiserver).
    if (!opts.applied && opts.subresource !== 'binding') this.recordManagedFields(def, next, current, opts);
    return next;
  }

  // ---- delete -----------------------------------------------------------------------------

  async delete(def: ResourceDefinition, loc: ObjectLocation, opts: DeleteOptions = {}): Promise<DeleteResult> {
    return this.deleteObject(def, loc, opts, undefined);
  }

  /** DELETE, starting from `known` when the caller has just read the object (it is re-read after a conflict). */
  private async deleteObject(def: ResourceDefinition, loc: ObjectLocation, opts: DeleteOptions, known: KubeObject | undefined): Promise<DeleteResult> {
    let first = known;
    const pre = opts.preconditions?.resourceVersion ? { ...opts.preconditions, resourceVersion: await this.objectRevision(def, loc, opts.preconditions.resourceVersion) } : opts.preconditions;
    for (;;) {
      const current = first ?? (await this.get(def, loc));
      first = undefined;
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw conflict(def, loc.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw conflict(def, loc.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
      }
      await this.admit({ operation: 'delete', def, tenant: loc.tenant, namespace: current.metadata.namespace, object: current, old: current, user: opts.user, dryRun: opts.dryRun, warnings: opts.warnings, auditAnnotations: opts.auditAnnotations, reviewed: opts.reviewedAs });

      // Graceful deletion (pods): marked with a deadline, the object waits for whoever ends it (its kubelet).
      const graceful = gracefulDeletion(def, current, opts.gracePeriodSeconds);
      // A deletion already pending keeps its finalizers and deadline (only a shorter grace period changes it).
      if (graceful === 'pending') return { object: current, deleted: false };
      // The propagation policy may hand the object to the garbage collector through a finalizer.
      const finalizers = deletionFinalizers(def, current, opts);
      if (graceful || finalizers || this.held(def, current)) {
        // Finalizers hold the object: mark it for deletion and let their owners finish.
        if (!graceful && current.metadata.deletionTimestamp && !finalizers) return { object: current, deleted: false };
        const withFinalizers = (obj: KubeObject): KubeObject => (finalizers ? { ...obj, metadata: { ...obj.metadata, finalizers } } : obj);
        const mark = graceful || { timestamp: current.metadata.deletionTimestamp ?? nowTimestamp(), gracePeriodSeconds: current.metadata.deletionGracePeriodSeconds ?? 0 };
        const marked = await this.guaranteedUpdate(def, loc, current, withFinalizers, { ...opts, expectedRv: current.metadata.resourceVersion, markDeleting: mark }).catch(async (err: unknown) => {
          if (isReason(err, 'Conflict') && !pre?.resourceVersion) return undefined;
          throw err;
        });
        if (!marked) continue;
        // A new policy can also release the object (Background after Orphan): then it is gone.
        return { object: marked, deleted: !this.held(def, marked) };
      }
      if (opts.dryRun) return { object: current, deleted: true };
      try {
        const kv = await this.store.delete(this.key(def, loc), Number(current.metadata.resourceVersion));
        const gone = this.decode(def, kv);
        await this.released(def, gone);
        return { object: def.converter ? (await this.served(def, [gone], false))[0]! : gone, deleted: true };
      } catch (err) {
        // Changed since we read it: read again unless the caller pinned a version.
        if (!isStorageError(err, 'Conflict') || pre?.resourceVersion) throw fromStorageError(err, def, loc.name);
      }
    }
  }

  /** DELETE on a collection: every matching object, each deleted as DELETE would. */
  async deleteCollection(def: ResourceDefinition, scope: CollectionScope, query: ListQuery, opts: DeleteOptions = {}): Promise<KubeObject[]> {
    const { items } = await this.list(def, scope, { ...query, limit: 0, continue: undefined });
    const deleted: Array<KubeObject | undefined> = new Array(items.length);
    // Deletes are independent: keep several in flight (etcd answers each in a round trip), and
    // start from the listed object instead of reading each one again.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < items.length) {
        const i = next++;
        const obj = items[i]!;
        const loc: ObjectLocation = { tenant: obj.metadata.tenant ?? scope.tenant, namespace: obj.metadata.namespace, name: obj.metadata.name! };
        try {
          deleted[i] = (await this.deleteObject(def, loc, opts, obj)).object;
        } catch (err) {
          if (!isReason(err, 'NotFound')) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_COLLECTION_IN_FLIGHT, items.length) }, worker));
    return deleted.filter((o): o is KubeObject => o !== undefined);
  }

  // ---- shared checks ----------------------------------------------------------------------

  /**
   * Records who changed what in `metadata.managedFields` (an Update entry for the writer), as
   * kube-apiserver does for every write but server-side apply, which computes its own.
   */
  private recordManagedFields(def: ResourceDefinition, obj: KubeObject, old: KubeObject | undefined, opts: UpdateOptions): void {
    const subresource = opts.subresource;
    const resetFields =
      subresource === 'status'
        ? fieldsOutside(def.schema, ['status'])
        : subresource === 'finalize'
          ? fieldsOutside(def.schema, ['spec', 'finalizers'])
          : subresource === 'ephemeralcontainers'
            ? fieldsOutside(def.schema, ['spec', 'ephemeralContainers'])
            : subresource === 'approval'
            ? fieldsOutside(def.schema, ['status', 'conditions'])
            : def.status
            ? STATUS_RESET_FIELDS
            : NO_RESET_FIELDS;
    const managedFields = computeUpdateManagedFields({
      schema: def.schema,
      resetFields,
      old,
      obj,
      manager: opts.fieldManager ?? SERVER_FIELD_MANAGER,
      apiVersion: def.apiVersion,
      subresource,
      now: new Date(),
    });
    if (managedFields.length > 0) obj.metadata.managedFields = managedFields;
    else delete obj.metadata.managedFields;
  }

  /** Finalizers, the kind's own hold or a grace period still running keep the object after a DELETE. */
  private held(def: ResourceDefinition, obj: KubeObject): boolean {
    return (obj.metadata.finalizers ?? []).length > 0 || (def.holdsDeletion?.(obj) ?? false) || (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
  }

  /** The decoder checks of a request body (`admitBody`), for callers that write through `mutate` (apply). */
  checkBody(def: ResourceDefinition, body: KubeObject, opts: WriteOptions): KubeObject {
    return this.admitBody(def, body, opts);
  }

  /**
   * Decoder-level checks on a request body: apiVersion/kind agree with the URL, types match the
   * schema (400 otherwise), unknown fields handled per `fieldValidation`.
   */
  private admitBody(def: ResourceDefinition, body: KubeObject, opts: WriteOptions): KubeObject {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
    }
    checkTypeMeta(body, [def]);
    const check = checkObject(body, def.schema);
    const metadataType = check.typePath === 'metadata' || check.typePath?.startsWith('metadata.');
    if (check.typeError && (!def.unstructured || metadataType)) throw badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${check.typeError}`);
    if (!def.unstructured) canonicalizeDecoded(check);
    // The body is the request's own, freshly decoded: it is worked on in place, not copied
    // (callers of create and update hand over objects they no longer use).
    const obj = body;
    const duplicates = opts.duplicateFields ?? [];
    if (check.unknownFields.length > 0 || duplicates.length > 0) {
      const validation = opts.fieldValidation ?? 'Ignore';
      if (validation === 'Strict') {
        throw badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${strictDecodingError(check.unknownFields, duplicates)}`);
      }
      if (validation === 'Warn') {
        for (const f of duplicates) opts.warnings?.push(`duplicate field ${goQuote(f)}`);
        for (const f of check.unknownFields) opts.warnings?.push(`unknown field ${goQuote(f)}`);
      }
      dropFields(obj, check.unknownFields);
    }
    obj.apiVersion = def.apiVersion;
    obj.kind = def.kind;
    obj.metadata ??= {};
    return obj;
  }

  /** Sets namespace and tenant from the request; a body naming another one is refused (400). */
  private bindLocation(def: ResourceDefinition, obj: KubeObject, loc: Omit<ObjectLocation, 'name'>): void {
    const meta = obj.metadata;
    if (def.scope === 'namespace') {
      if (meta.namespace && loc.namespace && meta.namespace !== loc.namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = loc.namespace ?? meta.namespace;
    } else {
      delete meta.namespace;
    }
    if (def.scope === 'cluster') {
      delete meta.tenant;
    } else {
      if (meta.tenant && meta.tenant !== loc.tenant) {
        throw badRequest('the tenant of the provided object does not match the tenant sent on the request');
      }
      meta.tenant = loc.tenant;
    }
  }

  private validate(def: ResourceDefinition, obj: KubeObject, old: KubeObject | undefined, subresource?: UpdateSubresource): void {
    const errors: FieldError[] = [...validateObjectMeta(obj, def.nameRule, def.scope, def.kubeFinalizerNames), ...(def.validate?.(obj) ?? [])];
    if (old) errors.push(...validateObjectMetaUpdate(obj, old), ...(def.validateUpdate?.(obj, old, subresource) ?? []));
    else errors.push(...(def.validateCreate?.(obj) ?? []));
    if (errors.length > 0) throw invalid(def, obj.metadata.name ?? obj.metadata.generateName ?? '', errors);
  }
}
