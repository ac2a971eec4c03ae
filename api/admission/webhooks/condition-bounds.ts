/**
 * A bound on a match condition's work. Its variables are `dyn` (a webhook's rules may match any
 * kind), so the CEL cost estimator, which prices loops by the sizes a schema declares, cannot price
 * them. The work of an expression is at most (largest collection of its input) ^ (depth of nested
 * comprehensions) loop steps, so a condition whose nested loops could pass kube's per-call limit on
 * this request's values is not run (kube's runtime cost tracker stops such a call as well): one
 * tenant's condition never holds the event loop for everyone.
 *
 * @example
 *   comprehensionDepth(compiled.parsed.expr);      // 2 for `object.data.all(k, object.data.all(j, true))`
 *   largestCollection({ data: { a: '1', b: '2' } }); // 2
 */
import type { Expr } from '../../cel/checker.js';

/** kube's PerCallLimit: the most a single CEL evaluation may cost. */
export const PER_CALL_LIMIT = 1_000_000;

export function comprehensionDepth(expr: Expr | undefined): number {
  if (!expr) return 0;
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'selectExpr':
      return comprehensionDepth(kind.value.operand);
    case 'callExpr':
      return Math.max(comprehensionDepth(kind.value.target), ...kind.value.args.map(comprehensionDepth));
    case 'listExpr':
      return Math.max(0, ...kind.value.elements.map(comprehensionDepth));
    case 'structExpr':
      return Math.max(0, ...kind.value.entries.map((e) => Math.max(e.keyKind.case === 'mapKey' ? comprehensionDepth(e.keyKind.value) : 0, comprehensionDepth(e.value))));
    case 'comprehensionExpr': {
      const c = kind.value;
      const body = 1 + Math.max(comprehensionDepth(c.loopCondition), comprehensionDepth(c.loopStep));
      return Math.max(body, comprehensionDepth(c.iterRange), comprehensionDepth(c.accuInit), comprehensionDepth(c.result));
    }
    default:
      return 0;
  }
}

/** The most items or keys any list or map of `value` holds (strings count by length: they can be split). One walk, iterative. */
export function largestCollection(...values: unknown[]): number {
  let largest = 0;
  const stack: unknown[] = [...values];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') largest = Math.max(largest, v.length);
    else if (Array.isArray(v)) {
      largest = Math.max(largest, v.length);
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      const items = Object.values(v);
      largest = Math.max(largest, items.length);
      for (const item of items) stack.push(item);
    }
  }
  return largest;
}

/** Whether nested loops of `depth` over collections of `size` may pass the per-call limit (a single loop is linear in the input: always run). */
export function mayExceedLimit(depth: number, size: number): boolean {
  return depth >= 2 && size ** depth > PER_CALL_LIMIT;
}
