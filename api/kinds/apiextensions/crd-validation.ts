/**
 * Validation of a CustomResourceDefinition itself, as kube-apiserver does it
 * (`apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go` and the structural
 * schema checks for v1): the name is `<plural>.<group>`, names are DNS-1035 labels, exactly one
 * storage version, v1 versions carry a structural schema, and the group, plural (and once
 * Established, scope and kind) never change. Go prints some bad values (`spec.versions`) as Go
 * structs; we print them as JSON.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index, key } from '../../validation/field-path.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.js';
import { validateImmutable } from '../apps/workload.js';
import { compileRules, ruleSchemaPath } from './cel-rules.js';
import { compiledPattern } from './schema-validation.js';
import { isConditionTrue, type CustomResourceConversion, type CustomResourceDefinition, type CustomResourceDefinitionNames, type JSONSchemaProps } from './types.js';

export const SCOPES = ['Cluster', 'Namespaced'];
const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

function enumString(path: string, value: string | undefined, accepted: string[]): FieldError[] {
  if (!value) return [fieldErrors.required(path)];
  return accepted.includes(value) ? [] : [fieldErrors.notSupported(path, value, accepted)];
}

function dns1035(path: string, value: string | undefined, prefix = ''): FieldError[] {
  if (!value) return [];
  const errs = isDNS1035Label(prefix ? value.toLowerCase() : value);
  return errs.length > 0 ? [fieldErrors.invalid(path, value, prefix + errs.join(','))] : [];
}

/** `ValidateCustomResourceDefinitionNames`, for spec.names and status.acceptedNames. */
export function validateNames(names: CustomResourceDefinitionNames, path: string): FieldError[] {
  const mixedCase = 'may have mixed case, but should otherwise match: ';
  const errors = [
    ...dns1035(child(path, 'plural'), names.plural),
    ...dns1035(child(path, 'singular'), names.singular),
    ...dns1035(child(path, 'kind'), names.kind, mixedCase),
    ...dns1035(child(path, 'listKind'), names.listKind, mixedCase),
  ];
  (names.shortNames ?? []).forEach((s, i) => errors.push(...dns1035(index(child(path, 'shortNames'), i), s)));
  if (names.kind && names.kind === names.listKind) errors.push(fieldErrors.invalid(child(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((c, i) => errors.push(...dns1035(index(child(path, 'categories'), i), c)));
  return errors;
}

/** The structural-schema rule every v1 schema must follow: a type everywhere a value is specified. */
function validateStructural(schema: JSONSchemaProps, path: string, level: 'root' | 'item' | 'field'): FieldError[] {
  const errors: FieldError[] = [];
  if (!schema.type && !schema['x-kubernetes-embedded-resource'] && !schema['x-kubernetes-int-or-string']) {
    const where = { root: 'must not be empty at the root', item: 'must not be empty for specified array items', field: 'must not be empty for specified object fields' }[level];
    // A root or field that preserves unknown fields may leave its type open; items may not.
    if (level === 'item' || !schema['x-kubernetes-preserve-unknown-fields']) errors.push(fieldErrors.required(child(path, 'type'), where));
  }
  if (level === 'root' && schema.type && schema.type !== 'object') errors.push(fieldErrors.invalid(child(path, 'type'), schema.type, 'must be object at the root'));
  for (const [name, prop] of Object.entries(schema.properties ?? {})) errors.push(...validateStructural(prop, key(child(path, 'properties'), name), 'field'));
  if (schema.items && !Array.isArray(schema.items)) errors.push(...validateStructural(schema.items, child(path, 'items'), 'item'));
  if (typeof schema.additionalProperties === 'object') errors.push(...validateStructural(schema.additionalProperties, child(path, 'additionalProperties'), 'field'));
  return errors;
}

/**
 * CEL rules are evaluated on the schema's own nodes only: rules inside a combinator are refused
 * rather than accepted and never run.
 */
function rulesInCombinator(schema: JSONSchemaProps | undefined, path: string): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  const rules = schema['x-kubernetes-validations'];
  const here = Array.isArray(rules) && rules.length > 0 ? [fieldErrors.forbidden(child(path, 'x-kubernetes-validations'), 'CEL rules inside allOf, anyOf, oneOf or not are not supported by this server')] : [];
  const below = [
    ...Object.entries(schema.properties ?? {}).map(([name, prop]) => rulesInCombinator(prop, key(child(path, 'properties'), name))),
    schema.items && !Array.isArray(schema.items) ? rulesInCombinator(schema.items, child(path, 'items')) : [],
    typeof schema.additionalProperties === 'object' ? rulesInCombinator(schema.additionalProperties, child(path, 'additionalProperties')) : [],
  ];
  return [...here, ...below.flat()];
}

/** `ValidateCustomResourceDefinitionOpenAPISchema` with the OpenAPI v3 restrictions. */
function validateOpenAPISchema(schema: JSONSchemaProps | undefined, path: string): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  const errors: FieldError[] = [];
  const unsupported: Array<[string, boolean]> = [
    ['id', schema.id !== undefined && schema.id !== ''],
    ['additionalItems', schema.additionalItems !== undefined],
    ['patternProperties', Object.keys(schema.patternProperties ?? {}).length > 0],
    ['definitions', Object.keys(schema.definitions ?? {}).length > 0],
    ['dependencies', schema.dependencies !== undefined],
    ['$ref', schema.$ref !== undefined],
  ];
  for (const [name, present] of unsupported) if (present) errors.push(fieldErrors.forbidden(child(path, name), `${name} is not supported`));
  if (schema.type === 'null') errors.push(fieldErrors.forbidden(child(path, 'type'), 'type cannot be set to null'));
  if (typeof schema.pattern === 'string') {
    try {
      compiledPattern(schema.pattern);
    } catch (err) {
      errors.push(fieldErrors.invalid(child(path, 'pattern'), schema.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  if (Array.isArray(schema.items)) errors.push(fieldErrors.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (schema.uniqueItems === true) errors.push(fieldErrors.forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const additional = schema.additionalProperties;
  if (additional !== undefined) {
    if (Object.keys(schema.properties ?? {}).length > 0 && (additional === false || typeof additional === 'object')) {
      errors.push(fieldErrors.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    if (typeof additional === 'object') errors.push(...validateOpenAPISchema(additional, child(path, 'additionalProperties')));
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) errors.push(...validateOpenAPISchema(prop, key(child(path, 'properties'), name)));
  errors.push(...validateOpenAPISchema(schema.not, child(path, 'not')), ...rulesInCombinator(schema.not, child(path, 'not')));
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    (schema[combinator] ?? []).forEach((s, i) => errors.push(...validateOpenAPISchema(s, index(child(path, combinator), i)), ...rulesInCombinator(s, index(child(path, combinator), i))));
  }
  if (schema.items && !Array.isArray(schema.items)) errors.push(...validateOpenAPISchema(schema.items, child(path, 'items')));
  return errors;
}

function validateSimpleJSONPath(value: string, path: string): FieldError[] {
  if (value === '') return [fieldErrors.invalid(path, value, 'must not be empty')];
  if (!value.startsWith('.')) return [fieldErrors.invalid(path, value, 'must be a simple json path starting with .')];
  return [];
}

function validateVersion(crd: CustomResourceDefinition, i: number): FieldError[] {
  const version = crd.spec!.versions![i]!;
  const path = index('spec.versions', i);
  const errors: FieldError[] = [];
  const name = version.name ?? '';
  const nameErrs = isDNS1035Label(name);
  if (nameErrs.length > 0) errors.push(fieldErrors.invalid(child(path, 'name'), name, nameErrs.join(',')));
  const schemaPath = child(path, 'schema', 'openAPIV3Schema');
  const schema = version.schema?.openAPIV3Schema;
  if (!schema) errors.push(fieldErrors.required(schemaPath, 'schemas are required'));
  else {
    const schemaErrors = [...validateOpenAPISchema(schema, schemaPath), ...validateStructural(schema, schemaPath, 'root')];
    // As kube-apiserver, rules are compiled only against a valid schema, once for a schema all versions share.
    const rulesPath = ruleSchemaPath(crd.spec!.versions!, i);
    if (schemaErrors.length === 0 && (rulesPath === schemaPath || i === 0)) schemaErrors.push(...compileRules(schema, rulesPath).errors);
    errors.push(...schemaErrors);
  }
  const scale = version.subresources?.scale;
  if (scale) {
    const scalePath = child(path, 'subresources', 'scale');
    for (const [field, under] of [
      ['specReplicasPath', '.spec.'],
      ['statusReplicasPath', '.status.'],
    ] as const) {
      const value = scale[field];
      const fieldPath = child(scalePath, field);
      if (!value) errors.push(fieldErrors.required(fieldPath));
      else {
        const pathErrs = validateSimpleJSONPath(value, fieldPath);
        errors.push(...(pathErrs.length > 0 ? pathErrs : value.startsWith(under) ? [] : [fieldErrors.invalid(fieldPath, value, `should be a json path under ${under.slice(0, -1)}`)]));
      }
    }
  }
  (version.additionalPrinterColumns ?? []).forEach((col, c) => {
    const colPath = index(child(path, 'additionalPrinterColumns'), c);
    if (!col.name) errors.push(fieldErrors.required(child(colPath, 'name')));
    const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
    if (!col.type) errors.push(fieldErrors.required(child(colPath, 'type'), types));
    else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errors.push(fieldErrors.invalid(child(colPath, 'type'), col.type, types));
    if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) errors.push(fieldErrors.invalid(child(colPath, 'format'), col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
    if (!col.jsonPath) errors.push(fieldErrors.required(child(colPath, 'JSONPath')));
    else errors.push(...validateSimpleJSONPath(col.jsonPath, child(colPath, 'JSONPath')));
  });
  return errors;
}

function validateStoredVersions(crd: CustomResourceDefinition): FieldError[] {
  const path = 'status.storedVersions';
  const stored = crd.status?.storedVersions ?? [];
  if (stored.length === 0) return [fieldErrors.invalid(path, stored, 'must have at least one stored version')];
  const versions = crd.spec?.versions ?? [];
  const errors: FieldError[] = [];
  for (const v of versions) if (v.storage && !stored.includes(v.name ?? '')) errors.push(fieldErrors.invalid(path, v, `must have the storage version ${v.name ?? ''}`));
  stored.forEach((s, i) => {
    if (!versions.some((v) => v.name === s)) errors.push(fieldErrors.invalid(index(path, i), s, 'must appear in spec.versions'));
  });
  return errors;
}

/**
 * `validateCustomResourceConversion`. Only the None strategy is served: a CRD asking for Webhook
 * is refused rather than served as None. A CRD stored with Webhook before this check existed
 * keeps it through updates (as kube never tightens validation of stored data), so its finalizer
 * can still be released.
 */
function validateConversion(conversion: CustomResourceConversion | undefined, old: CustomResourceConversion | undefined): FieldError[] {
  if (!conversion) return [];
  const strategyPath = 'spec.conversion.strategy';
  if (conversion.strategy === 'Webhook') {
    return old?.strategy === 'Webhook' ? [] : [fieldErrors.notSupported(strategyPath, conversion.strategy, ['None'], 'webhook conversion is not supported by this server')];
  }
  const errors = enumString(strategyPath, conversion.strategy, ['None']);
  // v1's webhook.clientConfig and webhook.conversionReviewVersions are, in kube's internal
  // version its errors name, webhookClientConfig and conversionReviewVersions.
  const notWebhook = 'should not be set when strategy is not set to Webhook';
  if (conversion.webhook?.clientConfig) errors.push(fieldErrors.forbidden('spec.conversion.webhookClientConfig', notWebhook));
  if ((conversion.webhook?.conversionReviewVersions ?? []).length > 0) errors.push(fieldErrors.forbidden('spec.conversion.conversionReviewVersions', notWebhook));
  return errors;
}

/** The whole CRD, on create (no `old`) and on update. */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const errors: FieldError[] = [];
  const name = crd.metadata.name ?? '';
  if (name !== `${names.plural ?? ''}.${spec.group ?? ''}`) errors.push(fieldErrors.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));

  if (!spec.group) errors.push(fieldErrors.required('spec.group'));
  else {
    const groupErrs = isDNS1123Subdomain(spec.group);
    if (groupErrs.length > 0) errors.push(fieldErrors.invalid('spec.group', spec.group, groupErrs.join(',')));
    else if (!spec.group.includes('.')) errors.push(fieldErrors.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  errors.push(...enumString('spec.scope', spec.scope, SCOPES));

  const versions = spec.versions ?? [];
  versions.forEach((_v, i) => errors.push(...validateVersion(crd, i)));
  const versionNames = versions.map((v) => v.name);
  if (new Set(versionNames).size !== versionNames.length) errors.push(fieldErrors.invalid('spec.versions', versions, 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1) errors.push(fieldErrors.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));

  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const) if (!names[field]) errors.push(fieldErrors.required(`spec.names.${field}`));
  errors.push(...validateNames(names, 'spec.names'));

  errors.push(...validateConversion(spec.conversion, old?.spec?.conversion));
  if (spec.preserveUnknownFields === true) {
    errors.push(fieldErrors.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }

  errors.push(...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames'));
  errors.push(...validateStoredVersions(crd));
  return errors;
}

export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  const errors = validateCustomResourceDefinition(crd, old);
  // Scope and kind decide where and how objects are stored: fixed once the CRD serves them.
  if (isConditionTrue(old, 'Established')) {
    errors.push(...validateImmutable(crd.spec?.scope, old.spec?.scope, 'spec.scope'));
    errors.push(...validateImmutable(crd.spec?.names?.kind, old.spec?.names?.kind, 'spec.names.kind'));
  }
  // They make up the CRD's name, which never changes.
  errors.push(...validateImmutable(crd.spec?.group, old.spec?.group, 'spec.group'));
  errors.push(...validateImmutable(crd.spec?.names?.plural, old.spec?.names?.plural, 'spec.names.plural'));
  return errors;
}
