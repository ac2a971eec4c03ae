/**
 * What the generic store needs to know about a kind: its names, scope, schema and a small strategy.
 * A kind is one `defineKind` call in `api/kinds/<group>/<kind>.ts`; every hook has a default, so a
 * simple kind is a handful of lines (see `api/kinds/core/configmap.ts`).
 */
import type { ResourceKeyInfo, Scope } from '../../storage/keys.js';
import type { Schema } from '../schema/schema.js';
import type { FieldError } from './field-error.js';
import type { KubeObject } from './object.js';
import type { AccessAttributes, AccessDecision, UserInfo } from '../access.js';
import type { PolicyRule } from '../kinds/rbac/rules.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** Kinds whose deletion tears down what they hold (namespaces, spaces): one by one only, as kube-apiserver serves namespaces. */
export const VERBS_BUT_DELETECOLLECTION: readonly Verb[] = ALL_VERBS.filter((v) => v !== 'deletecollection');

/** What a space may do with a kind above the spaces that it reads. */
export const READ_VERBS: readonly Verb[] = ['get', 'list', 'watch'];

/** How `metadata.name` is validated (Kubernetes' ValidateNameFunc choices). */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'path-segment';

/** A server-side Table column. `cell` renders one object's value; `now` is shared by a whole response. */
export interface PrinterColumn<T extends KubeObject = KubeObject> {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: 'name' | string;
  description: string;
  /** 0: always shown; 1: only with `-o wide`. */
  priority: 0 | 1;
  cell(obj: T, now: number): string | number | boolean;
}

/** The `scale` subresource of a workload kind, mapped onto `autoscaling/v1` Scale. */
export interface ScaleSubresource<T extends KubeObject = KubeObject> {
  specReplicas(obj: T): number;
  setSpecReplicas(obj: T, replicas: number): void;
  statusReplicas(obj: T): number;
  /** The pod label selector as a string (`app=web`), or '' when there is none. */
  selector(obj: T): string;
}

/**
 * Subresources that write one part of an object: `status`, a namespace's `spec.finalizers`, a
 * pod's `spec.ephemeralContainers`, a pod's placement (`binding`: node, annotations and
 * PodScheduled condition, computed by its handler from the stored pod), or a
 * CertificateSigningRequest's `approval` (its `status.conditions`).
 */
export type UpdateSubresource = 'status' | 'finalize' | 'ephemeralcontainers' | 'binding' | 'approval';

/**
 * A subresource served by a handler of its own rather than the generic store (a pod's log,
 * binding, eviction, exec, …; a service account's token): its name, the kind its requests and
 * answers carry (discovery shows it), and its verbs.
 */
export interface SubresourceSpec {
  name: string;
  kind: string;
  /** For a kind of another group version (policy/v1 Eviction); the kind's own otherwise. */
  group?: string;
  version?: string;
  verbs: readonly Verb[];
}

/** Context for strategy hooks that must look beyond the object (e.g. allocate a cluster IP in its space). */
export interface StrategyContext {
  tenant: string;
  namespace: string | undefined;
  /** Who creates the object (a CSR records its requester); undefined for the server's own writes. */
  user: UserInfo | undefined;
}

