/**
 * Discovery documents built from a space's view of the registry: legacy (`/api`, `/apis`,
 * `/api/v1`, `/apis/g/v`) and aggregated (apidiscovery.k8s.io v2 and v2beta1, which differ only in
 * apiVersion). Space-scoped kinds are what Kubernetes calls cluster-scoped, so they are shown as
 * not namespaced: inside a space, kubectl sees an ordinary cluster. Legacy resource lists carry
 * each stored kind's `storageVersionHash`; aggregated discovery has no such field (as in Kubernetes).
 */
import { createHash } from 'node:crypto';
import type { RegistryView } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

function sortedVerbs(def: ResourceDefinition): string[] {
  return [...def.verbs].sort();
}

function subresources(def: ResourceDefinition): Array<{ name: string; kind: string; group?: string; version?: string; verbs?: readonly string[] }> {
  const subs: Array<{ name: string; kind: string; group?: string; version?: string; verbs?: readonly string[] }> = [];
  if (def.status) subs.push({ name: 'status', kind: def.kind });
  if (def.scale) subs.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1' });
  if (def.resource === 'namespaces' || def.resource === 'tenants') subs.push({ name: 'finalize', kind: def.kind });
  subs.push(...def.subresources);
  return subs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * kube-apiserver's `storageVersionHash`: base64 of the first 8 bytes of the SHA-256 of
 * `<group>/<version>/<kind>` as stored. Kinds that are asked, not stored (reviews), have none.
 */
export function storageVersionHash(def: ResourceDefinition): string | undefined {
  if (def.answer) return undefined;
  // The stored form names the hash (events.k8s.io Events hash as core/v1 Events, a CRD's versions as
  // its storage version), so clients watching for storage changes see what a real cluster shows.
  const { group, apiVersion, kind } = def.storage;
  const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

interface GroupEntry {
  name: string;
  versions: Array<{ groupVersion: string; version: string }>;
  preferredVersion: { groupVersion: string; version: string };
}

function groupEntries(view: RegistryView): GroupEntry[] {
  const groups = new Map<string, GroupEntry>();
  for (const { group, version } of view.groupVersions()) {
    if (group === '') continue;
    const gv = { groupVersion: `${group}/${version}`, version };
    const entry = groups.get(group);
    if (entry) entry.versions.push(gv);
    else groups.set(group, { name: group, versions: [gv], preferredVersion: gv });
  }
  return [...groups.values()];
}

export function apiGroupList(view: RegistryView): unknown {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupEntries(view) };
}

/** `/apis/<group>`, or undefined when the space serves no such group. */
export function apiGroup(view: RegistryView, group: string): unknown {
  const entry = groupEntries(view).find((g) => g.name === group);
  return entry && { kind: 'APIGroup', apiVersion: 'v1', ...entry };
}

/** `/api/v1` or `/apis/<g>/<v>`, or undefined when the space serves no such group/version. */
export function apiResourceList(view: RegistryView, group: string, version: string): unknown {
  const defs = view.all().filter((d) => d.group === group && d.version === version);
  if (defs.length === 0) return undefined;
  const resources: unknown[] = [];
  for (const def of defs) {
    const namespaced = def.scope === 'namespace';
    const main: Record<string, unknown> = { name: def.resource, singularName: def.singular, namespaced, kind: def.kind, verbs: sortedVerbs(def) };
    if (def.shortNames.length > 0) main.shortNames = def.shortNames;
    if (def.categories.length > 0) main.categories = def.categories;
    const hash = storageVersionHash(def);
    if (hash) main.storageVersionHash = hash;
    resources.push(main);
    for (const sub of subresources(def)) {
      // Field order as APIResource's: group and version come before kind.
      const groupVersion = sub.group ? { group: sub.group, version: sub.version } : {};
      resources.push({ name: `${def.resource}/${sub.name}`, singularName: '', namespaced, ...groupVersion, kind: sub.kind, verbs: sub.verbs ?? SUBRESOURCE_VERBS });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources };
}

export type AggregatedVersion = 'v2' | 'v2beta1';

/** `Content-Type` of an aggregated discovery answer: kubectl rejects it without these parameters. */
export function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

function discoveryResource(def: ResourceDefinition): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.scope === 'namespace' ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: sortedVerbs(def),
  };
  if (def.shortNames.length > 0) r.shortNames = def.shortNames;
  if (def.categories.length > 0) r.categories = def.categories;
  const subs = subresources(def);
  if (subs.length > 0) {
    r.subresources = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? def.group, version: s.version ?? def.version, kind: s.kind },
      verbs: s.verbs ?? SUBRESOURCE_VERBS,
    }));
  }
  return r;
}

/** Aggregated discovery for `/api` (core only) or `/apis` (every other group). */
export function aggregatedDiscovery(view: RegistryView, core: boolean, version: AggregatedVersion): unknown {
  const items: unknown[] = [];
  const byGroup = new Map<string, Array<{ version: string; resources: unknown[]; freshness: 'Current' }>>();
  for (const gv of view.groupVersions()) {
    if ((gv.group === '') !== core) continue;
    const resources = view.all().filter((d) => d.group === gv.group && d.version === gv.version).map(discoveryResource);
    const versions = byGroup.get(gv.group) ?? [];
    versions.push({ version: gv.version, resources, freshness: 'Current' });
    byGroup.set(gv.group, versions);
  }
  for (const [group, versions] of byGroup) items.push({ metadata: group === '' ? {} : { name: group }, versions });
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}
