/**
 * CEL for the API server: expressions compiled once against declared variable types (parsed and
 * evaluated by `@bufbuild/cel`, type-checked and cost-estimated here), then evaluated against JSON
 * values with a cost limit. CRD validation rules use it; admission policies can too.
 *
 * @example
 *   const compiled = compileExpression('self.replicas <= 10', { self: schemaType(schema) });
 *   if ('errors' in compiled) throw new Error(compiled.errors); // 'ERROR: <input>:1:6: ...'
 *   evaluate(compiled, { self: toCel(obj, types.self) }); // { value: true }
 */
import { celEnv, isCelError, isCelList, isCelMap, isCelUint, parse, plan, type CelInput } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { durationFromMs, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { check, type ParsedExpr } from './checker.js';
import { estimateCost, standardCallCost, type CallCost } from './cost.js';
import { KUBERNETES_LIBRARIES } from './library.js';
import { objectLiteralsAsMaps } from './object-literals.js';
import { escapeFieldName, type CelType } from './types.js';

export { schemaType, typeName, escapeFieldName, type CelType, type TypedSchema } from './types.js';

const env = celEnv({ funcs: [...strings, ...KUBERNETES_LIBRARIES.funcs] });

const callCost: CallCost = (name, target, args) => standardCallCost(name, target, args) + (KUBERNETES_LIBRARIES.costs[name]?.(target, args) ?? 0);

export interface CompiledExpression {
  source: string;
  parsed: ParsedExpr;
  /** The variables it refers to (`oldSelf` makes a CRD rule a transition rule). */
  references: Set<string>;
  result: CelType;
  /** The estimated worst-case cost with the declared types' bounds. */
  cost: number;
  run: ReturnType<typeof plan>;
}

/** cel-go's report of one error: where, what, and the source line with a caret under the column. */
function formatError(source: string, offset: number, message: string): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1);
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`;
}

/** The offset of a 1-based line and column in `source`. */
function offsetOf(source: string, line: number, column: number): number {
  const lines = source.split('\n').slice(0, line - 1);
  return lines.reduce((n, l) => n + l.length + 1, 0) + column - 1;
}

/**
 * Compiles `source` with the variables declared: the expression, or cel-go's error text
 * (several errors on separate lines).
 */
export function compileExpression(source: string, variables: Record<string, CelType>, options: { objectLiteralsAsMaps?: boolean } = {}): CompiledExpression | { errors: string } {
  let parsed: ParsedExpr;
  try {
    parsed = parse(source);
  } catch (err) {
    const message = (err as Error).message;
    const at = /^<input>:(\d+):(\d+): (.*)$/s.exec(message);
    // The library's parser has no optional syntax: say so rather than leave a bare syntax error.
    const hint = /\.\?|\[\?/.test(source) ? ' (optional field selection `.?` and `[?` are not supported by this server; use has() and optional.of())' : '';
    if (!at) return { errors: `ERROR: <input>:1:1: Syntax error: ${message}${hint}` };
    return { errors: formatError(source, offsetOf(source, Number(at[1]), Number(at[2])), `Syntax error: ${at[3]}${hint}`) };
  }
  if (options.objectLiteralsAsMaps) objectLiteralsAsMaps(parsed);
  const checked = check(env, KUBERNETES_LIBRARIES, parsed, variables);
  if (checked.errors.length > 0) {
    return { errors: checked.errors.map((e) => formatError(source, e.call ? Math.max(e.offset, source.indexOf('(', e.offset)) : e.offset, e.message)).join('\n') };
  }
  return {
    source,
    parsed,
    references: checked.references,
    result: checked.result,
    cost: estimateCost(parsed.expr, checked.types, callCost),
    run: plan(env, parsed),
  };
}

/** The expression's cost with the variables' actual sizes (from `sizedType`), as charged per request. */
export function runtimeCost(compiled: CompiledExpression, variables: Record<string, CelType>): number {
  const checked = check(env, KUBERNETES_LIBRARIES, compiled.parsed, variables);
  return estimateCost(compiled.parsed.expr, checked.types, callCost);
}

/** `type` with the sizes `value` actually has (the largest at each place), for runtime costs. */
export function sizedType(type: CelType, value: unknown): CelType {
  return largest(type, value === undefined ? [] : [value]);
}

/**
 * The type sized for the largest of several values of it (the items of a list, the values of a
 * map): one pass over the values, whatever their number.
 */
function largest(type: CelType, values: unknown[]): CelType {
  switch (type.kind) {
    case 'string':
    case 'bytes':
      return { ...type, max: values.reduce<number>((n, v) => (typeof v === 'string' && v.length > n ? v.length : n), 0) };
    case 'list': {
      const lists = values.filter(Array.isArray);
      return { ...type, elem: largest(type.elem, lists.flat()), max: lists.reduce((n, l) => Math.max(n, l.length), 0) };
    }
    case 'map': {
      const maps = values.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
      return { ...type, value: largest(type.value, maps.flatMap(Object.values)), max: maps.reduce((n, m) => Math.max(n, Object.keys(m).length), 0) };
    }
    case 'object': {
      const objects = values.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
      const fields: Record<string, CelType> = {};
      for (const [name, field] of Object.entries(type.fields)) {
        const property = unescapedName(name);
        fields[name] = largest(field, objects.map((o) => o[property]).filter((v) => v !== undefined));
      }
      return { ...type, fields };
    }
    default:
      return type;
  }
}

const UNESCAPES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property name behind a CEL field name (`x__dash__y` is `x-y`, `__in__` is `in`). */
function unescapedName(field: string): string {
  const reserved = /^__([a-z]+)__$/.exec(field);
  if (reserved && escapeFieldName(reserved[1]!) === field) return reserved[1]!;
  return field.replace(/__(underscores|dot|dash|slash)__/g, (_m, w: string) => UNESCAPES[w]!);
}

/** Go's duration text (`1h30m`, `250ms`) in milliseconds, or undefined. */
function goDurationMs(s: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const m = /^([-+]?)((?:\d+(?:\.\d*)?(?:ns|us|µs|ms|s|m|h))+)$/.exec(s);
  if (!m) return s === '0' ? 0 : undefined;
  let total = 0;
  for (const [, n, unit] of m[2]!.matchAll(/(\d+(?:\.\d*)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(n) * units[unit!]!;
  return m[1] === '-' ? -total : total;
}

/** A JSON value as the CEL value of `type`: integers as int, formats as timestamps, escaped field names. */
export function toCel(value: unknown, type: CelType): CelInput {
  if (value === undefined && type.kind === 'optional') return [];
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : (value as CelInput);
    case 'timestamp': {
      const ms = typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isNaN(ms) ? (value as CelInput) : timestampFromMs(ms);
    }
    case 'duration': {
      const ms = typeof value === 'string' ? goDurationMs(value) : undefined;
      return ms === undefined ? (value as CelInput) : durationFromMs(ms);
    }
    case 'bytes':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : (value as CelInput);
    case 'list':
      return Array.isArray(value) ? value.map((v) => toCel(v, type.elem)) : (value as CelInput);
    case 'map':
      return typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v, type.value)])) : (value as CelInput);
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return value as CelInput;
      const out: Record<string, CelInput> = {};
      for (const [name, field] of Object.entries(type.fields)) {
        const v = (value as Record<string, unknown>)[unescapedName(name)];
        if (v !== undefined && v !== null) out[name] = toCel(v, field);
      }
      return out;
    }
    case 'optional':
      // An optional is a list of no or one value (optional.ts).
      return [toCel(value, type.elem)];
    case 'dyn':
      if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
      if (Array.isArray(value)) return value.map((v) => toCel(v, type));
      if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v, type)]));
      return value as CelInput;
    default:
      return value as CelInput;
  }
}

/** cel-go's wording of the runtime errors whose text differs. */
function kubeErrorText(message: string): string {
  const missing = /^field not found: (.*)$/.exec(message);
  return missing ? `no such key: ${missing[1]}` : message;
}

/** Runs a compiled expression: its value, or the error it stopped with. */
export function evaluate(compiled: CompiledExpression, variables: Record<string, CelInput>): { value: unknown } | { error: string } {
  const value = compiled.run(variables);
  if (isCelError(value)) return { error: kubeErrorText(value.message) };
  return { value };
}

/** Whether the type is (or may be, as dyn) a `want`. */
export function mayBe(type: CelType, want: 'bool' | 'string'): boolean {
  return type.kind === want || type.kind === 'dyn';
}


/**
 * A CEL value as JSON (what a mutation's expression yields): maps as objects, lists as arrays,
 * ints as numbers, bytes as base64; undefined for what JSON cannot hold (types, errors).
 */
export function celToJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (isCelUint(value)) return Number(value.value);
  if (isCelList(value)) return [...value].map(celToJson);
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = celToJson(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(celToJson);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = celToJson(v);
    return out;
  }
  return undefined;
}
