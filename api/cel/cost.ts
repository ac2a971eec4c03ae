/**
 * The worst-case cost of a checked CEL expression, after cel-go's estimator
 * (`checker/cost.go`): identifiers and field selections cost 1, calls 1 plus their arguments,
 * string scans and comparisons a tenth of a unit per character, list and map literals 10 and 30, and a
 * comprehension its range's largest size times its loop body. Sizes come from the types (the
 * schema's maxItems/maxProperties/maxLength, or the request size limit without them), so the same
 * estimator prices a rule once with the schema's bounds (at CRD creation) and again with the
 * sizes of the object being written (at each request).
 */
import type { Expr } from './checker.js';
import { maxSize, type CelType } from './types.js';

/** cel-go's `common.StringTraversalCostFactor`: a string operation costs 0.1 per character. */
const STRING_TRAVERSAL_FACTOR = 0.1;
const LIST_CREATE_BASE_COST = 10;
const MAP_CREATE_BASE_COST = 30;

/** The cost of one call itself, without its arguments'. */
export type CallCost = (name: string, target: CelType | undefined, args: CelType[]) => number;

const traversal = (t: CelType | undefined): number => (t ? Math.ceil(maxSize(t) * STRING_TRAVERSAL_FACTOR) : 0);

/** cel-go's `RegexStringLengthCostFactor`: a pattern's states are guessed at one per 4 characters. */
const REGEX_STRING_LENGTH_FACTOR = 0.25;

/** Standard functions as cel-go prices them: O(1) at 1, scans of strings and lists by their size. */
export function standardCallCost(name: string, target: CelType | undefined, args: CelType[]): number {
  switch (name) {
    case 'contains':
      return Math.max(1, traversal(target) * traversal(args[0]));
    case 'startsWith':
    case 'endsWith':
      return Math.max(1, traversal(args[0]));
    case 'matches': {
      const str = target ?? args[0];
      const pattern = target ? args[0] : args[1];
      return Math.max(1, Math.ceil(((str ? maxSize(str) : 0) + 1) * STRING_TRAVERSAL_FACTOR) * Math.ceil((pattern ? maxSize(pattern) : 0) * REGEX_STRING_LENGTH_FACTOR));
    }
    case '_==_':
    case '_!=_':
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      // min(len(a), len(b)) * 0.1: a scalar compares at 1.
      return Math.ceil(Math.min(...args.map(maxSize)) * STRING_TRAVERSAL_FACTOR);
    case '_+_':
      return args.every((a) => a.kind === 'string' || a.kind === 'bytes') ? Math.max(1, Math.ceil(args.reduce((n, a) => n + maxSize(a), 0) * STRING_TRAVERSAL_FACTOR)) : 1;
    case '@in':
      return args[1] && (args[1].kind === 'list' || args[1].kind === 'map') ? maxSize(args[1]) : 1;
    case 'string':
    case 'bytes':
      return Math.max(1, traversal(args[0]));
    default:
      return 1;
  }
}

export function estimateCost(expr: Expr | undefined, types: Map<bigint, CelType>, callCost: CallCost): number {
  if (!expr) return 0;
  const typeOf = (e: Expr | undefined): CelType | undefined => (e ? types.get(e.id) : undefined);
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'constExpr':
      return 0;
    case 'identExpr':
      return 1;
    case 'selectExpr':
      return 1 + estimateCost(kind.value.operand, types, callCost);
    case 'callExpr': {
      const { function: name, target, args } = kind.value;
      const parts = [target, ...args].map((e) => (e ? estimateCost(e, types, callCost) : 0));
      // A conditional pays for its condition and the dearer branch; && and || for both sides.
      if (name === '_?_:_') return parts[0]! + parts[1]! + Math.max(parts[2]!, parts[3]!);
      if (name === '_&&_' || name === '_||_') return parts[0]! + parts[1]! + parts[2]!;
      const own = callCost(name, typeOf(target), args.map((a) => typeOf(a) ?? { kind: 'dyn' }));
      return own + parts.reduce((a, b) => a + b, 0);
    }
    case 'listExpr':
      return LIST_CREATE_BASE_COST + kind.value.elements.reduce((n, e) => n + estimateCost(e, types, callCost), 0);
    case 'structExpr':
      return MAP_CREATE_BASE_COST + kind.value.entries.reduce((n, e) => n + (e.keyKind.case === 'mapKey' ? estimateCost(e.keyKind.value, types, callCost) : 0) + estimateCost(e.value, types, callCost), 0);
    case 'comprehensionExpr': {
      const c = kind.value;
      const range = typeOf(c.iterRange);
      const size = range ? maxSize(range) : 1;
      const body = estimateCost(c.loopCondition, types, callCost) + estimateCost(c.loopStep, types, callCost);
      return estimateCost(c.iterRange, types, callCost) + estimateCost(c.accuInit, types, callCost) + size * body + estimateCost(c.result, types, callCost);
    }
    default:
      return 0;
  }
}
