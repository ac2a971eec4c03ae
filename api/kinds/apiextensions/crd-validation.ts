/**
 * Validation of a CustomResourceDefinition itself, as kube-apiserver does it
 * (`apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go` and the structural
 * schema checks for v1): the name is `<plural>.<group>`, names are DNS-1035 labels, exactly one
 * storage version, v1 versions carry a structural schema (`structural-schema.ts`) with valid
 * defaults (`schema-defaults.ts`) and extensions (`schema-extensions.ts`), and the group, plural
 * (and once Established, scope and kind) never change. Go prints some bad values (`spec.versions`) as Go
 * structs; we print them as JSON.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index, key } from '../../validation/field-path.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.js';
import { validateImmutable } from '../apps/workload.js';
import { validateReviewVersions, validateWebhookService, validateWebhookURL } from '../admissionregistration/webhook-validation.js';
import { compileRules, ruleSchemaPath } from './cel-rules.js';
import { CONVERSION_REVIEW_VERSIONS } from './conversion-webhook.js';
import { validateDefaults } from './schema-defaults.js';
import { validateExtensions } from './schema-extensions.js';
import { validateStructural } from './structural-schema.js';
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

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const RESOURCE_META = new Set(['apiVersion', 'kind', 'metadata']);

/** Where a schema node sits: inside a resource's apiVersion, kind or metadata; and why defaults are refused there, if they are. */
interface SchemaContext {
  insideResourceMeta: boolean;
  forbiddenDefaults?: string | undefined;
}

/** kube's `specStandardValidatorV3.validate`: what OpenAPI v3 allows and CRDs do not. */
function validateNode(schema: JSONSchemaProps, path: string, ctx: SchemaContext): FieldError[] {
  const errors: FieldError[] = [];
  if (schema.type && !OPENAPI_TYPES.includes(schema.type)) errors.push(fieldErrors.notSupported(child(path, 'type'), schema.type, OPENAPI_TYPES));
  if (schema.default !== undefined && ctx.forbiddenDefaults) errors.push(fieldErrors.forbidden(child(path, 'default'), `must not be set ${ctx.forbiddenDefaults}`));
  const unsupported: Array<[string, boolean]> = [
    ['id', schema.id !== undefined && schema.id !== ''],
    ['additionalItems', schema.additionalItems !== undefined],
    ['patternProperties', Object.keys(schema.patternProperties ?? {}).length > 0],
    ['definitions', Object.keys(schema.definitions ?? {}).length > 0],
    ['dependencies', schema.dependencies !== undefined],
    ['$ref', schema.$ref !== undefined],
  ];
  for (const [name, present] of unsupported) if (present) errors.push(fieldErrors.forbidden(child(path, name), `${name} is not supported`));
  if (schema.type === 'null') errors.push(fieldErrors.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(schema.items)) errors.push(fieldErrors.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true) {
    errors.push(fieldErrors.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errors;
}

/** `ValidateCustomResourceDefinitionOpenAPISchema`: each node, then the nodes below it. */
function validateOpenAPISchema(schema: JSONSchemaProps | undefined, path: string, ctx: SchemaContext, isRoot = false): FieldError[] {
  if (!schema || typeof schema !== 'object') return [];
  const errors = validateNode(schema, path, ctx);
  if (schema.uniqueItems === true) errors.push(fieldErrors.forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const additional = schema.additionalProperties;
  if (additional !== undefined) {
    if (Object.keys(schema.properties ?? {}).length > 0 && (additional === false || typeof additional === 'object')) {
      errors.push(fieldErrors.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    // Pruning a default inside labels or annotations would be ambiguous without the value.
    const sub = ctx.insideResourceMeta ? { ...ctx, forbiddenDefaults: 'inside additionalProperties applying to object metadata' } : ctx;
    if (typeof additional === 'object') errors.push(...validateOpenAPISchema(additional, child(path, 'additionalProperties'), sub));
  }
  const resource = isRoot || schema['x-kubernetes-embedded-resource'] === true;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const sub = resource && RESOURCE_META.has(name) ? { insideResourceMeta: true, forbiddenDefaults: isRoot ? `in top-level ${name}` : ctx.forbiddenDefaults } : ctx;
    errors.push(...validateOpenAPISchema(prop, key(child(path, 'properties'), name), sub));
  }
  errors.push(...validateOpenAPISchema(schema.not, child(path, 'not'), ctx));
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    (schema[combinator] ?? []).forEach((s, i) => errors.push(...validateOpenAPISchema(s, index(child(path, combinator), i), ctx)));
  }
  if (schema.items && !Array.isArray(schema.items)) errors.push(...validateOpenAPISchema(schema.items, child(path, 'items'), ctx));
  errors.push(...validateExtensions(schema, path));
  return errors;
}

/**
 * A version's schema as `validateCustomResourceDefinitionValidation` checks it: structural
 * errors first (defaults only checked on a structural schema), then the OpenAPI ones.
 */
function validateVersionSchema(schema: JSONSchemaProps, path: string): FieldError[] {
  const errors = schema.nullable === true ? [fieldErrors.forbidden(child(path, 'nullable'), 'nullable cannot be true at the root')] : [];
  const structural = validateStructural(schema, path);
  errors.push(...structural);
  if (structural.length === 0) errors.push(...validateDefaults(schema, path));
  errors.push(...validateOpenAPISchema(schema, path, { insideResourceMeta: false }, true));
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
    const schemaErrors = validateVersionSchema(schema, schemaPath);
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
 * `validateCustomResourceConversion`, with the paths of kube's internal version (v1's
 * `webhook.clientConfig` and `webhook.conversionReviewVersions` are `webhookClientConfig` and
 * `conversionReviewVersions` there). An update need not name a review version this server speaks
 * when the stored CRD did not either, as kube tolerates what it stored before.
 */
function validateConversion(conversion: CustomResourceConversion | undefined, old: CustomResourceConversion | undefined): FieldError[] {
  if (!conversion) return [];
  const path = 'spec.conversion';
  const errors = enumString(child(path, 'strategy'), conversion.strategy, ['None', 'Webhook']);
  const clientPath = child(path, 'webhookClientConfig');
  const versionsPath = child(path, 'conversionReviewVersions');
  const cc = conversion.webhook?.clientConfig;
  const versions = conversion.webhook?.conversionReviewVersions ?? [];
  if (conversion.strategy !== 'Webhook') {
    const notWebhook = 'should not be set when strategy is not set to Webhook';
    if (cc) errors.push(fieldErrors.forbidden(clientPath, notWebhook));
    if (versions.length > 0) errors.push(fieldErrors.forbidden(versionsPath, notWebhook));
    return errors;
  }
  if (!cc) errors.push(fieldErrors.required(clientPath, 'required when strategy is set to Webhook'));
  else if ((cc.url === undefined) === (cc.service === undefined)) errors.push(fieldErrors.required(clientPath, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errors.push(...validateWebhookURL(cc.url, child(clientPath, 'url')));
  else if (cc.service) errors.push(...validateWebhookService(cc.service, child(clientPath, 'service')));
  const oldVersions = old?.webhook?.conversionReviewVersions ?? [];
  const requireRecognized = !old || oldVersions.length === 0 || oldVersions.some((v) => CONVERSION_REVIEW_VERSIONS.includes(v));
  errors.push(...validateReviewVersions(versions, requireRecognized, versionsPath, ''));
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