export interface KindStrategy<T extends KubeObject = KubeObject> {
  /** Fills defaults in place, on create and on update (as Kubernetes' defaulting runs on every decode). */
  defaults?(obj: T): void;
  /** Clears or sets server-owned fields on create (e.g. a pod's status.phase = Pending). */
  prepareForCreate?(obj: T, ctx: StrategyContext): void | Promise<void>;
  /** Carries server-owned fields over from the stored object on update. */
  prepareForUpdate?(obj: T, old: T): void;
  /** Rules beyond the schema, on create. Field paths are dotted (`spec.containers[0].name`). */
  validate?(obj: T): FieldError[];
  /** Rules on create only, after `validate` (fields that only a subresource may set later). */
  validateCreate?(obj: T): FieldError[];
  /**
   * Rules on update, after `validate`: immutable fields and allowed transitions. `subresource` is
   * the part written (undefined for the whole object), as each subresource has its own rules.
   */
  validateUpdate?(obj: T, old: T, subresource?: UpdateSubresource): FieldError[];
  /**
   * Whether something besides `metadata.finalizers` keeps the object after a DELETE (a
   * namespace's `spec.finalizers`). A held object is marked for deletion and goes once released.
   */
  holdsDeletion?(obj: T): boolean;
  /** Changes made when the object is marked for deletion (a namespace turns Terminating). */
  markDeleting?(obj: T): void;
  /**
   * The grace period a DELETE gives the object (Kubernetes' `CheckGracefulDelete`), `asked` being
   * the request's `gracePeriodSeconds`; above 0 the object is marked and waits for a DELETE of 0
   * (see graceful-deletion.ts). Kinds without it are deleted at once.
   */
  deletionGracePeriod?(obj: T, asked: number | undefined): number;
  /**
   * What a DELETE that names no policy does to the object's dependents (Kubernetes'
   * `DefaultGarbageCollectionPolicy`); see `garbageCollectionPolicy` for the default.
   */
  garbageCollectionPolicy?: GarbageCollectionPolicy;
}

/**
 * `DeleteDependents`: background deletion unless asked otherwise. `OrphanDependents`: dependents
 * are kept (core/v1 ReplicationControllers and batch/v1 Jobs, as before server-side garbage
 * collection existed). `Unsupported`: the garbage collector leaves the kind alone (events).
 */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/** An action asked about by a review: the request attributes without the space, which the requester fixes. */
export type ReviewAttributes = Omit<AccessAttributes, 'tenant'>;

/** What a token review learns of a token: who it is, or why it is not accepted. */
export type TokenReviewResult = { user: UserInfo; audiences: string[] } | { error: string };

/** Who asks, for kinds that answer instead of storing (access reviews, whoami, token reviews). */
export interface Requester {
  user: UserInfo;
  /** The space the request acts in. */
  tenant: string;
  /** The namespace of the request path, for namespaced reviews (LocalSubjectAccessReview). */
  namespace: string | undefined;
  /** Whether the requester may do this, as the server decides it for real requests. */
  authorize(attributes: ReviewAttributes): AccessDecision;
  /**
   * Whether another identity may do this in the requester's space (SubjectAccessReview). The
   * subject always belongs to that space: its tenant is the requester's, whatever it claims.
   */
  authorizeSubject(subject: Omit<UserInfo, 'tenant'>, attributes: ReviewAttributes): AccessDecision;
  /** The RBAC rules that apply to the requester in a namespace (or space-wide when undefined). */
  rulesFor(namespace: string | undefined): PolicyRule[];
  /**
   * Authenticates a bearer token for a TokenReview. A token of another space is answered as not
   * authenticated (with the same error as a bad token), unless the requester is a system user.
   */
  reviewToken(token: string, audiences: string[]): Promise<TokenReviewResult>;
}

