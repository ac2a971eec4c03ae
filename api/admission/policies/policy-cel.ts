/**
 * The CEL environment of admission policies (kube's `plugin/cel` compiler): the variables
 * `object`, `oldObject`, `request`, `namespaceObject`, `authorizer` (checks of what the requester
 * may do in its space, `cel/authorizer.ts`), `params` (when the policy has a paramKind) and
 * `variables` (the policy's own, each seeing those before it). Objects are typed `dyn`, so
 * expressions compile whatever kinds the policy matches.
 *
 * @example
 *   const c = compilePolicyExpression('object.spec.replicas <= 5', { hasParams: false, variables: [] }, 'bool');
 *   if ('error' in c) fieldErrors.invalid(path, expression, c.error);   // 'compilation failed: ERROR: <input>:…'
 */
import { AUTHORIZER_TYPE } from '../../cel/authorizer.js';
import { compileExpression, type CompiledExpression } from '../../cel/index.js';
import { DYN, escapeFieldName, MAX_REQUEST_SIZE_BYTES, type CelType } from '../../cel/types.js';

export interface PolicyCelOptions {
  hasParams: boolean;
  /** The names of the variables declared before the expression (all of them for validations). */
  variables: readonly string[];
  /** Mutations build objects (`Object{…}`, `JSONPatch{…}`), read as maps (see cel/object-literals.ts). */
  objectLiterals?: boolean;
}

/** What the expression must evaluate to (kube: bool for conditions, string for messages). */
export type ExpectedResult = 'bool' | 'string' | 'any';

/** The declared variables of a policy expression. */
export function policyVariables(opts: PolicyCelOptions): Record<string, CelType> {
  const vars: Record<string, CelType> = { object: DYN, oldObject: DYN, request: DYN, namespaceObject: DYN, authorizer: AUTHORIZER_TYPE };
  if (opts.hasParams) vars['params'] = DYN;
  const fields: Record<string, CelType> = {};
  for (const name of opts.variables) fields[name] = DYN;
  vars['variables'] = { kind: 'object', name: 'kubernetes.variables', fields, max: MAX_REQUEST_SIZE_BYTES };
  return vars;
}

/** Compiles a policy expression: the program, or kube's detail of why not (`compilation failed: …`). */
export function compilePolicyExpression(source: string, opts: PolicyCelOptions, expected: ExpectedResult): CompiledExpression | { error: string } {
  const compiled = compileExpression(source, policyVariables(opts), { objectLiteralsAsMaps: opts.objectLiterals === true });
  if ('errors' in compiled) return { error: `compilation failed: ${compiled.errors}` };
  const kind = compiled.result.kind;
  if (expected !== 'any' && kind !== expected && kind !== 'dyn') return { error: `cel expression must evaluate to ${expected}` };
  return compiled;
}

/** Whether `name` is a CEL identifier (kube's isCELIdentifier: a letter or underscore, then letters, digits, underscores; no reserved word). */
export function isCelIdentifier(name: string): boolean {
  const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !reserved.has(name);
}

/**
 * The CEL type of actual values, with their sizes (list lengths, string lengths), for the runtime
 * cost of an expression over them: objects as object types with the fields they have, lists with
 * their items' merged type. Values of different kinds at one place are `dyn`.
 */
export function valueType(values: readonly unknown[]): CelType {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return DYN;
  if (present.every((v) => typeof v === 'string')) return { kind: 'string', max: Math.max(...present.map((v) => (v as string).length)) };
  if (present.every((v) => typeof v === 'boolean')) return { kind: 'bool' };
  if (present.every((v) => typeof v === 'number')) return { kind: present.every((v) => Number.isInteger(v)) ? 'int' : 'double' };
  if (present.every(Array.isArray)) {
    const lists = present as unknown[][];
    return { kind: 'list', elem: valueType(lists.flat()), max: Math.max(...lists.map((l) => l.length)) };
  }
  if (present.every((v) => typeof v === 'object' && !Array.isArray(v))) {
    const objects = present as Array<Record<string, unknown>>;
    const names = new Set(objects.flatMap((o) => Object.keys(o)));
    const fields: Record<string, CelType> = {};
    for (const name of names) {
      const field = escapeFieldName(name);
      if (field) fields[field] = valueType(objects.map((o) => o[name]));
    }
    return { kind: 'object', name: 'object', fields, max: names.size };
  }
  return DYN;
}
