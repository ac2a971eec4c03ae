/**
 * Which webhooks a request reaches, as kube-apiserver decides it
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules and …/generic/webhook.go):
 * rules (operations, API groups and versions, resources with subresources, scope), with
 * `matchPolicy: Equivalent` also through another version of the same stored resource; then the
 * namespace and object selectors. Match conditions (CEL) are the dispatcher's last step.
 *
 * @example
 *   ruleMatches({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*'], scope: '*' },
 *     { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: 'status', namespaced: true }); // true
 */
import type { KubeObject } from '../../registry/object.js';
import { labelSelectorMatches, type LabelSelector } from '../../validation/label-selector.js';
import type { RuleWithOperations } from '../../kinds/admissionregistration/webhook-types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What rules look at in a request: its operation and where it goes. */
export interface RequestTarget {
  operation: Operation;
  group: string;
  version: string;
  resource: string;
  /** '' for the resource itself. */
  subresource: string;
  /** Whether the resource lives in a namespace (a Namespace itself, like every space-scoped kind, does not). */
  namespaced: boolean;
}

const has = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);

function resourceMatches(resources: readonly string[] | undefined, resource: string, subresource: string): boolean {
  for (const entry of resources ?? []) {
    if (entry === '*/*') return true;
    if (subresource === '') {
      if (entry === '*' || entry === resource) return true;
      continue;
    }
    if (entry === `${resource}/${subresource}` || entry === `${resource}/*` || entry === `*/${subresource}`) return true;
  }
  return false;
}

function scopeMatches(scope: string | undefined, namespaced: boolean): boolean {
  if (scope === 'Cluster') return !namespaced;
  if (scope === 'Namespaced') return namespaced;
  return true;
}

export function ruleMatches(rule: RuleWithOperations, target: RequestTarget): boolean {
  return (
    has(rule.operations, target.operation) &&
    has(rule.apiGroups, target.group) &&
    has(rule.apiVersions, target.version) &&
    resourceMatches(rule.resources, target.resource, target.subresource) &&
    scopeMatches(rule.scope, target.namespaced)
  );
}

export function rulesMatch(rules: readonly RuleWithOperations[] | undefined, target: RequestTarget): boolean {
  return (rules ?? []).some((rule) => ruleMatches(rule, target));
}

/**
 * The object selector: the new object's labels or, failing that, the old object's (a DELETE has
 * only the old one), as kube's ObjectSelector matcher does. An empty selector matches everything.
 */
export function objectSelectorMatches(selector: LabelSelector | undefined, object: KubeObject | undefined, old: KubeObject | undefined): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  return [object, old].some((o) => o !== undefined && labelSelectorMatches(selector, o.metadata?.labels ?? {}));
}

export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}