export interface KindSpec<T extends KubeObject = KubeObject> extends KindStrategy<T> {
  group: string;
  version: string;
  kind: string;
  /** Plural, lower case: the URL segment. */
  resource: string;
  /** Defaults to the kind in lower case. */
  singular?: string;
  scope: Scope;
  /**
   * The version objects are written in, for a kind served in several versions that share one
   * storage (a custom resource's storage version); defaults to `version`. Reads give every object
   * this kind's own `apiVersion` (the `None` conversion).
   */
  storageVersion?: string;
  /**
   * For a kind served as a view of another kind's storage (events.k8s.io/v1 Events are core/v1
   * Events, as in kube-apiserver): where its objects are kept and how they convert. Defaults to
   * the kind's own group and resource, converted by `apiVersion` alone (see `storageVersion`).
   */
  storedAs?: StoredAs<T>;
  /**
   * Conversion between the kind's versions that needs a call (a CRD's conversion webhook). With
   * it, objects are stored and read as they are: the generic store converts them through it,
   * asynchronously, to the storage version before a write and to this kind's version after a
   * read (the `None` conversion of `storageVersion` is then not used).
   */
  converter?: ObjectConverter;
  /** Sent as a `Warning` header with every answer about this kind (a deprecated custom resource version). */
  deprecationWarning?: string;
  /**
   * Custom resources: a body decodes as any JSON (only `metadata` must have its types), its
   * schema is checked by `validate` (422, not the decoder's 400), and `defaults` runs on every
   * read from storage too, as kube-apiserver's structural defaulting does.
   */
  unstructured?: boolean;
  /**
   * For a kind above the spaces (cluster scope): whether each space may read it (get, list and
   * watch only), seeing what `src/server/handlers/above-spaces.ts` lets it see. Nodes and
   * APIServices are; Tenants are not.
   */
  readableFromSpaces?: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Defaults to every verb. */
  verbs?: readonly Verb[];
  /** The kind's named OpenAPI schema (from `define`). */
  schema: Schema;
  /** Defaults to DNS-1123 subdomain. */
  nameRule?: NameRule;
  /**
   * Whether a finalizer without a domain must be one of Kubernetes' own (`kubernetes`, `orphan`,
   * `foregroundDeletion`). True for built-in kinds; apiextensions' kinds are validated by
   * apimachinery's rules, which only ask for a qualified name.
   */
  kubeFinalizerNames?: boolean;
  /** Whether the kind has a `status` subresource (spec and status written separately). */
  status?: boolean;
  /** Whether a create keeps the body's status (nodes register with theirs, as kubelets do); otherwise the strategy sets it. */
  createWithStatus?: boolean;
  /** Whether `metadata.generation` counts spec changes (workloads, policies); false for plain data kinds. */
  tracksGeneration?: boolean;
  scale?: ScaleSubresource<T>;
  /** Subresources beyond status, scale and finalize. */
  subresources?: SubresourceSpec[];
  /** Table columns; defaults to Name and Age. */
  columns?: PrinterColumn<T>[];
  /** Field selectors beyond `metadata.name` and `metadata.namespace`. */
  selectableFields?: Record<string, (obj: T) => string | undefined>;
  /** Whether PUT without `metadata.resourceVersion` overwrites (true for most built-ins). */
  allowUnconditionalUpdate?: boolean;
  /** Whether PUT of an absent object creates it. */
  allowCreateOnUpdate?: boolean;
  /** Whether DELETE answers with the deleted object (pods, services) instead of a Success Status. */
  returnDeletedObject?: boolean;
  /**
   * A kind that is asked, not stored (SelfSubjectAccessReview, SelfSubjectReview): POST returns
   * the request with its status filled in, and nothing is written. Such kinds serve `create` only.
   */
  answer?(request: T, requester: Requester): T | Promise<T>;
}

/**
 * Another kind whose storage a kind is served from: its names, and the conversion between the two
 * forms. One stored object, two served kinds: a write through either is read and watched
 * through both (kube-apiserver's conversion through the internal version).
 */
export interface StoredAs<T extends KubeObject = KubeObject> {
  group: string;
  version: string;
  kind: string;
  resource: string;
  toStorage(obj: T): KubeObject;
  fromStorage(obj: KubeObject): T;
}

/**
 * A conversion that calls out (a CRD's conversion webhook): `objects`, all of the space `tenant`
 * and each in some version of the kind, in `apiVersion`, in the same order. Objects already in
 * `apiVersion` are returned as they are. `list` says they are one list's items, which kube-apiserver
 * converts in one call and names by the list kind in its errors.
 */
export interface ObjectConverter {
  convert(objects: readonly KubeObject[], apiVersion: string, tenant: string, list: boolean): Promise<KubeObject[]>;
}

/** Where a kind's objects are kept: the key's group, resource and scope, and the stored apiVersion and kind. */
export interface StorageInfo extends ResourceKeyInfo {
  apiVersion: string;
  kind: string;
}

