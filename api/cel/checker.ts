/**
 * A type checker for parsed CEL, which `@bufbuild/cel` does not have yet: identifiers and fields
 * are resolved against the declared variables and the schema's types, calls against the
 * environment's function overloads (the library's own and ours), with cel-go's messages
 * (`undeclared reference to 'foo' (in container '')`, `undefined field 'foo'`,
 * `found no matching overload for '_+_' applied to '(int, string)'`). Types the library's
 * signatures leave open (`dyn`) stay open, and such calls are checked when they run.
 */
import type { CelEnv, CelType as LibType, parse } from '@bufbuild/cel';
import type { Library } from './declare.js';
import { BOOL, DYN, INT, STRING, typeName, type CelType, type ScalarKind } from './types.js';

export type ParsedExpr = ReturnType<typeof parse>;
export type Expr = NonNullable<ParsedExpr['expr']>;

export interface CheckError {
  /** Offset in the source. */
  offset: number;
  message: string;
  /** Whether it is about a named call, which cel-go reports at its opening parenthesis. */
  call?: boolean;
}

export interface Checked {
  /** The type of every expression node, by id. */
  types: Map<bigint, CelType>;
  /** The variables the expression refers to. */
  references: Set<string>;
  errors: CheckError[];
  result: CelType;
}

/** Operators and macros the evaluator handles itself rather than through its function table. */
const BUILT_IN_RESULTS: Record<string, (args: CelType[]) => CelType | undefined> = {
  '_&&_': () => BOOL,
  '_||_': () => BOOL,
  '@not_strictly_false': () => BOOL,
  '_?_:_': ([, a, b]) => (a && b && typeName(a) === typeName(b) ? a : DYN),
  '_[_]': ([c]) => (c?.kind === 'list' ? c.elem : c?.kind === 'map' ? c.value : DYN),
  '@in': () => BOOL,
};

function libKind(t: LibType): string {
  if (t.kind === 'scalar') return t.scalar;
  if (t.kind === 'object') return t.name === 'google.protobuf.Timestamp' ? 'timestamp' : t.name === 'google.protobuf.Duration' ? 'duration' : t.name;
  return t.kind;
}

/** Whether an argument of type `arg` may be passed where the library declares `param`. */
function fits(param: LibType, arg: CelType): boolean {
  if (arg.kind === 'dyn' || (param.kind === 'scalar' && param.scalar === 'dyn')) return true;
  switch (param.kind) {
    case 'list':
      return arg.kind === 'list' && fits(param.element, arg.elem);
    case 'map':
      if (arg.kind === 'object') return fits(param.key, STRING);
      return arg.kind === 'map' && fits(param.key, arg.key) && fits(param.value, arg.value);
    default:
      return libKind(param) === arg.kind;
  }
}

/** The library's result type as ours; lists keep the argument's element type where the library says dyn. */
function fromLib(t: LibType, target: CelType | undefined, args: CelType[]): CelType {
  switch (t.kind) {
    case 'list': {
      const elem = fromLib(t.element, undefined, []);
      const like = [target, ...args].find((a) => a?.kind === 'list');
      return { kind: 'list', elem: elem.kind === 'dyn' && like?.kind === 'list' ? like.elem : elem, max: like?.kind === 'list' ? like.max : 1 };
    }
    case 'map':
      return { kind: 'map', key: fromLib(t.key, undefined, []), value: fromLib(t.value, undefined, []), max: 1 };
    default:
      return { kind: libKind(t) as ScalarKind };
  }
}

/** Whether values of the two types may be compared (dyn, anywhere inside, fits all). */
function assignable(a: CelType, b: CelType): boolean {
  if (a.kind === 'dyn' || b.kind === 'dyn') return true;
  if (a.kind === 'list' && b.kind === 'list') return assignable(a.elem, b.elem);
  if (a.kind === 'map' && b.kind === 'map') return assignable(a.key, b.key) && assignable(a.value, b.value);
  return typeName(a) === typeName(b);
}

const scalarType = (kind: ScalarKind): CelType => ({ kind });

class Checker {
  readonly types = new Map<bigint, CelType>();
  readonly references = new Set<string>();
  readonly errors: CheckError[] = [];
  private scopes: Array<Map<string, CelType>> = [];

  constructor(
    private readonly env: CelEnv,
    private readonly library: Library,
    private readonly variables: Record<string, CelType>,
    private readonly positions: Record<string, number>,
  ) {}

  private fail(expr: Expr, message: string, call = false): CelType {
    this.errors.push({ offset: this.positions[String(expr.id)] ?? 0, message, ...(call ? { call } : {}) });
    return DYN;
  }

  check(expr: Expr): CelType {
    const t = this.checkKind(expr);
    this.types.set(expr.id, t);
    return t;
  }

