/**
 * Every verb on one resource in one scope (a space, a namespace of it, or every space). Objects
 * come back exactly as the server sent them, `metadata.tenant` included; a write of a whole
 * object from an every-space scope goes to the object's own space and namespace.
 *
 * @example
 *   const cms = client.space('t1').namespace('ns1').resource(configMaps);
 *   const cm = await cms.create({ metadata: { name: 'cm1' }, data: { a: '1' } });
 *   await cms.patch('cm1', 'merge', { data: { b: '2' } });
 *   for await (const cm of client.allSpaces().resource(configMaps).iterate({ pageSize: 500 })) …;
 */
import type { KubeObject, ListMeta } from '../../api/registry/object.js';
import type { ApiRequester } from './api-requester.js';
import { isGone } from './api-status.js';
import { queryString, resourcePath, type GroupVersionResource, type SpaceTarget } from './paths.js';
import { resumingWatch, type ResumeOptions, type WatchEvent } from './watch-events.js';

export interface ObjectList<T extends KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export interface Selectors {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface ListOptions extends Selectors {
  /** One page of at most this many objects; follow `metadata.continue` for the next. */
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface PagedListOptions extends Selectors {
  /** Objects per request (default 500, as kubectl's chunk size). */
  pageSize?: number;
}

export type WatchOptions = Selectors & ResumeOptions;

export interface WriteOptions {
  dryRun?: boolean;
  /** Who owns the fields written (managedFields); default: the client's User-Agent. */
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  /** Apply only: take the fields other managers own instead of answering 409. */
  force?: boolean;
  subresource?: 'status' | 'scale';
}

export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** The delete happens only if the object still has this uid / resourceVersion (else 409). */
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const DEFAULT_PAGE_SIZE = 500;

export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    private readonly requester: ApiRequester,
    readonly space: SpaceTarget,
    readonly resource: GroupVersionResource,
    readonly namespace?: string,
  ) {}

  async get(name: string, options: { resourceVersion?: string } = {}): Promise<T> {
    return this.requester.json({ method: 'GET', path: this.named(name) + queryString({ ...options }) });
  }

  /** One request, as the server answers it (one page when `limit` is set). */
  async list(options: ListOptions = {}): Promise<ObjectList<T>> {
    return this.requester.json({ method: 'GET', path: this.collection() + queryString({ ...options }) });
  }

  /**
   * Every page, one request each, all at the first page's resourceVersion. A continue token that
   * has expired meanwhile (410) is thrown, as client-go's `EachListChunk` does: pages already
   * handed out cannot be taken back. `listAll` falls back to a full list instead.
   */
  async *pages(options: PagedListOptions = {}): AsyncGenerator<ObjectList<T>> {
    const { pageSize = DEFAULT_PAGE_SIZE, ...selectors } = options;
    let next: string | undefined;
    do {
      const page = await this.list({ ...selectors, limit: pageSize, ...(next ? { continue: next } : {}) });
      yield page;
      next = page.metadata.continue || undefined;
    } while (next !== undefined);
  }

  /** Every object, page by page. */
  async *iterate(options: PagedListOptions = {}): AsyncGenerator<T> {
    for await (const page of this.pages(options)) yield* page.items;
  }

