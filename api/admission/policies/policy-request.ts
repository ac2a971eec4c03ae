/**
 * A write as admission policies see it (kube's `admission.Attributes`), and whether a policy's or
 * binding's match resources select it: namespace selector, object selector, resource rules and
 * exclusions with the match policy, as kube-apiserver's `policy/matching` and `webhook/predicates`
 * decide.
 */
import type { UserInfo } from '../../access.js';
import type { KubeObject } from '../../registry/object.js';
import type { MatchResources, NamedRuleWithOperations } from '../../kinds/admissionregistration/policy-types.js';
import { labelSelectorMatches, type LabelSelector } from '../../validation/label-selector.js';

export type PolicyOperation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface PolicyRequest {
  /** The space the request acts in. */
  tenant: string;
  operation: PolicyOperation;
  gvr: GroupVersionResource;
  kind: { group: string; version: string; kind: string };
  /** '' for the whole object. */
  subresource: string;
  /** '' for a space-scoped object; a Namespace's own name for a Namespace (as kube's attributes have it). */
  namespace: string;
  name: string;
  /** null on DELETE. */
  object: KubeObject | null;
  /** null on CREATE. */
  oldObject: KubeObject | null;
  user: UserInfo | undefined;
  dryRun: boolean;
  /** Other versions serving the same objects, for matchPolicy Equivalent. */
  equivalents: readonly GroupVersionResource[];
}

/** The labels of the namespace a request is in; undefined when the namespace does not exist. */
export type NamespaceLabels = (req: PolicyRequest) => Promise<Readonly<Record<string, string>> | undefined>;

const isEmptySelector = (s: LabelSelector | undefined): boolean => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/** One rule against one group/version/resource of the request (kube's `rules.Matcher`). */
function ruleMatches(rule: NamedRuleWithOperations, req: PolicyRequest, gvr: GroupVersionResource): boolean {
  const ops = rule.operations ?? [];
  if (!ops.includes('*') && !ops.includes(req.operation)) return false;
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(gvr.group)) return false;
  const versions = rule.apiVersions ?? [];
  if (!versions.includes('*') && !versions.includes(gvr.version)) return false;
  const resourceMatches = (rule.resources ?? []).some((r) => {
    if (r === '*/*') return true;
    const slash = r.indexOf('/');
    const [res, sub] = slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
    return (res === '*' || res === gvr.resource) && (sub === '*' || sub === req.subresource);
  });
  if (!resourceMatches) return false;
  // Namespaces are cluster-scoped, though their requests carry their own name as namespace.
  const isNamespace = gvr.group === '' && gvr.resource === 'namespaces';
  if (rule.scope === 'Namespaced' && (isNamespace || req.namespace === '')) return false;
  if (rule.scope === 'Cluster' && !(isNamespace || req.namespace === '')) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(req.name);
}

/** The group/version/resource a rule list matches the request as, or undefined (Equivalent tries the other versions too). */
export function matchingResource(rules: readonly NamedRuleWithOperations[], matchPolicy: string | undefined, req: PolicyRequest): GroupVersionResource | undefined {
  if (rules.some((r) => ruleMatches(r, req, req.gvr))) return req.gvr;
  if (matchPolicy === 'Exact') return undefined;
  return req.equivalents.find((gvr) => rules.some((r) => ruleMatches(r, req, gvr)));
}

function objectSelected(selector: LabelSelector | undefined, req: PolicyRequest): boolean {
  if (isEmptySelector(selector)) return true;
  return [req.object, req.oldObject].some((o) => o !== null && labelSelectorMatches(selector!, o.metadata.labels ?? {}));
}

/**
 * Whether match resources select the request: namespace and object selectors, no exclusion rule,
 * and a resource rule (none means every request, as for a binding's match resources).
 * Throws nothing: a namespace that does not exist matches no non-empty namespace selector.
 */
export async function matchesResources(m: MatchResources | undefined, req: PolicyRequest, namespaceLabels: NamespaceLabels): Promise<boolean> {
  if (!m) return true;
  if (!objectSelected(m.objectSelector, req)) return false;
  if ((m.excludeResourceRules ?? []).length > 0 && matchingResource(m.excludeResourceRules!, m.matchPolicy, req)) return false;
  if ((m.resourceRules ?? []).length > 0 && !matchingResource(m.resourceRules!, m.matchPolicy, req)) return false;
  const isNamespace = req.gvr.group === '' && req.gvr.resource === 'namespaces';
  if (isEmptySelector(m.namespaceSelector) || (req.namespace === '' && !isNamespace)) return true;
  const labels = isNamespace ? ((req.object ?? req.oldObject)?.metadata.labels ?? {}) : await namespaceLabels(req);
  return labels !== undefined && labelSelectorMatches(m.namespaceSelector!, labels);
}

/** The `request` variable of CEL expressions (kube's `CreateAdmissionRequest`). */
export function admissionRequestValue(req: PolicyRequest, matched: GroupVersionResource): Record<string, unknown> {
  const user = req.user;
  return {
    uid: '',
    kind: req.kind,
    resource: matched,
    ...(req.subresource ? { subResource: req.subresource } : {}),
    requestKind: req.kind,
    requestResource: req.gvr,
    ...(req.subresource ? { requestSubResource: req.subresource } : {}),
    name: req.name,
    namespace: req.namespace,
    operation: req.operation,
    userInfo: user ? { username: user.name, uid: user.uid ?? '', groups: user.groups ?? [], extra: user.extra ?? {} } : { username: '' },
    dryRun: req.dryRun,
  };
}
