/**
 * CEL validation rules of a CRD schema (`x-kubernetes-validations`), as kube-apiserver compiles
 * them when a CRD is written (`apiextensions/validation`: rule checks, compile errors, estimated
 * cost per rule and per schema) and evaluates them on every custom resource write
 * (`apiserver/schema/cel/validation.go`): `self` and, for transition rules, `oldSelf` where the old
 * value correlates (object properties, map keys, list-map keys), messages and message
 * expressions, reasons and field paths, the runtime cost budget, and ratcheting (an unchanged
 * value is not refused by a rule it already broke).
 */
import { isDeepStrictEqual } from 'node:util';
import { compileExpression, evaluate, mayBe, runtimeCost, schemaType, sizedType, toCel, escapeFieldName, type CelType, type CompiledExpression } from '../../cel/index.js';
import { fieldErrors, type FieldError, type FieldErrorType } from '../../registry/field-error.js';
import { child, index, key } from '../../validation/field-path.js';
import type { CustomResourceDefinitionVersion, JSONSchemaProps } from './types.js';

/** kube's `StaticEstimatedCostLimit`: a rule's estimated cost, times how often it runs, at most. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** kube's `StaticEstimatedCRDCostLimit`: all rules of a schema together. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** kube's `PerCallLimit`: one evaluation of one rule. */
export const PER_CALL_LIMIT = 1_000_000;
/**
 * Every rule evaluated for one request. kube's `RuntimeCELCostBudget` is 10,000,000 ("roughly 1
 * second" for cel-go, on a goroutine); ours run on the event loop, so the budget is kube's
 * per-call limit: spending all of it took ~100 ms once the evaluator was warm (docs/architecture.md).
 */
export const RUNTIME_COST_BUDGET = 1_000_000;

const REASONS: FieldErrorType[] = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

interface CompiledRule {
  rule: ValidationRule;
  program: CompiledExpression;
  message?: CompiledExpression;
  usesOldSelf: boolean;
  /** The fieldPath, relative, as kube prints it (`spec.x`, `map[key]`). */
  fieldPath?: string;
}

/** The rules of one schema node and of the nodes below it that have rules. */
export interface RuleNode {
  type: CelType;
  /** The schema's type, as error values show it (`Invalid value: "object"`). */
  schemaType: string;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  additional?: RuleNode;
  items?: RuleNode;
  /** Keys of a `map` list, whose items correlate with the old list's by them. */
  listMapKeys?: string[];
}

export interface CompiledRules {
  root?: RuleNode;
  errors: FieldError[];
}

const rulesOf = (schema: JSONSchemaProps): ValidationRule[] => (Array.isArray(schema['x-kubernetes-validations']) ? (schema['x-kubernetes-validations'] as ValidationRule[]) : []);
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** kube's `getCostErrorMessage`. */
function costErrorMessage(name: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** A rule as Go's `%#v` prints the internal ValidationRule in field errors. */
function goRule(rule: ValidationRule): string {
  const reason = rule.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${JSON.stringify(rule.reason)})`;
  const optional = rule.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${rule.optionalOldSelf})`;
  return `apiextensions.ValidationRule{Rule:${JSON.stringify(rule.rule ?? '')}, Message:${JSON.stringify(rule.message ?? '')}, MessageExpression:${JSON.stringify(rule.messageExpression ?? '')}, Reason:${reason}, FieldPath:${JSON.stringify(rule.fieldPath ?? '')}, OptionalOldSelf:${optional}}`;
}

const invalidRule = (field: string, rule: ValidationRule, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, message: `Invalid value: ${goRule(rule)}: ${detail}` });

/** Kubernetes' unescaping of a single-quoted fieldPath key (`['a.b']`). */
function unquote(s: string): string | undefined {
  let ok = true;
  const out = s.replace(/\\(.)/g, (_m, c: string) => {
    const known: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    if (known[c] === undefined) ok = false;
    return known[c] ?? '';
  });
  return ok ? out : undefined;
}

/**
 * kube's `ValidFieldPath`: a path of `.field` and `['key']` steps into the schema, as the field
 * path it names (`spec.x`, `map[key]`), or undefined when it is not one.
 */
