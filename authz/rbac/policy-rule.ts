/**
 * What one RBAC rule allows, and whether a set of rules covers another (the escalation check),
 * with Kubernetes' semantics: `*` in verbs, groups and resources; `resource/subresource` and
 * `*\/subresource`; resourceNames limit a rule to named objects; nonResourceURLs match exactly or
 * by a prefix ending in `*`.
 *
 * @example
 *   ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
 *              { verb: 'get', group: '', resource: 'pods', subresource: 'log', name: 'web' }) // true
 */
import type { PolicyRule } from '../../api/kinds/rbac/rules.js';

export type { PolicyRule };

const ALL = '*';

/** The part of a request a rule is matched against. */
export interface RuleAttributes {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** Set for non-resource requests (`/healthz`, `/apis`), which have no resource. */
  path?: string;
}

function hasOrAll(values: readonly string[] | undefined, value: string): boolean {
  if (!values) return false;
  for (const v of values) if (v === ALL || v === value) return true;
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, resource: string, subresource: string | undefined): boolean {
  if (!resources) return false;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const r of resources) {
    if (r === ALL || r === combined) return true;
    if (subresource && r === `*/${subresource}`) return true;
  }
  return false;
}

function urlMatches(patterns: readonly string[] | undefined, path: string): boolean {
  if (!patterns) return false;
  for (const p of patterns) {
    if (p === ALL || p === path) return true;
    if (p.endsWith(ALL) && path.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

export function isResourceRequest(attrs: RuleAttributes): boolean {
  return attrs.path === undefined;
}

/** Whether the rule allows the request. */
export function ruleAllows(rule: PolicyRule, attrs: RuleAttributes): boolean {
  if (!hasOrAll(rule.verbs, attrs.verb)) return false;
  if (!isResourceRequest(attrs)) return urlMatches(rule.nonResourceURLs, attrs.path!);
  if (!hasOrAll(rule.apiGroups, attrs.group ?? '')) return false;
  if (!resourceMatches(rule.resources, attrs.resource ?? '', attrs.subresource)) return false;
  const names = rule.resourceNames;
  return !names || names.length === 0 || (attrs.name !== undefined && names.includes(attrs.name));
}

// ---- covering: may an owner of these rules hand out those? -------------------------------------

function coversValues(owner: readonly string[] | undefined, value: string): boolean {
  return hasOrAll(owner, value);
}

/** `pods/status` is covered by `pods/status`, `*`, or `*\/status`; `*` only by `*`. */
function coversResource(owner: readonly string[] | undefined, resource: string): boolean {
  if (hasOrAll(owner, resource)) return true;
  const slash = resource.indexOf('/');
  return slash > 0 && (owner ?? []).includes(`*/${resource.slice(slash + 1)}`);
}

function coversUrl(owner: readonly string[] | undefined, url: string): boolean {
  for (const p of owner ?? []) {
    if (p === ALL || p === url) return true;
    if (p.endsWith(ALL) && url.startsWith(p.slice(0, -1))) return true;
  }
  return false;
}

/** One rule broken down to a single verb, group, resource and name (or URL): the unit covering is checked on. */
interface RuleAtom {
  verb: string;
  group?: string;
  resource?: string;
  name?: string;
  url?: string;
}

function atomsOf(rule: PolicyRule): RuleAtom[] {
  const atoms: RuleAtom[] = [];
  for (const verb of rule.verbs ?? []) {
    for (const url of rule.nonResourceURLs ?? []) atoms.push({ verb, url });
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) atoms.push({ verb, group, resource });
        else for (const name of names) atoms.push({ verb, group, resource, name });
      }
    }
  }
  return atoms;
}

function ruleCoversAtom(owner: PolicyRule, atom: RuleAtom): boolean {
  if (!coversValues(owner.verbs, atom.verb)) return false;
  if (atom.url !== undefined) return coversUrl(owner.nonResourceURLs, atom.url);
  if (!coversValues(owner.apiGroups, atom.group!) || !coversResource(owner.resources, atom.resource!)) return false;
  const names = owner.resourceNames ?? [];
  return names.length === 0 || (atom.name !== undefined && names.includes(atom.name));
}

/**
 * The parts of `wanted` that `owned` does not cover, each as a one-verb rule (empty when every
 * permission asked for is already held): what an escalation refusal lists.
 */
export function uncoveredRules(owned: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const rule of wanted) {
    for (const atom of atomsOf(rule)) {
      if (owned.some((o) => ruleCoversAtom(o, atom))) continue;
      missing.push(
        atom.url !== undefined
          ? { verbs: [atom.verb], nonResourceURLs: [atom.url] }
          : { apiGroups: [atom.group!], resources: [atom.resource!], ...(atom.name !== undefined ? { resourceNames: [atom.name] } : {}), verbs: [atom.verb] },
      );
    }
  }
  return missing;
}

/**
 * Merges one-group, one-resource rules without names into one rule per group and resource, their
 * verbs in order (Kubernetes' CompactRules): `get` and `list` on secrets print as one line.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const byResource = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const simple = rule.apiGroups?.length === 1 && rule.resources?.length === 1 && !rule.resourceNames?.length && !rule.nonResourceURLs?.length;
    if (!simple) {
      compacted.push(rule);
      continue;
    }
    const key = `${rule.apiGroups![0]}/${rule.resources![0]}`;
    const merged = byResource.get(key);
    if (merged) {
      for (const verb of rule.verbs ?? []) if (!merged.verbs!.includes(verb)) merged.verbs!.push(verb);
    } else {
      const copy = { ...rule, verbs: [...(rule.verbs ?? [])] };
      byResource.set(key, copy);
      compacted.push(copy);
    }
  }
  return compacted;
}

/** A rule as kube-apiserver prints it in escalation refusals: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}`. */
export function formatRule(rule: PolicyRule): string {
  const list = (values: readonly string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${list(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${list(rule.resources)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${list(rule.resourceNames)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${list(rule.nonResourceURLs)}`);
  parts.push(`Verbs:${list(rule.verbs ?? [])}`);
  return `{${parts.join(', ')}}`;
}