  private lookup(name: string): CelType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i]!.get(name);
      if (t) return t;
    }
    const t = this.variables[name];
    if (t) this.references.add(name);
    return t;
  }

  private checkKind(expr: Expr): CelType {
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'constExpr': {
        const c = kind.value.constantKind.case;
        const kinds: Record<string, ScalarKind> = { boolValue: 'bool', int64Value: 'int', uint64Value: 'uint', doubleValue: 'double', stringValue: 'string', bytesValue: 'bytes', nullValue: 'null_type' };
        return scalarType(kinds[c ?? ''] ?? 'dyn');
      }
      case 'identExpr': {
        const t = this.lookup(kind.value.name);
        return t ?? this.fail(expr, `undeclared reference to '${kind.value.name}' (in container '')`);
      }
      case 'selectExpr': {
        const operand = kind.value.operand ? this.check(kind.value.operand) : DYN;
        const field = kind.value.field;
        let t: CelType;
        if (operand.kind === 'object') t = operand.fields[field] ?? this.fail(expr, `undefined field '${field}'`);
        else if (operand.kind === 'map') t = operand.value;
        else if (operand.kind === 'dyn') t = DYN;
        else t = this.fail(expr, `type '${typeName(operand)}' does not support field selection`);
        return kind.value.testOnly ? BOOL : t;
      }
      case 'callExpr':
        return this.checkCall(expr, kind.value.function, kind.value.target, kind.value.args);
      case 'listExpr': {
        const elems = kind.value.elements.map((e) => this.check(e));
        const first = elems[0];
        const same = first !== undefined && elems.every((e) => typeName(e) === typeName(first));
        return { kind: 'list', elem: same ? first : DYN, max: elems.length };
      }
      case 'structExpr': {
        const entries = kind.value.entries;
        if (kind.value.messageName) return this.fail(expr, `undeclared reference to '${kind.value.messageName}' (in container '')`);
        const keys: CelType[] = [];
        const values: CelType[] = [];
        for (const entry of entries) {
          if (entry.keyKind.case === 'mapKey') keys.push(this.check(entry.keyKind.value));
          if (entry.value) values.push(this.check(entry.value));
        }
        const join = (ts: CelType[]): CelType => (ts.length > 0 && ts.every((t) => typeName(t) === typeName(ts[0]!)) ? ts[0]! : DYN);
        return { kind: 'map', key: join(keys), value: join(values), max: entries.length };
      }
      case 'comprehensionExpr': {
        const c = kind.value;
        const range = c.iterRange ? this.check(c.iterRange) : DYN;
        const iter = range.kind === 'list' ? range.elem : range.kind === 'map' ? range.key : range.kind === 'dyn' ? DYN : this.fail(c.iterRange!, `expression of type '${typeName(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        const accu = c.accuInit ? this.check(c.accuInit) : DYN;
        this.scopes.push(new Map([[c.accuVar, accu]]));
        if (c.iterVar) this.scopes.push(new Map([[c.iterVar, iter]]));
        if (c.loopCondition) this.check(c.loopCondition);
        if (c.loopStep) this.check(c.loopStep);
        if (c.iterVar) this.scopes.pop();
        const result = c.result ? this.check(c.result) : DYN;
        this.scopes.pop();
        // map() builds a list of its step's values: keep the range's bound on its size.
        return result.kind === 'list' && range.kind === 'list' ? { ...result, max: range.max } : result;
      }
      default:
        return DYN;
    }
  }

  private checkCall(expr: Expr, name: string, targetExpr: Expr | undefined, argExprs: Expr[]): CelType {
    // A qualified function name (`optional.of`) parses as a call on an identifier that is no variable.
    if (targetExpr?.exprKind.case === 'identExpr') {
      const ident = targetExpr.exprKind.value.name;
      const qualified = `${ident}.${name}`;
      const isVariable = this.scopes.some((s) => s.has(ident)) || ident in this.variables;
      if (!isVariable && (this.library.declarations[qualified] || this.env.funcs.find(qualified))) return this.checkCall(expr, qualified, undefined, argExprs);
    }
    const target = targetExpr ? this.check(targetExpr) : undefined;
    const args = argExprs.map((a) => this.check(a));
    // Equality takes two values of one type (numbers of different types are not equal at compile time).
    if ((name === '_==_' || name === '_!=_') && !args.some((a) => a.kind === 'null_type') && !assignable(args[0]!, args[1]!)) {
      return this.fail(expr, `found no matching overload for '${name}' applied to '(${args.map(typeName).join(', ')})'`);
    }
    const builtIn = BUILT_IN_RESULTS[name];
    if (builtIn && !target) return builtIn(args) ?? DYN;
    const declared = this.library.declarations[name]?.(target, args);
    if (declared) return declared;
    const group = this.env.funcs.find(name);
    if (!group) return this.fail(expr, `undeclared reference to '${name}' (in container '')`, true);
    const ownFuncs = new Set(this.library.funcs);
    const matching = [...group].filter(
      (f) =>
        (!this.library.declarations[name] || !ownFuncs.has(f)) && (f.target === undefined) === (target === undefined) && (!f.target || fits(f.target, target!)) && f.arguments.length === args.length && f.arguments.every((p, i) => fits(p, args[i]!)),
    );
    if (matching.length === 0) {
      const list = `(${args.map(typeName).join(', ')})`;
      return this.fail(expr, `found no matching overload for '${name}' applied to '${target ? `${typeName(target)}.${list}` : list}'`, /^[a-zA-Z]/.test(name));
    }
    const results = matching.map((f) => fromLib(f.result, target, args));
    const first = results[0]!;
    if (!results.every((r) => typeName(r) === typeName(first))) return DYN;
    // Arithmetic on sized values keeps a size (string and list concatenation add up).
    if (name === '_+_' && (first.kind === 'string' || first.kind === 'list')) return { ...first, max: args.reduce((n, a) => n + ('max' in a && a.max !== undefined ? a.max : 0), 0) } as CelType;
    return first.kind === 'int' && name === 'size' ? INT : first;
  }
}

/** Checks `parsed` with the variables declared; errors carry offsets into the source. */
export function check(env: CelEnv, library: Library, parsed: ParsedExpr, variables: Record<string, CelType>): Checked {
  const positions: Record<string, number> = {};
  for (const [id, offset] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = offset;
  const checker = new Checker(env, library, variables, positions);
  const result = parsed.expr ? checker.check(parsed.expr) : DYN;
  return { types: checker.types, references: checker.references, errors: checker.errors, result };
}
