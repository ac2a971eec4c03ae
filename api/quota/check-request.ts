/**
 * Whether a write fits a namespace's quotas, and what each quota's usage becomes if it happens:
 * apiserver's `CheckRequest` (plugin/resourcequota/controller.go), one quota at a time so a caller
 * that loses a race on one quota re-checks only that one. Refusals are its texts; the caller
 * wraps them as `<resource> "<name>" is forbidden: …`.
 *
 * @example
 *   const charge = quotaCharge(quota, request);  // undefined: the quota is not concerned
 *   if (charge) status.used = toResourceList(charge.used);
 */
import type { ResourceQuota, ScopedResourceSelectorRequirement } from '../kinds/core/types.js';
import type { KubeObject } from '../registry/object.js';
import type { QuotaEvaluator } from './evaluators.js';
import { addUsage, exceededResources, maskUsage, negativeResources, printUsage, removeZeros, subtractNonNegative, toUsage, type Usage } from './resource-usage.js';

export interface QuotaRequest {
  operation: 'create' | 'update';
  evaluator: QuotaEvaluator;
  object: KubeObject;
  /** The stored object, on update. */
  old: KubeObject | undefined;
  now: number;
}

/** A refusal; its message is the text after `is forbidden: `. */
export class QuotaRefusal extends Error {}

/** The quota's scopes as selector requirements (`spec.scopes` are Exists requirements). */
export function quotaScopeSelectors(quota: ResourceQuota): ScopedResourceSelectorRequirement[] {
  return [...(quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })), ...(quota.spec?.scopeSelector?.matchExpressions ?? [])];
}

/** Whether the quota limits something the evaluator measures and the object is in all its scopes (quota.Matches). */
export function quotaMatches(quota: ResourceQuota, evaluator: QuotaEvaluator, obj: KubeObject): boolean {
  const hard = Object.keys(quota.status?.hard ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  return quotaScopeSelectors(quota).every((req) => evaluator.matchesScope(req, obj));
}

/**
 * What the request adds to one quota: undefined when the quota is not concerned (no match, or
 * nothing it limits changes), else its new usage and what was added. Throws QuotaRefusal.
 */
export function quotaCharge(quota: ResourceQuota, req: QuotaRequest): { used: Usage; added: Usage } | undefined {
  const { evaluator, object } = req;
  if (!quotaMatches(quota, evaluator, object)) return undefined;
  const name = quota.metadata.name ?? '';
  const hard = toUsage(quota.status?.hard);
  const used = toUsage(quota.status?.used);
  const restricted = evaluator.matchingResources([...hard.keys()]);
  const constraint = evaluator.constraints(restricted, object);
  if (constraint) throw new QuotaRefusal(`failed quota: ${name}: ${constraint}`);
  const unknown = restricted.filter((r) => !used.has(r));
  if (unknown.length > 0) throw new QuotaRefusal(`status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);

  const input = evaluator.usage(object, req.now);
  const negative = negativeResources(input);
  if (negative.length > 0) throw new QuotaRefusal(`quota usage is negative for resource(s): ${negative.join(',')}`);
  let delta = input;
  if (req.operation === 'update' && req.old && quotaMatches(quota, evaluator, req.old)) {
    delta = subtractNonNegative(input, evaluator.usage(req.old, req.now));
  }
  const requested = maskUsage(removeZeros(delta), hard.keys());
  if (requested.size === 0) return undefined;
  const next = addUsage(used, requested);
  const exceeded = exceededResources(maskUsage(next, requested.keys()), hard);
  if (exceeded.length > 0) {
    throw new QuotaRefusal(
      `exceeded quota: ${name}, requested: ${printUsage(maskUsage(requested, exceeded))}, used: ${printUsage(maskUsage(used, exceeded))}, limited: ${printUsage(maskUsage(hard, exceeded))}`,
    );
  }
  return { used: next, added: requested };
}

/** What a namespace's objects use of a quota: the sum over those in its scopes, masked to its hard limits. */
export function quotaUsage(quota: ResourceQuota, hard: string[], measured: Array<{ evaluator: QuotaEvaluator; objects: KubeObject[] }>, now: number): Usage {
  let total: Usage = new Map();
  for (const { evaluator, objects } of measured) {
    const names = evaluator.matchingResources(hard);
    if (names.length === 0) continue;
    for (const name of names) if (!total.has(name)) total.set(name, { nanos: 0n, format: 'DecimalSI' });
    const selectors = quotaScopeSelectors(quota);
    for (const obj of objects) {
      if (!selectors.every((s) => evaluator.matchesScope(s, obj))) continue;
      total = addUsage(total, maskUsage(evaluator.usage(obj, now), names));
    }
  }
  return total;
}
