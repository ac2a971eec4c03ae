/**
 * Validation of ValidatingWebhookConfigurations and MutatingWebhookConfigurations with
 * kube-apiserver's messages (pkg/apis/admissionregistration/validation/validation.go and
 * k8s.io/apiserver/pkg/util/webhook/validation.go). On update, what the stored object already
 * breaks (side effects, review versions, duplicate names) is tolerated, as kube does, so old
 * objects stay writable.
 */
import { compileExpression, mayBe } from '../../cel/index.js';
import { DYN } from '../../cel/types.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index } from '../../validation/field-path.js';
import { validateLabelSelector } from '../../validation/label-selector.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.js';
import { isValidPortNum } from '../../validation/ports.js';
import { validateRuleWithOperations } from './policy-validation.js';
import {
  FAILURE_POLICIES,
  MATCH_POLICIES,
  NO_SIDE_EFFECT_CLASSES,
  REINVOCATION_POLICIES,
  SIDE_EFFECT_CLASSES,
  type MatchCondition,
  type Webhook,
  type WebhookConfiguration,
} from './webhook-types.js';

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_MATCH_CONDITIONS = 64;
/** The variables a webhook's match conditions may use; `authorizer` is not offered here (see docs). */
export const MATCH_CONDITION_VARIABLES = { object: DYN, oldObject: DYN, request: DYN };

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
  /** Unchanged match conditions are not compiled again on update. */
  ignoreMatchConditions: boolean;
}