export function validFieldPath(path: string, schema: JSONSchemaProps): string | undefined {
  const steps = path.match(/'(?:[^'\\]|\\.)*'|[.[\]]|[^.[\]']+/g) ?? [];
  let at: JSONSchemaProps | undefined = schema;
  let out = '';
  for (let i = 0; i < steps.length; i++) {
    const delimiter = steps[i];
    let name: string | undefined;
    if (delimiter === '.') name = steps[++i];
    else if (delimiter === '[') {
      const quoted = steps[++i];
      if (!quoted || quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'") || steps[++i] !== ']') return undefined;
      name = unquote(quoted.slice(1, -1));
    } else return undefined;
    if (name === undefined || !at) return undefined;
    if (at.properties) {
      at = at.properties[name];
      if (!at) return undefined;
      out = child(out, name);
    } else if (typeof at.additionalProperties === 'object') {
      at = at.additionalProperties;
      out = key(out, name);
    } else return undefined;
  }
  return out;
}

/** Checks of a rule's own fields, before it is compiled (kube's SchemaErrors). */
function ruleFieldErrors(rule: ValidationRule, path: string, schema: JSONSchemaProps): FieldError[] {
  const errors: FieldError[] = [];
  const trimmedRule = (rule.rule ?? '').trim();
  const trimmedMessage = (rule.message ?? '').trim();
  if (trimmedRule === '') errors.push(fieldErrors.required(child(path, 'rule'), 'rule is not specified'));
  else if (rule.message && trimmedMessage === '') errors.push(fieldErrors.invalid(child(path, 'message'), rule.message, 'message must be non-empty if specified'));
  else if (hasNewlines(trimmedMessage)) errors.push(fieldErrors.invalid(child(path, 'message'), rule.message, 'message must not contain line breaks'));
  else if (hasNewlines(trimmedRule) && trimmedMessage === '') errors.push(fieldErrors.required(child(path, 'message'), 'message must be specified if rule contains line breaks'));
  if (rule.messageExpression !== undefined && rule.messageExpression !== '' && rule.messageExpression.trim() === '') {
    errors.push(fieldErrors.required(child(path, 'messageExpression'), 'messageExpression must be non-empty if specified'));
  }
  if (rule.reason !== undefined && !REASONS.includes(rule.reason as FieldErrorType)) errors.push(fieldErrors.notSupported(child(path, 'reason'), rule.reason, REASONS));
  const fieldPath = rule.fieldPath ?? '';
  if (fieldPath !== '' && fieldPath.trim() === '') errors.push(fieldErrors.invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
  if (hasNewlines(fieldPath)) errors.push(fieldErrors.invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
  if (fieldPath !== '' && validFieldPath(fieldPath, schema) === undefined) errors.push(fieldErrors.invalid(child(path, 'fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  return errors;
}

interface Observed {
  path: string;
  cost: number;
}

class RuleCompiler {
  readonly errors: FieldError[] = [];
  readonly costs: Observed[] = [];

  /**
   * The rules at and below `schema` (of CEL type `type`), evaluated up to `cardinality` times per
   * object; `uncorrelatable` is the list above that gives them no oldSelf, if any.
   */
  node(schema: JSONSchemaProps, type: CelType, path: string, cardinality: number, uncorrelatable: string | undefined): RuleNode | undefined {
    const properties = new Map<string, RuleNode>();
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      const field = escapeFieldName(name);
      const subType = type.kind === 'object' && field ? type.fields[field] : undefined;
      const node = this.node(sub, subType ?? schemaType(sub), key(child(path, 'properties'), name), cardinality, uncorrelatable);
      if (node) properties.set(name, node);
    }
    let additional: RuleNode | undefined;
    if (typeof schema.additionalProperties === 'object') {
      const valueType = type.kind === 'map' ? type.value : schemaType(schema.additionalProperties);
      additional = this.node(schema.additionalProperties, valueType, child(path, 'additionalProperties'), cardinality * (type.kind === 'map' ? type.max : 1), uncorrelatable);
    }
    let items: RuleNode | undefined;
    const itemSchema = schema.items && !Array.isArray(schema.items) ? schema.items : undefined;
    const listType = schema['x-kubernetes-list-type'];
    if (itemSchema) {
      const itemsPath = child(path, 'items');
      const elem = type.kind === 'list' ? type.elem : schemaType(itemSchema);
      items = this.node(itemSchema, elem, itemsPath, cardinality * (type.kind === 'list' ? type.max : 1), listType === 'map' ? uncorrelatable : (uncorrelatable ?? itemsPath));
    }
    const rules = this.rules(schema, type, path, cardinality, uncorrelatable);
    if (rules.length === 0 && properties.size === 0 && !additional && !items) return undefined;
    return {
      type,
      schemaType: schema.type ?? '',
      rules,
      properties,
      ...(additional ? { additional } : {}),
      ...(items ? { items } : {}),
      ...(listType === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys']) ? { listMapKeys: schema['x-kubernetes-list-map-keys'] as string[] } : {}),
    };
  }

  private rules(schema: JSONSchemaProps, type: CelType, path: string, cardinality: number, uncorrelatable: string | undefined): CompiledRule[] {
    const rules = rulesOf(schema);
    const validationsPath = child(path, 'x-kubernetes-validations');
    const fieldErrs = rules.flatMap((rule, i) => ruleFieldErrors(rule, index(validationsPath, i), schema));
    if (fieldErrs.length > 0) {
      this.errors.push(...fieldErrs);
      return [];
    }
    const variables = { self: type, oldSelf: type };
    const compiled: CompiledRule[] = [];
    rules.forEach((rule, i) => {
      const rulePath = index(validationsPath, i);
      // With optionalOldSelf, oldSelf is an optional, empty on create (and the rule runs then too).
      const program = compileExpression(rule.rule!, rule.optionalOldSelf === true ? { self: type, oldSelf: { kind: 'optional', elem: type } } : variables);
      if ('errors' in program) {
        this.errors.push(invalidRule(child(rulePath, 'rule'), rule, `compilation failed: ${program.errors}`));
        return;
      }
      this.observe(child(rulePath, 'rule'), program.cost * cardinality, 'estimated rule cost');
      if (!mayBe(program.result, 'bool')) this.errors.push(invalidRule(child(rulePath, 'rule'), rule, 'cel expression must evaluate to a bool'));
      const usesOldSelf = program.references.has('oldSelf');
      if (usesOldSelf && uncorrelatable) this.errors.push(fieldErrors.invalid(child(rulePath, 'rule'), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
      if (!usesOldSelf && rule.optionalOldSelf !== undefined) this.errors.push(fieldErrors.invalid(child(rulePath, 'optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      let message: CompiledExpression | undefined;
      if (rule.messageExpression) {
        const compiledMessage = compileExpression(rule.messageExpression, variables);
        if ('errors' in compiledMessage) this.errors.push(invalidRule(child(rulePath, 'messageExpression'), rule, `messageExpression compilation failed: ${compiledMessage.errors}`));
        else if (!mayBe(compiledMessage.result, 'string')) this.errors.push(invalidRule(child(rulePath, 'messageExpression'), rule, 'must evaluate to a string'));
        else {
          message = compiledMessage;
          this.observe(child(rulePath, 'messageExpression'), compiledMessage.cost * cardinality, 'estimated messageExpression cost');
        }
      }
      const fieldPath = rule.fieldPath ? validFieldPath(rule.fieldPath, schema) : undefined;
      compiled.push({ rule, program, usesOldSelf, ...(message ? { message } : {}), ...(fieldPath ? { fieldPath } : {}) });
    });
    return compiled;
  }

  private observe(path: string, cost: number, name: string): void {
    if (cost > STATIC_ESTIMATED_COST_LIMIT) this.errors.push(fieldErrors.forbidden(path, costErrorMessage(name, cost, STATIC_ESTIMATED_COST_LIMIT)));
    this.costs.push({ path, cost });
  }

  /** kube's total for the schema: over the limit, the dearest rules are named and the total refused. */
  totalErrors(schemaPath: string): FieldError[] {
    const total = this.costs.reduce((n, c) => n + c.cost, 0);
    if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    // The four dearest, of those above 1% of the limit.
    const dearest = this.costs.filter((c) => c.cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100).sort((a, b) => b.cost - a.cost).slice(0, 4);
    return [
      ...dearest.map((c) => fieldErrors.forbidden(c.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
      fieldErrors.forbidden(schemaPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT)),
    ];
  }
}

/**
 * Where kube-apiserver reports the rules of version `i`: `spec.validation.openAPIV3Schema` when
 * every version has the same schema (its internal version holds one), else the version's own.
 */
export function ruleSchemaPath(versions: CustomResourceDefinitionVersion[], i: number): string {
  const first = versions[0]?.schema?.openAPIV3Schema;
  const shared = versions.every((v) => isDeepStrictEqual(v.schema?.openAPIV3Schema, first));
  return shared ? 'spec.validation.openAPIV3Schema' : `spec.versions[${i}].schema.openAPIV3Schema`;
}

/** Compiled rules the served kinds hold, with how many hold them. */
const cache = new Map<string, { rules: CompiledRules; holders: number }>();

const cacheKeyOf = (schema: JSONSchemaProps, path: string): string => `${path}\n${JSON.stringify(schema)}`;

function compile(schema: JSONSchemaProps, path: string): CompiledRules {
  const compiler = new RuleCompiler();
  const root = compiler.node(schema, schemaType(schema, true), path, 1, undefined);
  return { ...(root ? { root } : {}), errors: [...compiler.errors, ...compiler.totalErrors(path)] };
}

/**
 * The rules of a version's schema compiled, with the errors kube-apiserver reports for them at
 * `path` (the schema's path in the CRD): the served kinds' compilation when one holds it, else a
 * fresh one that is not kept (validating a CRD nobody serves must not grow the cache).
 */
export function compileRules(schema: JSONSchemaProps, path: string): CompiledRules {
  return cache.get(cacheKeyOf(schema, path))?.rules ?? compile(schema, path);
}

/**
 * The rules for a served kind, shared by every kind holding the same schema at the same path
 * until each has called `releaseRules`.
 */
export function retainRules(schema: JSONSchemaProps, path: string): CompiledRules {
  const cacheKey = cacheKeyOf(schema, path);
  let entry = cache.get(cacheKey);
  if (!entry) cache.set(cacheKey, (entry = { rules: compile(schema, path), holders: 0 }));
  entry.holders += 1;
  return entry.rules;
}

export function releaseRules(schema: JSONSchemaProps, path: string): void {
  const cacheKey = cacheKeyOf(schema, path);
  const entry = cache.get(cacheKey);
  if (entry && --entry.holders <= 0) cache.delete(cacheKey);
}

/** How many compiled rule sets are held (for tests). */
export function heldRuleSets(): number {
  return cache.size;
}

/** The root of a custom resource as kube-apiserver names it in field errors. */
const ROOT = '<nil>';

class RuleEvaluator {
  readonly errors: FieldError[] = [];
  remaining = RUNTIME_COST_BUDGET;

  /** False once the budget is spent: no further rules run. */
  walk(node: RuleNode, value: unknown, old: unknown, path: string, ratchet: boolean): boolean {
    if (value === null || value === undefined) return true;
    const unchanged = old !== undefined ? isDeepStrictEqual(value, old) : ratchet;
    if (node.rules.length > 0 && !this.evaluateRules(node, value, old, path, unchanged)) return false;
    if (Array.isArray(value) && node.items) {
      const oldItems = node.listMapKeys && Array.isArray(old) ? listMapIndex(old, node.listMapKeys) : undefined;
      for (let i = 0; i < value.length; i++) {
        const oldItem = oldItems?.get(listMapKey(value[i], node.listMapKeys!));
        if (!this.walk(node.items, value[i], oldItem, index(path, i), oldItems ? false : unchanged)) return false;
      }
    } else if (typeof value === 'object' && !Array.isArray(value)) {
      const object = value as Record<string, unknown>;
      const oldObject = old !== null && typeof old === 'object' && !Array.isArray(old) ? (old as Record<string, unknown>) : undefined;
      for (const [name, sub] of node.properties) {
        if (!this.walk(sub, object[name], oldObject?.[name], child(path, name), unchanged)) return false;
      }
      if (node.additional) {
        for (const [name, v] of Object.entries(object)) if (!this.walk(node.additional, v, oldObject?.[name], key(path, name), unchanged)) return false;
      }
    }
    return true;
  }

  private evaluateRules(node: RuleNode, value: unknown, old: unknown, path: string, unchanged: boolean): boolean {
    const here = path || ROOT;
    const invalid = (field: string, detail: string): FieldError => fieldErrors.invalid(field, node.schemaType, detail);
    if (this.remaining <= 0) {
      this.errors.push(invalid(here, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      return false;
    }
    const sizes = { self: sizedType(node.type, value), oldSelf: sizedType(node.type, old) };
    const variables = { self: toCel(value, node.type), oldSelf: old === undefined ? null : toCel(old, node.type) };
    for (const compiled of node.rules) {
      const optionalOldSelf = compiled.rule.optionalOldSelf === true;
      if (compiled.usesOldSelf && old === undefined && !optionalOldSelf) continue;
      const ruleText = (compiled.rule.message ?? '').trim() || (compiled.rule.rule ?? '').trim();
      const cost = runtimeCost(compiled.program, optionalOldSelf ? { ...sizes, oldSelf: { kind: 'optional', elem: sizes.oldSelf } } : sizes);
      if (cost > PER_CALL_LIMIT) {
        this.errors.push(invalid(here, `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText}`));
        return false;
      }
      if (cost > this.remaining) {
        this.errors.push(invalid(here, 'validation failed due to running out of cost budget, no further validation rules will be run'));
        return false;
      }
      this.remaining -= cost;
      const result = evaluate(compiled.program, optionalOldSelf ? { ...variables, oldSelf: old === undefined ? [] : [variables.oldSelf] } : variables);
      if ('error' in result) {
        const detail = result.error.startsWith('no such overload') || result.error.startsWith('found no matching overload')
          ? `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`
          : `${result.error} evaluating rule: ${ruleText}`;
        this.errors.push(invalid(here, detail));
        continue;
      }
      if (result.value === true) continue;
      // Ratcheting: a value that did not change is not refused by a rule that does not look at the old one.
      if (!compiled.usesOldSelf && unchanged) continue;
      const field = compiled.fieldPath ? (compiled.fieldPath.startsWith('[') ? path + compiled.fieldPath : child(path, compiled.fieldPath)) : here;
      const detail = this.message(compiled, variables, sizes) ?? ((compiled.rule.message ?? '').trim() || `failed rule: ${ruleText}`);
      this.errors.push(ruleError(field, node.schemaType, detail, compiled.rule.reason));
    }
    return true;
  }

  /** The messageExpression's text, if it gives a usable one (kube then falls back to the message). */
  private message(compiled: CompiledRule, variables: Record<string, ReturnType<typeof toCel>>, sizes: Record<string, CelType>): string | undefined {
    if (!compiled.message) return undefined;
    const cost = runtimeCost(compiled.message, sizes);
    if (cost > this.remaining) return undefined;
    this.remaining -= cost;
    const result = evaluate(compiled.message, variables);
    if ('error' in result || typeof result.value !== 'string') return undefined;
    const text = result.value.trim();
    return text === '' || text.length > 5120 || hasNewlines(text) ? undefined : text;
  }
}

/** kube's `fieldErrorForReason`. */
function ruleError(field: string, schemaTypeText: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(field, detail);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(field, schemaTypeText);
    default:
      return fieldErrors.invalid(field, schemaTypeText, detail);
  }
}

function listMapKey(item: unknown, keys: string[]): string {
  const object = (item ?? {}) as Record<string, unknown>;
  return JSON.stringify(keys.map((k) => object[k] ?? null));
}

function listMapIndex(items: unknown[], keys: string[]): Map<string, unknown> {
  return new Map(items.map((item) => [listMapKey(item, keys), item]));
}

/**
 * The rules' failures for a custom resource being written (`old` on update), within the runtime
 * cost budget.
 */
export function evaluateRules(rules: CompiledRules, obj: unknown, old: unknown): FieldError[] {
  if (!rules.root) return [];
  const evaluator = new RuleEvaluator();
  evaluator.walk(rules.root, obj, old, '', false);
  return evaluator.errors;
}
