/**
 * The resource registry: every served kind, found by group/version/resource, by kind, or by the
 * names kubectl resolves. A space sees the registry through `view(tenant)`: the built-in kinds
 * (without the cluster-scoped ones, except for the system space) and the kinds its own CRDs
 * serve, which `setSpaceKinds` keeps up to date (DESIGN.md section 3: discovery is per space).
 */
import { READ_VERBS, type ResourceDefinition } from './resource-definition.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../spaces.js';
import { compareKubeAwareVersions } from './version-priority.js';

export interface GroupVersion {
  group: string;
  version: string;
}

export interface RegistryView {
  /** The kind served at group/version/resource, if any. */
  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined;
  /** Every kind, in a stable order: groups as registered, kinds by resource name. */
  all(): readonly ResourceDefinition[];
  /** Group/versions served, core first, in registration order. */
  groupVersions(): readonly GroupVersion[];
}

const pathOf = (def: ResourceDefinition): string => `${def.group}/${def.version}/${def.resource}`;
const byResource = (a: ResourceDefinition, b: ResourceDefinition): number => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0);

/**
 * The kinds one may see from inside a space: the built-in ones (for spaces other than the system
 * space, of the kinds above the spaces only those spaces read, nodes and APIServices, read-only),
 * then the space's custom kinds, whose groups follow the built-in groups, by name, as
 * kube-apiserver lists CRD groups after its own; a group's versions by Kubernetes' priority (the
 * first is preferred). A built-in kind wins over a custom one at the same path.
 */
class SpaceView implements RegistryView {
  private readonly kinds: readonly ResourceDefinition[];
  private readonly gvs: readonly GroupVersion[];
  private readonly builtinByPath = new Map<string, ResourceDefinition>();
  private readonly custom = new Map<string, ResourceDefinition>();

  constructor(whole: ResourceRegistry, withCluster: boolean, customKinds: readonly ResourceDefinition[]) {
    for (const def of customKinds) if (!whole.lookup(def.group, def.version, def.resource) && !this.custom.has(pathOf(def))) this.custom.set(pathOf(def), def);
    const customGvs: GroupVersion[] = [];
    for (const def of this.custom.values()) if (!customGvs.some((gv) => gv.group === def.group && gv.version === def.version)) customGvs.push({ group: def.group, version: def.version });
    customGvs.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : compareKubeAwareVersions(a.version, b.version)));
    const builtin = withCluster ? whole.all() : whole.spaceBuiltins();
    for (const d of builtin) this.builtinByPath.set(pathOf(d), d);
    const gvIndex = (d: ResourceDefinition): number => customGvs.findIndex((gv) => gv.group === d.group && gv.version === d.version);
    this.kinds = [...builtin, ...[...this.custom.values()].sort((a, b) => gvIndex(a) - gvIndex(b) || byResource(a, b))];
    this.gvs = [...whole.groupVersions().filter((gv) => builtin.some((d) => d.group === gv.group && d.version === gv.version)), ...customGvs];
  }

  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined {
    const path = `${group}/${version}/${resource}`;
    return this.builtinByPath.get(path) ?? this.custom.get(path);
  }

  all(): readonly ResourceDefinition[] {
    return this.kinds;
  }

  groupVersions(): readonly GroupVersion[] {
    return this.gvs;
  }
}

export class ResourceRegistry implements RegistryView {
  private readonly byPath = new Map<string, ResourceDefinition>();
  private readonly ordered: ResourceDefinition[];
  private readonly gvs: GroupVersion[] = [];
  private readonly spaceKinds = new Map<string, readonly ResourceDefinition[]>();
  private sharedKinds: readonly ResourceDefinition[] = [];
  private readonly views = new Map<string, SpaceView>();
  /** The view of every space without custom kinds of its own: one, shared, so a space costs no view (nor OpenAPI cache) until it has a CRD. */
  private plainSpaceView: SpaceView | undefined;
  private builtinsOfSpaces: readonly ResourceDefinition[] | undefined;

  constructor(defs: readonly ResourceDefinition[]) {
    for (const def of defs) {
      const key = pathOf(def);
      if (this.byPath.has(key)) throw new Error(`resource ${key} registered twice`);
      this.byPath.set(key, def);
      if (!this.gvs.some((gv) => gv.group === def.group && gv.version === def.version)) this.gvs.push({ group: def.group, version: def.version });
    }
    const groupOrder = (d: ResourceDefinition): number => this.gvs.findIndex((gv) => gv.group === d.group && gv.version === d.version);
    this.ordered = [...defs].sort((a, b) => groupOrder(a) - groupOrder(b) || byResource(a, b));
    this.gvs.sort((a, b) => (a.group === '' ? -1 : b.group === '' ? 1 : 0));
  }

  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  all(): readonly ResourceDefinition[] {
    return this.ordered;
  }

  groupVersions(): readonly GroupVersion[] {
    return this.gvs;
  }

  /**
   * The built-in kinds a space other than the system space sees: its own, and the kinds above the
   * spaces that spaces read, read-only (made once, so every view shares the same definitions).
   */
  spaceBuiltins(): readonly ResourceDefinition[] {
    return (this.builtinsOfSpaces ??= this.ordered
      .filter((d) => d.scope !== 'cluster' || d.readableFromSpaces)
      .map((d) => (d.scope === 'cluster' ? { ...d, verbs: d.verbs.filter((v) => READ_VERBS.includes(v)) } : d)));
  }

  /** The kinds the CRDs of `tenant` serve now (replacing what it served before). */
  setSpaceKinds(tenant: string, defs: readonly ResourceDefinition[]): void {
    if (defs.length === 0) this.spaceKinds.delete(tenant);
    else this.spaceKinds.set(tenant, defs);
    this.views.delete(tenant);
  }

  /** The kinds of the system CRDs shared with every space (replacing what they served before). */
  setSharedKinds(defs: readonly ResourceDefinition[]): void {
    this.sharedKinds = defs;
    this.views.clear();
    this.plainSpaceView = undefined;
  }

  /**
   * What a request in `tenant` sees. The system space sees every built-in kind, Tenants included,
   * and its own custom kinds; the all-spaces view sees the built-in kinds; any other space sees its
   * own kinds only, so a tenant's discovery and OpenAPI never mention what is above it or beside it.
   * Every view has the shared system CRDs' kinds, before the space's own (which cannot shadow them).
   */
  view(tenant: string): RegistryView {
    const aboveSpaces = tenant === ALL_TENANTS || tenant === SYSTEM_TENANT;
    const own = tenant === ALL_TENANTS ? [] : (this.spaceKinds.get(tenant) ?? []);
    if (aboveSpaces && own.length === 0 && this.sharedKinds.length === 0) return this;
    if (!aboveSpaces && own.length === 0) return (this.plainSpaceView ??= new SpaceView(this, false, this.sharedKinds));
    let view = this.views.get(tenant);
    if (!view) {
      view = new SpaceView(this, aboveSpaces, [...this.sharedKinds, ...own]);
      this.views.set(tenant, view);
    }
    return view;
  }
}
