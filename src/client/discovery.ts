/**
 * Which resource serves a kind, read from the space's own discovery (built-ins, the system's
 * shared CRDs and the space's CRDs), so a space's custom resources resolve in that space only.
 * A group version's list is fetched once per space and fetched again when a kind is missing
 * from it (a CRD created a moment ago). Every space at once (`/tenants/all/apis`) serves the kinds
 * every space has: the built-ins and the system's shared CRDs, never one space's own CRDs (a
 * list or watch of those across spaces is answered 404; watch them space by space).
 *
 * @example
 *   await discovery.resourceFor({ kind: 'space', tenant: 't1' }, { apiVersion: 'example.com/v1', kind: 'Widget' })
 *   // { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true }
 */
import type { ApiRequester } from './api-requester.js';
import { isNotFound } from './api-status.js';
import { discoveryPath, type GroupVersionResource, type SpaceTarget } from './paths.js';

export interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export interface ApiResourceList {
  groupVersion: string;
  resources: ApiResource[];
}

export interface KindResource extends GroupVersionResource {
  namespaced: boolean;
}

/** A resource the space serves, at its group's preferred version, with its verbs. */
export interface ServedResource extends KindResource {
  kind: string;
  verbs: string[];
}

interface ApiGroupList {
  groups: Array<{ name: string; preferredVersion: { version: string } }>;
}

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export class Discovery {
  /** Keyed by space (`own`, `all`, or the tenant) and group version. */
  private readonly lists = new Map<string, ApiResourceList>();

  constructor(private readonly requester: ApiRequester) {}

  async resourceFor(space: SpaceTarget, type: TypeMeta): Promise<KindResource> {
    const slash = type.apiVersion.indexOf('/');
    const group = slash === -1 ? '' : type.apiVersion.slice(0, slash);
    const version = type.apiVersion.slice(slash + 1);
    const find = (list: ApiResourceList) => list.resources.find((r) => r.kind === type.kind && !r.name.includes('/'));
    const cacheKey = `${space.kind === 'space' ? space.tenant : space.kind} ${type.apiVersion}`;
    let found = this.lists.has(cacheKey) ? find(this.lists.get(cacheKey)!) : undefined;
    if (found === undefined) {
      const list = await this.groupVersion(space, group, version);
      if (list !== undefined) this.lists.set(cacheKey, list);
      found = list && find(list);
    }
    if (found === undefined) throw new Error(`no resource serves ${type.kind} in ${type.apiVersion} in this space`);
    return { group, version, resource: found.name, namespaced: found.namespaced };
  }

  /**
   * Every resource the space serves (subresources left out), each group at its preferred version
   * only, as client-go's ServerPreferredResources: one kind is not visited twice under two versions.
   * Read fresh on each call, so a space's new CRDs are in it.
   */
  async preferredResources(space: SpaceTarget): Promise<ServedResource[]> {
    const { groups } = await this.requester.json<ApiGroupList>({ method: 'GET', path: discoveryPath(space) });
    const groupVersions = [{ group: '', version: 'v1' }, ...groups.map((g) => ({ group: g.name, version: g.preferredVersion.version }))];
    const lists = await Promise.all(groupVersions.map(async (gv) => ({ ...gv, list: await this.groupVersion(space, gv.group, gv.version) })));
    return lists.flatMap(({ group, version, list }) =>
      (list?.resources ?? [])
        .filter((r) => !r.name.includes('/'))
        .map((r) => ({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs })),
    );
  }

  /** The group version's resources in the space; undefined when the space serves no such group version. */
  private async groupVersion(space: SpaceTarget, group: string, version: string): Promise<ApiResourceList | undefined> {
    try {
      return await this.requester.json<ApiResourceList>({ method: 'GET', path: discoveryPath(space, { group, version }) });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
