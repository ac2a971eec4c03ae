/**
 * The resource registry: every served kind, found by group/version/resource, by kind, or by the
 * names kubectl resolves. A space sees the registry through `view(tenant)`, the seam where that
 * space's own CRDs will join the built-in kinds (DESIGN.md section 3: discovery is per space).
 */
import { READ_VERBS, type ResourceDefinition } from './resource-definition.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../spaces.js';

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

/**
 * A view of the kinds one may see from inside a space: the kinds of its own, and the kinds above
 * the spaces that spaces read (nodes, APIServices), read-only; nothing else above the spaces.
 */
class SpaceView implements RegistryView {
  private readonly kinds: readonly ResourceDefinition[];
  private readonly gvs: readonly GroupVersion[];
  private readonly byPath = new Map<string, ResourceDefinition>();

  constructor(whole: ResourceRegistry) {
    this.kinds = whole
      .all()
      .filter((d) => d.scope !== 'cluster' || d.readableFromSpaces)
      .map((d) => (d.scope === 'cluster' ? { ...d, verbs: d.verbs.filter((v) => READ_VERBS.includes(v)) } : d));
    for (const d of this.kinds) this.byPath.set(`${d.group}/${d.version}/${d.resource}`, d);
    this.gvs = whole.groupVersions().filter((gv) => this.kinds.some((d) => d.group === gv.group && d.version === gv.version));
  }

  lookup(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
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
  private spaceView: SpaceView | undefined;

  constructor(defs: readonly ResourceDefinition[]) {
    for (const def of defs) {
      const key = `${def.group}/${def.version}/${def.resource}`;
      if (this.byPath.has(key)) throw new Error(`resource ${key} registered twice`);
      this.byPath.set(key, def);
      if (!this.gvs.some((gv) => gv.group === def.group && gv.version === def.version)) this.gvs.push({ group: def.group, version: def.version });
    }
    const groupOrder = (d: ResourceDefinition): number => this.gvs.findIndex((gv) => gv.group === d.group && gv.version === d.version);
    this.ordered = [...defs].sort((a, b) => groupOrder(a) - groupOrder(b) || (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
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
   * What a request in `tenant` sees. The system space and the all-spaces view see everything,
   * Tenants included; any other space sees its own kinds only, so a tenant's discovery and OpenAPI
   * never mention what is above it. Built-in kinds are the same for every space; space CRDs join here later.
   */
  view(tenant: string): RegistryView {
    if (tenant === SYSTEM_TENANT || tenant === ALL_TENANTS) return this;
    return (this.spaceView ??= new SpaceView(this));
  }
}