/** A kind as the registry holds it: every optional choice resolved. */
export interface ResourceDefinition<T extends KubeObject = KubeObject> extends KindStrategy<T> {
  group: string;
  version: string;
  /** `v1` for the core group, `group/version` otherwise. */
  apiVersion: string;
  /** Where objects are kept (see `storedAs`). */
  storage: StorageInfo;
  /** The stored form of an object (a new object; `obj` is not changed). */
  toStorage(obj: T): KubeObject;
  /** An object as this kind serves it, from its stored form (which it may reuse). */
  fromStorage(obj: KubeObject): T;
  converter?: ObjectConverter;
  deprecationWarning?: string;
  unstructured: boolean;
  kind: string;
  listKind: string;
  resource: string;
  singular: string;
  scope: Scope;
  readableFromSpaces: boolean;
  shortNames: string[];
  categories: string[];
  verbs: readonly Verb[];
  schema: Schema;
  nameRule: NameRule;
  kubeFinalizerNames: boolean;
  status: boolean;
  createWithStatus: boolean;
  tracksGeneration: boolean;
  scale: ScaleSubresource<T> | undefined;
  subresources: SubresourceSpec[];
  columns: PrinterColumn<T>[];
  selectableFields: Record<string, (obj: T) => string | undefined>;
  allowUnconditionalUpdate: boolean;
  allowCreateOnUpdate: boolean;
  returnDeletedObject: boolean;
  answer?(request: T, requester: Requester): T | Promise<T>;
}

export const nameColumn: PrinterColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
  priority: 0,
  cell: (obj) => obj.metadata.name ?? '',
};

export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'string',
  description: 'Time since the object was created.',
  priority: 0,
  cell: (obj, now) => humanAge(obj.metadata.creationTimestamp, now),
};

/**
 * Kubernetes' short duration form (`45s`, `3m12s`, `5h`, `12d`, `3y45d`), as `kubectl get` shows AGE.
 * Follows apimachinery's HumanDuration: more precision while a duration is young.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // A second of clock skew still reads as "now".
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24);
    const years = Math.floor(days / 365);
    return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** AGE of a timestamp, or `<unknown>` as kubectl shows for a missing one. */
export function humanAge(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** Resolves a kind's spec into the definition the registry serves. */
export function defineKind<T extends KubeObject>(spec: KindSpec<T>): ResourceDefinition<T> {
  const apiVersionOf = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);
  const apiVersion = apiVersionOf(spec.group, spec.version);
  const view = spec.storedAs;
  const storage: StorageInfo = view
    ? { group: view.group, resource: view.resource, scope: spec.scope, apiVersion: apiVersionOf(view.group, view.version), kind: view.kind }
    : { group: spec.group, resource: spec.resource, scope: spec.scope, apiVersion: apiVersionOf(spec.group, spec.storageVersion ?? spec.version), kind: spec.kind };
  return {
    ...spec,
    apiVersion,
    storage,
    // Without a view, versions differ by name only (the `None` conversion of custom resources),
    // unless a converter calls out: then the store has converted the object before it gets here.
    toStorage: view ? (obj) => ({ ...view.toStorage(obj), apiVersion: storage.apiVersion, kind: storage.kind }) : spec.converter ? (obj) => ({ ...obj }) : (obj) => ({ ...obj, apiVersion: storage.apiVersion }),
    fromStorage: view ? (obj) => ({ ...view.fromStorage(obj), apiVersion, kind: spec.kind }) : spec.converter ? (obj) => obj as T : (obj) => ({ ...(obj as T), apiVersion, kind: spec.kind }),
    unstructured: spec.unstructured ?? false,
    listKind: `${spec.kind}List`,
    singular: spec.singular ?? spec.kind.toLowerCase(),
    readableFromSpaces: spec.readableFromSpaces ?? false,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    verbs: spec.verbs ?? ALL_VERBS,
    nameRule: spec.nameRule ?? 'dns1123-subdomain',
    kubeFinalizerNames: spec.kubeFinalizerNames ?? true,
    status: spec.status ?? false,
    createWithStatus: spec.createWithStatus ?? false,
    tracksGeneration: spec.tracksGeneration ?? false,
    scale: spec.scale,
    subresources: spec.subresources ?? [],
    columns: spec.columns ?? [nameColumn as PrinterColumn<T>, ageColumn as PrinterColumn<T>],
    selectableFields: spec.selectableFields ?? {},
    allowUnconditionalUpdate: spec.allowUnconditionalUpdate ?? true,
    allowCreateOnUpdate: spec.allowCreateOnUpdate ?? false,
    returnDeletedObject: spec.returnDeletedObject ?? false,
  };
}
