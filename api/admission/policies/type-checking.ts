/**
 * Type checking of a policy's expressions (kube's `validating/typechecking.go`): each expression
 * is compiled again with `object` and `oldObject` typed by the schema of every kind the policy's
 * resource rules name exactly (no wildcard), and what does not check becomes an expression
 * warning in `status.typeChecking` (a misspelt field: `undefined field 'spex'`). Params,
 * requests and variables stay `dyn`. Admission itself compiles expressions untyped, so a warning
 * never stops a policy from running.
 */
import { compileExpression, schemaType, type CelType, type TypedSchema } from '../../cel/index.js';
import type { NamedRuleWithOperations, PolicyObject } from '../../kinds/admissionregistration/policy-types.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resolve, type Schema } from '../../schema/schema.js';
import { policyVariables } from './policy-cel.js';

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** An expression of a policy and where it is (`spec.validations[0].expression`). */
export interface PolicyExpressionRef {
  fieldRef: string;
  source: string;
  /** Mutations build objects. */
  objectLiterals?: boolean;
}

/** Deep enough for any built-in kind; deeper (recursive) parts are left untyped. */
const MAX_DEPTH = 16;

/** A schema with every `$ref` and single `allOf` replaced by what it names, as CEL types read it. */
function inlineSchema(schema: Schema | undefined, depth: number): TypedSchema {
  const s = resolve(schema);
  if (!s || depth > MAX_DEPTH) return { 'x-kubernetes-preserve-unknown-fields': true };
  const out: TypedSchema = { ...(s as TypedSchema) };
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, inlineSchema(v, depth + 1)]));
  if (s.items && !Array.isArray(s.items)) out.items = inlineSchema(s.items as Schema, depth + 1);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = inlineSchema(s.additionalProperties as Schema, depth + 1);
  return out;
}

const objectTypes = new WeakMap<ResourceDefinition, CelType>();

/** The CEL type of a kind's objects, made once per kind. */
export function objectTypeOf(def: ResourceDefinition): CelType {
  let type = objectTypes.get(def);
  if (!type) {
    type = schemaType(inlineSchema(def.schema, 0), true, def.kind);
    objectTypes.set(def, type);
  }
  return type;
}

/** The kinds a rule names exactly: one group, version and resource each (kube checks only those). */
export function kindsOfRules(rules: readonly NamedRuleWithOperations[], lookup: (group: string, version: string, resource: string) => ResourceDefinition | undefined): ResourceDefinition[] {
  const defs: ResourceDefinition[] = [];
  for (const r of rules) {
    for (const group of r.apiGroups ?? []) {
      for (const version of r.apiVersions ?? []) {
        for (const resource of r.resources ?? []) {
          if (group === '*' || version === '*' || resource.includes('*') || resource.includes('/')) continue;
          const def = lookup(group, version, resource);
          if (def && !defs.includes(def)) defs.push(def);
        }
      }
    }
  }
  return defs;
}

/** `apps/v1, Kind=Deployment` (`/v1, Kind=Pod` for the core group), as Go prints a GroupVersionKind. */
const gvkText = (def: ResourceDefinition): string => `${def.group}/${def.version}, Kind=${def.kind}`;

/** The warnings of a policy's expressions against the kinds its rules name. */
export function typeCheck(policy: PolicyObject, expressions: readonly PolicyExpressionRef[], kinds: readonly ResourceDefinition[]): ExpressionWarning[] {
  if (kinds.length === 0) return [];
  const spec = policy.spec ?? {};
  const base = policyVariables({ hasParams: spec.paramKind != null, variables: (spec.variables ?? []).map((v) => v.name ?? '') });
  const warnings: ExpressionWarning[] = [];
  for (const e of expressions) {
    const problems: Array<{ def: ResourceDefinition; errors: string }> = [];
    for (const def of kinds) {
      const type = objectTypeOf(def);
      const compiled = compileExpression(e.source, { ...base, object: type, oldObject: type }, { objectLiteralsAsMaps: e.objectLiterals === true });
      if ('errors' in compiled) problems.push({ def, errors: compiled.errors });
    }
    if (problems.length === 0) continue;
    const warning = problems.length === 1 && kinds.length === 1 ? problems[0]!.errors : problems.map((p) => `${gvkText(p.def)}: ${p.errors}`).join('\n');
    warnings.push({ fieldRef: e.fieldRef, warning });
  }
  return warnings;
}
