/**
 * kube-apiserver's audit policy (`--audit-policy-file`, `audit.k8s.io/v1` Policy): the first rule
 * that matches a request decides its level (None, Metadata, Request, RequestResponse) and the
 * stages left out; a request no rule matches is not audited. Rules match as kube-apiserver's do:
 * `users`, `userGroups`, `verbs`, `resources` (group, `resources` as `res`, `res/sub`, `* /sub`
 * without the space, `res/*`, and `resourceNames`), `namespaces` ('' for cluster-scoped) and
 * `nonResourceURLs` (`/path` or a `/prefix*`). A rule naming resources or namespaces never matches
 * a non-resource request, nor one naming nonResourceURLs a resource request.
 *
 * Our extension: `tenants`, a list of spaces a rule is limited to (the space the request acts in;
 * `all` for requests across every space). kube-apiserver would refuse the field; nothing else
 * differs, so a kube-apiserver policy works here unchanged.
 *
 * @example
 *   const policy = parseAuditPolicy(readFileSync('audit-policy.yaml', 'utf8'));
 *   policy.decide({ user, verb: 'get', resource: { group: '', resource: 'secrets', ... }, tenant: 't1' });
 *   // { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: false }
 */
import { parse as parseYaml } from 'yaml';

export const AUDIT_LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];
export const AUDIT_STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof AUDIT_STAGES)[number];

interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

interface PolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  tenants?: string[];
  omitStages: AuditStage[];
  omitManagedFields?: boolean;
}

/** What a rule is matched against. */
export interface AuditAttributes {
  user: { name: string; groups: readonly string[] };
  verb: string;
  /** The space the request acts in ('' where none applies). */
  tenant: string;
  /** For resource requests. */
  resource?: { group: string; resource: string; subresource?: string; namespace?: string; name?: string };
  /** For non-resource requests. */
  path?: string;
}

export interface AuditDecision {
  level: AuditLevel;
  omitStages: readonly AuditStage[];
  omitManagedFields: boolean;
}

const NOT_AUDITED: AuditDecision = { level: 'None', omitStages: [], omitManagedFields: false };

export class AuditPolicy {
  constructor(
    private readonly rules: readonly PolicyRule[],
    private readonly omitStages: readonly AuditStage[],
    private readonly omitManagedFields: boolean,
  ) {}

  decide(attrs: AuditAttributes): AuditDecision {
    const rule = this.rules.find((r) => ruleMatches(r, attrs));
    if (rule === undefined || rule.level === 'None') return NOT_AUDITED;
    return {
      level: rule.level,
      omitStages: [...new Set([...this.omitStages, ...rule.omitStages])],
      omitManagedFields: rule.omitManagedFields ?? this.omitManagedFields,
    };
  }
}

function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (rule.users && !rule.users.includes(attrs.user.name)) return false;
  if (rule.userGroups && !attrs.user.groups.some((g) => rule.userGroups!.includes(g))) return false;
  if (rule.verbs && !rule.verbs.includes(attrs.verb)) return false;
  if (rule.tenants && !rule.tenants.includes(attrs.tenant)) return false;
  if (attrs.resource) {
    if (rule.nonResourceURLs) return false;
    if (rule.namespaces && !rule.namespaces.includes(attrs.resource.namespace ?? '')) return false;
    return rule.resources === undefined || rule.resources.some((gr) => groupResourcesMatch(gr, attrs.resource!));
  }
  if (rule.resources || rule.namespaces) return false;
  return rule.nonResourceURLs === undefined || rule.nonResourceURLs.some((url) => pathMatches(url, attrs.path ?? ''));
}

function groupResourcesMatch(gr: GroupResources, r: NonNullable<AuditAttributes['resource']>): boolean {
  if (gr.group !== r.group) return false;
  if (gr.resources.length > 0) {
    const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
    const matched = gr.resources.some(
      (res) => res === combined || res === '*' || (r.subresource !== undefined && (res === `*/${r.subresource}` || res === `${r.resource}/*`)),
    );
    if (!matched) return false;
  }
  return gr.resourceNames.length === 0 || (r.name !== undefined && gr.resourceNames.includes(r.name));
}

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

/** Parses a Policy document (YAML or JSON); throws with the field at fault. */
export function parseAuditPolicy(text: string): AuditPolicy {
  const doc: unknown = parseYaml(text);
  const policy = asRecord(doc, 'the policy');
  if (policy.kind !== 'Policy' || (policy.apiVersion !== 'audit.k8s.io/v1' && policy.apiVersion !== 'audit.k8s.io/v1beta1')) {
    throw new Error(`an audit policy is apiVersion audit.k8s.io/v1, kind Policy; got ${String(policy.apiVersion)}, ${String(policy.kind)}`);
  }
  const rulesField = policy.rules ?? [];
  if (!Array.isArray(rulesField)) throw new Error('rules: must be a list');
  const rules = rulesField.map((r, i) => parseRule(r, `rules[${i}]`));
  return new AuditPolicy(rules, stages(policy.omitStages, 'omitStages'), optionalBoolean(policy.omitManagedFields, 'omitManagedFields') ?? false);
}

function parseRule(value: unknown, where: string): PolicyRule {
  const r = asRecord(value, where);
  const known = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'tenants', 'omitStages', 'omitManagedFields']);
  for (const field of Object.keys(r)) if (!known.has(field)) throw new Error(`${where}.${field}: unknown field`);
  if (!AUDIT_LEVELS.includes(r.level as AuditLevel)) throw new Error(`${where}.level: must be one of ${AUDIT_LEVELS.join(', ')}`);
  const rule: PolicyRule = { level: r.level as AuditLevel, omitStages: stages(r.omitStages, `${where}.omitStages`) };
  for (const field of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'tenants'] as const) {
    if (r[field] !== undefined) rule[field] = strings(r[field], `${where}.${field}`);
  }
  if (r.resources !== undefined) {
    if (!Array.isArray(r.resources)) throw new Error(`${where}.resources: must be a list`);
    rule.resources = r.resources.map((gr, i) => {
      const g = asRecord(gr, `${where}.resources[${i}]`);
      return {
        group: g.group === undefined ? '' : strings([g.group], `${where}.resources[${i}].group`)[0]!,
        resources: g.resources === undefined ? [] : strings(g.resources, `${where}.resources[${i}].resources`),
        resourceNames: g.resourceNames === undefined ? [] : strings(g.resourceNames, `${where}.resources[${i}].resourceNames`),
      };
    });
  }
  if (rule.nonResourceURLs && (rule.resources || rule.namespaces)) throw new Error(`${where}: nonResourceURLs cannot go with resources or namespaces`);
  rule.omitManagedFields = optionalBoolean(r.omitManagedFields, `${where}.omitManagedFields`);
  return rule;
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where}: must be a map`);
  return value as Record<string, unknown>;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error(`${where}: must be a list of strings`);
  return value as string[];
}

function stages(value: unknown, where: string): AuditStage[] {
  if (value === undefined) return [];
  const list = strings(value, where);
  const bad = list.find((s) => !AUDIT_STAGES.includes(s as AuditStage));
  if (bad !== undefined) throw new Error(`${where}: unknown stage ${JSON.stringify(bad)}`);
  return list as AuditStage[];
}

function optionalBoolean(value: unknown, where: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new Error(`${where}: must be true or false`);
  return value;
}
