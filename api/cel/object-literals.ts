/**
 * Object construction read as map construction: `Object{spec: Object.spec{replicas: 1}}` (the
 * form of MutatingAdmissionPolicy's apply configurations) and `JSONPatch{op: 'add', …}` become
 * `{'spec': {'replicas': 1}}` and `{'op': 'add', …}`. Kubernetes declares those message types from
 * the matched kinds' schemas; we have no message types, and the value the expression yields is
 * JSON either way, so the field names are kept as map keys (unchecked against a schema).
 */
import type { Expr, ParsedExpr } from './checker.js';

/** The largest node id of an expression, so new nodes get ids of their own. */
function maxId(expr: unknown): bigint {
  let max = 0n;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const record = node as Record<string, unknown>;
    if (typeof record['id'] === 'bigint' && record['id'] > max) max = record['id'];
    for (const value of Object.values(record)) visit(value);
  };
  visit(expr);
  return max;
}

/** Rewrites, in place, every typed object construction of `parsed` into a map construction. */
export function objectLiteralsAsMaps(parsed: ParsedExpr): void {
  let next = maxId(parsed.expr) + 1n;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const record = node as Record<string, unknown>;
    const kind = record['exprKind'] as Expr['exprKind'] | undefined;
    if (kind?.case === 'structExpr' && kind.value.messageName !== '') {
      kind.value.messageName = '';
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case !== 'fieldKey') continue;
        const key = { $typeName: 'cel.expr.Expr', id: next++, exprKind: { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'stringValue', value: entry.keyKind.value } } } };
        (entry as { keyKind: unknown }).keyKind = { case: 'mapKey', value: key };
      }
    }
    for (const value of Object.values(record)) visit(value);
  };
  visit(parsed.expr);
}
