/**
 * Running a policy's CEL expressions against one request (kube's `plugin/cel` filter and
 * `matchconditions` matcher): the inputs converted once, variables evaluated in order, match
 * conditions, and every expression charged its runtime cost against the evaluation's budget
 * (kube's per-call limit and runtime budget, see cel-rules.ts for why ours is smaller).
 */
import type { CelInput } from '@bufbuild/cel';
import { AUTHORIZER_ROOT, AUTHORIZER_TYPE, withAuthorizer, type AuthorizerContext } from '../../cel/authorizer.js';
import { evaluate, runtimeCost, toCel, type CompiledExpression } from '../../cel/index.js';
import { DYN, type CelType } from '../../cel/types.js';
import { PER_CALL_LIMIT, RUNTIME_COST_BUDGET } from '../../kinds/apiextensions/cel-rules.js';
import type { MatchCondition, Variable } from '../../kinds/admissionregistration/policy-types.js';
import { compilePolicyExpression, valueType, type ExpectedResult, type PolicyCelOptions } from './policy-cel.js';

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** An expression compiled once per policy version: its program, or why it does not compile. */
export interface PolicyExpression {
  source: string;
  program?: CompiledExpression;
  error?: string;
}

export function compileOne(source: string, opts: PolicyCelOptions, expected: ExpectedResult): PolicyExpression {
  const compiled = compilePolicyExpression(source, opts, expected);
  return 'error' in compiled ? { source, error: compiled.error } : { source, program: compiled };
}

/** What is compiled of every policy: match conditions and variables. */
export interface CompiledCommon {
  hasParams: boolean;
  matchConditions: Array<{ name: string; expr: PolicyExpression }>;
  variables: Array<{ name: string; expr: PolicyExpression }>;
}

export function compileCommon(spec: { paramKind?: unknown; matchConditions?: MatchCondition[]; variables?: Variable[] }): CompiledCommon {
  const hasParams = spec.paramKind != null;
  const before: string[] = [];
  const variables = (spec.variables ?? []).map((v) => {
    const compiled = { name: v.name ?? '', expr: compileOne(v.expression ?? '', { hasParams, variables: [...before] }, 'any') };
    before.push(v.name ?? '');
    return compiled;
  });
  return {
    hasParams,
    matchConditions: (spec.matchConditions ?? []).map((c) => ({ name: c.name ?? '', expr: compileOne(c.expression ?? '', { hasParams, variables: [] }, 'bool') })),
    variables,
  };
}

/** The JSON inputs of one evaluation. */
export interface PolicyInputs {
  object: unknown;
  oldObject: unknown;
  request: unknown;
  params: unknown;
  namespaceObject: unknown;
}

export type EvalResult = { value: unknown } | { error: string };

/**
 * One evaluation of a policy's expressions: the inputs as CEL values and sized types (computed
 * once), the variables evaluated in declaration order, and the remaining cost budget.
 */
export class PolicyEvaluation {
  private readonly values: Record<string, CelInput>;
  private readonly types: Record<string, CelType>;
  private remaining = RUNTIME_COST_BUDGET;
  private readonly variableErrors = new Map<string, string>();

  /** @param authorizer what `authorizer` checks are answered for (none: they fail as errors). */
  constructor(
    inputs: PolicyInputs,
    common: CompiledCommon,
    private readonly authorizer?: AuthorizerContext,
  ) {
    const entries = Object.entries(inputs) as Array<[keyof PolicyInputs, unknown]>;
    this.values = Object.fromEntries(entries.map(([k, v]) => [k, toCel(v ?? null, DYN)]));
    this.types = Object.fromEntries(entries.map(([k, v]) => [k, valueType([v])]));
    this.values['authorizer'] = AUTHORIZER_ROOT;
    this.types['authorizer'] = AUTHORIZER_TYPE;
    const variableValues: Record<string, CelInput> = {};
    const variableTypes: Record<string, CelType> = {};
    this.values['variables'] = variableValues;
    this.types['variables'] = { kind: 'object', name: 'kubernetes.variables', fields: variableTypes, max: common.variables.length };
    for (const v of common.variables) {
      const result = this.run(v.expr);
      if ('error' in result) {
        this.variableErrors.set(v.name, `composited variable "${v.name}" fails to evaluate: ${result.error}`);
        continue;
      }
      variableValues[v.name] = result.value as CelInput;
      variableTypes[v.name] = DYN;
    }
  }

  /** Evaluates one expression, charging its cost; an error names the expression as kube does. */
  run(expr: PolicyExpression): EvalResult {
    if (expr.error !== undefined) return { error: `compilation error: ${expr.error}` };
    const program = expr.program!;
    for (const [name, error] of this.variableErrors) {
      if (program.source.includes(`variables.${name}`)) return { error };
    }
    const cost = runtimeCost(program, this.types);
    if (cost > this.remaining) return { error: OUT_OF_BUDGET };
    this.remaining -= cost;
    if (cost > PER_CALL_LIMIT) return { error: `expression '${expr.source}' resulted in error: operation cancelled: actual cost limit exceeded` };
    const result = withAuthorizer(this.authorizer, () => evaluate(program, this.values));
    if ('error' in result) return { error: `expression '${expr.source}' resulted in error: ${result.error}` };
    return result;
  }

  /**
   * The match conditions (kube's matchconditions.Matcher): false when one is false; an error when
   * none is false but some failed; true otherwise.
   */
  matchConditions(conditions: CompiledCommon['matchConditions']): boolean | { error: string } {
    const errors: string[] = [];
    for (const c of conditions) {
      const result = this.run(c.expr);
      if ('error' in result) errors.push(result.error);
      else if (result.value === false) return false;
    }
    if (errors.length === 1) return { error: errors[0]! };
    if (errors.length > 1) return { error: `[${errors.join(', ')}]` };
    return true;
  }
}