/** apimachinery's IsFullyQualifiedName. */
function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  if (name.length === 0) return [fieldErrors.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [fieldErrors.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldErrors.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** A URL's parts as Go's url.Parse splits them (it accepts nearly anything; the checks judge the parts). */
const URL_PARTS = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/** k8s.io/apiserver's ValidateWebhookURL (https only). */
export function validateWebhookURL(raw: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const [, scheme = '', authority = '', , query = '', fragment = ''] = URL_PARTS.exec(raw) ?? [];
  const at = authority.lastIndexOf('@');
  const user = at >= 0 ? authority.slice(0, at) : undefined;
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  const errs: FieldError[] = [];
  if (scheme.toLowerCase() !== 'https') errs.push(fieldErrors.invalid(path, scheme.toLowerCase(), `'https' is the only allowed URL scheme${form}`));
  if (host.length === 0) errs.push(fieldErrors.invalid(path, host, `host must be provided${form}`));
  if (user !== undefined) errs.push(fieldErrors.invalid(path, user, 'user information is not permitted in the URL'));
  if (fragment.length > 0) errs.push(fieldErrors.invalid(path, fragment, 'fragments are not permitted in the URL'));
  if (query.length > 0) errs.push(fieldErrors.invalid(path, query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** k8s.io/apiserver's ValidateWebhookService. */
export function validateWebhookService(service: NonNullable<Webhook['clientConfig']>['service'] & object, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(fieldErrors.required(child(path, 'name'), 'service name is required'));
  if (!service.namespace) errs.push(fieldErrors.required(child(path, 'namespace'), 'service namespace is required'));
  const port = service.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(fieldErrors.invalid(child(path, 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const field = child(path, 'path');
  if (urlPath === '//') return [...errs, fieldErrors.invalid(field, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldErrors.invalid(field, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(fieldErrors.invalid(field, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(fieldErrors.invalid(field, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** A match condition's expression compiled as kube's webhook match conditions are: a bool over object, oldObject and request. */
export function matchConditionProblem(expression: string): string | undefined {
  const compiled = compileExpression(expression, MATCH_CONDITION_VARIABLES);
  if ('errors' in compiled) return `compilation failed: ${compiled.errors}`;
  if (!mayBe(compiled.result, 'bool')) return 'must evaluate to bool';
  return undefined;
}

function validateMatchConditions(conditions: MatchCondition[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(fieldErrors.tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = index(path, i);
    const trimmed = (c.expression ?? '').trim();
    if (trimmed.length === 0) errs.push(fieldErrors.required(child(at, 'expression')));
    else {
      const problem = matchConditionProblem(trimmed);
      if (problem) errs.push(fieldErrors.invalid(child(at, 'expression'), trimmed, problem));
    }
    const name = c.name ?? '';
    if (name.length === 0) errs.push(fieldErrors.required(child(at, 'name')));
    else errs.push(...validateQualifiedName(name, child(at, 'name')));
    if (name.length > 0) {
      if (names.has(name)) errs.push(fieldErrors.duplicate(child(at, 'name'), name));
      names.add(name);
    }
  });
  return errs;
}

/**
 * Admission (and CRD conversion) review versions: unique DNS labels, one of them this server's.
 * CRDs say nothing more than "Required value" when there are none (`emptyDetail` '').
 */
export function validateReviewVersions(versions: string[], requireRecognized: boolean, path: string, emptyDetail = `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`): FieldError[] {
  if (versions.length === 0) return [fieldErrors.required(path, emptyDetail)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(index(path, i), v, msg));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))) {
    errs.push(fieldErrors.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function validateWebhook(hook: Webhook, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = validateFullyQualifiedName(hook.name ?? '', child(path, 'name'));
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, index(child(path, 'rules'), i))));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(fieldErrors.notSupported(child(path, 'failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(fieldErrors.notSupported(child(path, 'matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  if (hook.sideEffects === undefined) errs.push(fieldErrors.required(child(path, 'sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(fieldErrors.notSupported(child(path, 'sideEffects'), hook.sideEffects, allowedSideEffects));
  if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(fieldErrors.invalid(child(path, 'timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  errs.push(...validateLabelSelector(hook.namespaceSelector, child(path, 'namespaceSelector')));
  errs.push(...validateLabelSelector(hook.objectSelector, child(path, 'objectSelector')));
  if (mutating && hook.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(fieldErrors.notSupported(child(path, 'reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const cc = hook.clientConfig ?? {};
  const ccPath = child(path, 'clientConfig');
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateWebhookURL(cc.url, child(ccPath, 'url')));
  else if (cc.service) errs.push(...validateWebhookService(cc.service, child(ccPath, 'service')));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(hook.matchConditions ?? [], child(path, 'matchConditions')));
  return errs;
}

function validateConfiguration(obj: WebhookConfiguration, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (obj.webhooks ?? []).forEach((hook, i) => {
    const path = index('webhooks', i);
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateReviewVersions(hook.admissionReviewVersions ?? [], opts.requireRecognizedReviewVersion, child(path, 'admissionReviewVersions')));
    const name = hook.name ?? '';
    if (opts.requireUniqueNames && name.length > 0) {
      if (names.has(name)) errs.push(fieldErrors.duplicate(child(path, 'name'), name));
      names.add(name);
    }
  });
  return errs;
}

const CREATE_OPTIONS: Options = { requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true, ignoreMatchConditions: false };

export function webhookConfigurationValidation(mutating: boolean) {
  return {
    validateCreate: (obj: WebhookConfiguration): FieldError[] => validateConfiguration(obj, mutating, CREATE_OPTIONS),
    validateUpdate: (obj: WebhookConfiguration, old: WebhookConfiguration): FieldError[] => {
      const oldHooks = old.webhooks ?? [];
      const newHooks = obj.webhooks ?? [];
      const sameConditions = oldHooks.length === newHooks.length && oldHooks.every((h, i) => JSON.stringify(h.matchConditions ?? []) === JSON.stringify(newHooks[i]!.matchConditions ?? []));
      const oldNames = oldHooks.map((h) => h.name);
      return validateConfiguration(obj, mutating, {
        requireNoSideEffects: oldHooks.every((h) => h.sideEffects !== undefined && NO_SIDE_EFFECT_CLASSES.includes(h.sideEffects)),
        requireRecognizedReviewVersion: oldHooks.every((h) => (h.admissionReviewVersions ?? []).length === 0 || (h.admissionReviewVersions ?? []).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))),
        requireUniqueNames: new Set(oldNames).size === oldNames.length,
        ignoreMatchConditions: sameConditions,
      });
    },
  };
}
