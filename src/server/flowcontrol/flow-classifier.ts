/**
 * Which FlowSchema a request matches, as kube-apiserver decides it: schemas in order of
 * matchingPrecedence (then name), the first whose rules match the request's user and what it
 * asks for. Schemas live in the system space, so their User, ServiceAccount and other Group
 * subjects name system-space identities; a user of another space is matched only by the groups
 * every user carries (`system:authenticated`, `system:unauthenticated`, `system:serviceaccounts`)
 * or `*`: a tenant cannot name itself `system:masters` or `system:kube-scheduler` in its own space
 * and jump the line.
 *
 * @example
 *   const c = new FlowClassifier(schemas);
 *   c.classify(user, info)?.metadata.name // 'global-default'
 */
import type { UserInfo } from '../../../api/access.js';
import { SYSTEM_TENANT } from '../../../api/spaces.js';
import type { RequestInfo } from '../request-info.js';
import type { FlowSchemaObject, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from './flow-objects.js';

const GROUPS_OF_EVERY_SPACE = new Set(['system:authenticated', 'system:unauthenticated', 'system:serviceaccounts']);

function subjectMatches(subject: Subject, user: UserInfo): boolean {
  const ofSystem = user.tenant === SYSTEM_TENANT;
  switch (subject.kind) {
    case 'Group': {
      const name = subject.group?.name ?? '';
      if (!ofSystem && name !== '*' && !GROUPS_OF_EVERY_SPACE.has(name)) return false;
      return name === '*' || user.groups.includes(name);
    }
    case 'User': {
      const name = subject.user?.name ?? '';
      return ofSystem && (name === '*' || name === user.name);
    }
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!ofSystem || !sa) return false;
      const prefix = `system:serviceaccount:${sa.namespace}:`;
      return user.name.startsWith(prefix) && (sa.name === '*' || user.name.length === prefix.length + sa.name.length && user.name.endsWith(sa.name));
    }
    default:
      return false;
  }
}

const listed = (values: string[] | undefined, value: string): boolean => values !== undefined && (values.includes('*') || values.includes(value));

function resourceRuleMatches(rule: ResourcePolicyRule, info: Extract<RequestInfo, { kind: 'resource' }>): boolean {
  if (!listed(rule.verbs, info.verb) || !listed(rule.apiGroups, info.group)) return false;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  if (!listed(rule.resources, resource)) return false;
  return info.namespace === undefined ? rule.clusterScope === true : listed(rule.namespaces, info.namespace);
}

function nonResourceRuleMatches(rule: NonResourcePolicyRule, info: Extract<RequestInfo, { kind: 'nonresource' }>): boolean {
  if (!listed(rule.verbs, info.verb)) return false;
  return rule.nonResourceURLs.some((pattern) => pattern === '*' || pattern === info.path || (pattern.endsWith('*') && info.path.startsWith(pattern.slice(0, -1))));
}

function ruleMatches(rule: PolicyRulesWithSubjects, user: UserInfo, info: RequestInfo): boolean {
  if (!rule.subjects.some((s) => subjectMatches(s, user))) return false;
  if (info.kind === 'resource') return (rule.resourceRules ?? []).some((r) => resourceRuleMatches(r, info));
  return (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(r, info));
}

export class FlowClassifier {
  private readonly ordered: FlowSchemaObject[];

  constructor(schemas: FlowSchemaObject[]) {
    this.ordered = [...schemas].sort((a, b) => (a.spec.matchingPrecedence ?? 1000) - (b.spec.matchingPrecedence ?? 1000) || a.metadata.name.localeCompare(b.metadata.name));
  }

  classify(user: UserInfo, info: RequestInfo): FlowSchemaObject | undefined {
    for (const schema of this.ordered) {
      if ((schema.spec.rules ?? []).some((rule) => ruleMatches(rule, user, info))) return schema;
    }
    return undefined;
  }
}