  /**
   * Every object in one call (paged underneath) and the resourceVersion to watch from. When the
   * continue token of a later page has expired (410: the first page's revision was compacted while
   * paging), the pages read so far are dropped and the list is read again whole, without a limit,
   * at the current revision, as client-go's `ListPager.List` does (`FullListIfExpired`): a relist
   * of a large collection must not fail forever on a busy server.
   */
  async listAll(options: PagedListOptions = {}): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let resourceVersion = '';
    let pagesRead = 0;
    try {
      for await (const page of this.pages(options)) {
        items.push(...page.items);
        resourceVersion ||= page.metadata.resourceVersion;
        pagesRead += 1;
      }
    } catch (err) {
      // An error after the first page came from a request with a continue token.
      if (pagesRead === 0 || !isGone(err)) throw err;
      const { labelSelector, fieldSelector } = options;
      const whole = await this.list({ labelSelector, fieldSelector });
      return { items: whole.items, resourceVersion: whole.metadata.resourceVersion };
    }
    return { items, resourceVersion };
  }

  /** Changes as typed events, resumed and relisted as needed until the loop leaves or `signal` aborts (see watch-events.ts). */
  watch(options: WatchOptions = {}): AsyncGenerator<WatchEvent<T>> {
    const { labelSelector, fieldSelector, signal } = options;
    return resumingWatch<T>(
      {
        open: (resourceVersion, sendInitialEvents) =>
          this.requester.open({
            method: 'GET',
            signal,
            path:
              this.collection() +
              queryString({
                watch: true,
                allowWatchBookmarks: true,
                labelSelector,
                fieldSelector,
                resourceVersion,
                ...(sendInitialEvents ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' } : {}),
              }),
          }),
        list: async () => {
          const { items, resourceVersion } = await this.listAll({ labelSelector, fieldSelector });
          return { objects: items, resourceVersion };
        },
      },
      options,
    );
  }

  async create(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.requester.json({ method: 'POST', path: this.collection(obj) + queryString(writeQuery(options)), body: obj });
  }

  /** Replaces the object (its resourceVersion makes it conditional: 409 Conflict if it changed). */
  async update(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.requester.json({ method: 'PUT', path: this.named(nameOf(obj), obj) + queryString(writeQuery(options)), body: obj });
  }

  /** Replaces the status only (the `status` subresource). */
  async updateStatus(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.requester.json({ method: 'PUT', path: this.named(nameOf(obj), obj, 'status') + queryString(writeQuery(options)), body: obj });
  }

  /** POSTs `body` to a subresource of the object named (a pod's `binding` or `eviction`), answering what the server answers. */
  async createSubresource(name: string, subresource: string, body: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    return this.requester.json({ method: 'POST', path: this.named(name, body, subresource) + queryString(writeQuery(options)), body });
  }

  /** Replaces the finalizers of a Namespace or a Tenant only (the `finalize` subresource). */
  async finalize(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.requester.json({ method: 'PUT', path: this.named(nameOf(obj), obj, 'finalize') + queryString(writeQuery(options)), body: obj });
  }

  async patch(name: string, type: PatchType, patch: unknown, options: PatchOptions = {}): Promise<T> {
    const { subresource, force, ...write } = options;
    if (type === 'apply' && write.fieldManager === undefined) throw new Error('an apply patch needs a fieldManager');
    const path = this.named(name, undefined, subresource) + queryString({ ...writeQuery(write), force });
    return this.requester.json({ method: 'PATCH', path, body: patch, contentType: PATCH_CONTENT_TYPES[type] });
  }

  /** Server-side apply of the object as this manager's configuration. */
  async apply(obj: T, options: PatchOptions & { fieldManager: string }): Promise<T> {
    return this.patch(nameOf(obj), 'apply', obj, options);
  }

  /** Answers the object as deleted (or, with finalizers or foreground propagation, as being deleted) or a Status. */
  async delete(name: string, options: DeleteOptions = {}): Promise<T | KubeObject> {
    return this.requester.json({ method: 'DELETE', path: this.named(name), body: deleteBody(options) });
  }

  async deleteCollection(options: DeleteOptions & Selectors = {}): Promise<ObjectList<T>> {
    const { labelSelector, fieldSelector, ...deletion } = options;
    return this.requester.json({ method: 'DELETE', path: this.collection() + queryString({ labelSelector, fieldSelector }), body: deleteBody(deletion) });
  }

  /**
   * The collection's path; for a write of `obj`, in an every-space scope the object's own space,
   * and the object's namespace when the scope names none.
   */
  private collection(obj?: KubeObject): string {
    return resourcePath({ space: this.spaceFor(obj), resource: this.resource, namespace: this.namespace ?? obj?.metadata.namespace });
  }

  private named(name: string, obj?: KubeObject, subresource?: string): string {
    return resourcePath({ space: this.spaceFor(obj), resource: this.resource, namespace: this.namespace ?? obj?.metadata.namespace, name, subresource });
  }

  private spaceFor(obj: KubeObject | undefined): SpaceTarget {
    if (this.space.kind !== 'all') return this.space;
    if (obj === undefined) return this.space;
    const tenant = obj.metadata.tenant;
    if (tenant === undefined) throw new Error(`${this.resource.resource} "${obj.metadata.name}": an every-space client writes an object to its metadata.tenant, and it has none`);
    return { kind: 'space', tenant };
  }
}

function nameOf(obj: KubeObject): string {
  const name = obj.metadata.name;
  if (name === undefined || name === '') throw new Error('the object has no metadata.name');
  return name;
}

function writeQuery(options: WriteOptions): Record<string, string | undefined> {
  return { dryRun: options.dryRun ? 'All' : undefined, fieldManager: options.fieldManager, fieldValidation: options.fieldValidation };
}

function deleteBody(options: DeleteOptions): Record<string, unknown> {
  const { dryRun, ...rest } = options;
  return { kind: 'DeleteOptions', apiVersion: 'v1', ...rest, ...(dryRun ? { dryRun: ['All'] } : {}) };
}
