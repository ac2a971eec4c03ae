/**
 * Admission webhooks per space, as kube-apiserver's MutatingAdmissionWebhook and
 * ValidatingAdmissionWebhook plugins (k8s.io/apiserver/pkg/admission/plugin/webhook/): one
 * admission plugin whose `mutate` phase calls the mutating webhooks, one after another, applying
 * their JSONPatch answers, and whose `admit` phase calls the validating ones, in parallel.
 *
 * Whose webhooks: a request in space T reaches the system space's configurations labelled
 * `kube-spaces.io/all-spaces: "true"` first, then T's own; a request in the system space reaches
 * every system configuration, and so does a request about an object above the spaces (a Tenant, a
 * Node). Within each, configurations go by name, webhooks in their order
 * (kube's order). A space's configurations never see another space's requests; a service reference
 * is resolved in the configuration's own space.
 *
 * Bounds: at most MAX_SPACE_WEBHOOKS of a space's own webhooks per phase may match one request
 * (more is refused, never skipped, so a tenant cannot push a system webhook out); each call within
 * its `timeoutSeconds` (at most 30) and answer size; match conditions priced before they run.
 *
 * Writes without a requester (the server's own bootstrap writes) and writes of admission
 * configuration (webhook configurations, admission policies and bindings) are not sent to webhooks.
 */
import { randomUUID } from 'node:crypto';
import { compileExpression, evaluate, toCel, type CompiledExpression } from '../../cel/index.js';
import { DYN } from '../../cel/types.js';
import { applyJsonPatch } from '../../patch/apply-patch.js';
import { askedWrite, type AdmissionAttributes, type AdmissionPlugin, type AskedWrite } from '../../registry/generic-store.js';
import { replaceContents, type KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { canonicalizeDecoded, checkObject, dropFields } from '../../schema/check-object.js';
import { ApiError, type StatusReason } from '../../status.js';
import type { ServiceReference, Webhook, WebhookConfiguration } from '../../kinds/admissionregistration/webhook-types.js';
import { NO_SIDE_EFFECT_CLASSES } from '../../kinds/admissionregistration/webhook-types.js';
import { MATCH_CONDITION_VARIABLES } from '../../kinds/admissionregistration/webhook-validation.js';
import { labelSelectorMatches } from '../../validation/label-selector.js';
import { isQualifiedName } from '../../validation/labels.js';
import { comprehensionDepth, largestCollection, mayExceedLimit } from './condition-bounds.js';
import { denial, optionsFor, readResponse, reviewBody, reviewUserInfo, type AdmissionRequest, type AdmissionResponse } from './admission-review.js';
import { clientTarget, postReview, type WebhookAnswer, type WebhookTarget } from './webhook-client.js';
import { isEmptySelector, objectSelectorMatches, rulesMatch, type Operation, type RequestTarget } from './webhook-matching.js';

/** The label that makes a system-space configuration act on every space's requests. */
export const ALL_SPACES_LABEL = 'kube-spaces.io/all-spaces';
/** How many of a space's own webhooks may match one request, per phase. */
export const MAX_SPACE_WEBHOOKS = 16;
/** Metadata the server owns: a webhook's patch of these is undone. */
const SERVER_METADATA = ['uid', 'creationTimestamp', 'generation', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;
/** The longest audit annotation value kept. */
const MAX_AUDIT_VALUE_LENGTH = 10 * 1024;
/** Compiled match conditions kept; identical expressions in many spaces share one. */
const MAX_COMPILED_CONDITIONS = 2048;

export interface WebhookAdmissionOptions {
  systemTenant: string;
  /** The space's configurations of that kind, from the informer's cache. */
  configurations(kind: 'validating' | 'mutating', tenant: string): readonly WebhookConfiguration[];
  /** A namespace of a space (its labels for namespaceSelector), or undefined when absent. */
  readNamespace(tenant: string, name: string): Promise<KubeObject | undefined>;
  /** Where a service reference of `tenant` answers: a ready endpoint address, or why none. */
  resolveService(tenant: string, service: ServiceReference): Promise<{ host: string; port: number } | { error: string }>;
  /** The kinds of the space that store the same objects as `def` in another version (matchPolicy Equivalent). */
  equivalents(tenant: string, def: ResourceDefinition): readonly ResourceDefinition[];
  /** The HTTPS call; tests replace it. */
  post?: (target: WebhookTarget, body: string) => Promise<WebhookAnswer>;
  log?: { warn(obj: object, msg: string): void };
}

/** A webhook chosen for a request: the kind it is asked about (the request's, or an equivalent version's). */
interface Invocation {
  hook: Webhook;
  /** The space of the configuration (where its service reference is resolved). */
  owner: string;
  def: ResourceDefinition;
  system: boolean;
}

/** A failure to get a usable answer: subject to the webhook's failurePolicy. */
class CallError extends Error {}

/**
 * Requests on admission configuration itself never go to webhooks, as in kube-apiserver
 * (IsExemptAdmissionConfigurationResource): a broken webhook can always be removed.
 */
const EXEMPT_RESOURCES = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

function exempt(attrs: AdmissionAttributes): boolean {
  return !attrs.user || (attrs.def.group === 'admissionregistration.k8s.io' && EXEMPT_RESOURCES.has(attrs.def.resource));
}

const operationOf: Record<AdmissionAttributes['operation'], Operation> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE' };

function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

function byName(a: WebhookConfiguration, b: WebhookConfiguration): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The object as `to` serves it (another version of the same stored kind): through the kind's
 * converter when it calls out (a CRD's conversion webhook, with the object's space's objects only).
 */
async function convert(obj: KubeObject, from: ResourceDefinition, to: ResourceDefinition, tenant: string): Promise<KubeObject> {
  if (from === to) return obj;
  if (to.converter) return (await to.converter.convert([obj], to.apiVersion, obj.metadata.tenant ?? tenant, false))[0]!;
  return to.fromStorage(from.toStorage(obj));
}

export class WebhookAdmission implements AdmissionPlugin {
  private readonly compiled = new Map<string, CompiledExpression | { errors: string }>();
  private readonly post: (target: WebhookTarget, body: string) => Promise<WebhookAnswer>;

  constructor(private readonly options: WebhookAdmissionOptions) {
    this.post = options.post ?? postReview;
  }

  async mutate(attrs: AdmissionAttributes): Promise<void> {
    const asked = askedWrite(attrs);
    if (exempt(attrs) || asked.operation === 'delete') return;
    const invocations = await this.matching('mutating', attrs);
    if (invocations.length === 0) return;
    // Reinvocation (IfNeeded): a webhook is called once more when a later one changed the object it had answered for.
    const seen = new Map<Invocation, string>();
    for (const inv of invocations) {
      await this.callMutating(inv, attrs);
      seen.set(inv, JSON.stringify(asked.object));
    }
    const final = JSON.stringify(asked.object);
    for (const inv of invocations) {
      if (inv.hook.reinvocationPolicy === 'IfNeeded' && seen.get(inv) !== final) await this.callMutating(inv, attrs);
    }
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    if (exempt(attrs)) return;
    const invocations = await this.matching('validating', attrs);
    if (invocations.length === 0) return;
    // Validating webhooks are called in parallel, as kube does; the first refusal in order decides.
    const outcomes = await Promise.all(invocations.map((inv) => this.callValidating(inv, attrs).then(() => undefined, (err: unknown) => err)));
    const refusal = outcomes.find((e) => e !== undefined);
    if (refusal !== undefined) throw refusal;
  }

  // ---- choosing webhooks -----------------------------------------------------------------

  /** The configurations a request in `tenant` reaches, system ones first. */
  private configurationsFor(kind: 'validating' | 'mutating', tenant: string): Array<{ config: WebhookConfiguration; owner: string; system: boolean }> {
    const system = this.options.systemTenant;
    const systemConfigs = [...this.options.configurations(kind, system)]
      .filter((c) => tenant === system || c.metadata.labels?.[ALL_SPACES_LABEL] === 'true')
      .sort(byName)
      .map((config) => ({ config, owner: system, system: true }));
    if (tenant === system) return systemConfigs;
    const own = [...this.options.configurations(kind, tenant)].sort(byName).map((config) => ({ config, owner: tenant, system: false }));
    return [...systemConfigs, ...own];
  }

  private async matching(kind: 'validating' | 'mutating', attrs: AdmissionAttributes): Promise<Invocation[]> {
    // Objects above the spaces (Tenants, Nodes, APIServices) are the system's business: its webhooks decide.
    const configs = this.configurationsFor(kind, attrs.def.scope === 'cluster' ? this.options.systemTenant : attrs.tenant);
    if (configs.length === 0) return [];
    const asked = askedWrite(attrs);
    const operation = operationOf[asked.operation];
    let namespaceLabels: Record<string, string> | undefined | null = null; // read at most once, when a selector needs it
    const invocations: Invocation[] = [];
    let spaceCount = 0;
    for (const { config, owner, system } of configs) {
      for (const hook of config.webhooks ?? []) {
        const def = this.matchedKind(hook, attrs, asked, operation);
        if (!def) continue;
        if (hook.namespaceSelector && !isEmptySelector(hook.namespaceSelector) && attrs.def.scope === 'namespace') {
          namespaceLabels ??= (await this.options.readNamespace(attrs.tenant, attrs.namespace ?? ''))?.metadata.labels ?? {};
          if (!labelSelectorMatches(hook.namespaceSelector, namespaceLabels)) continue;
        } else if (hook.namespaceSelector && !isEmptySelector(hook.namespaceSelector) && attrs.def.group === '' && attrs.def.resource === 'namespaces') {
          // A Namespace is matched by its own labels, as kube does.
          if (!objectSelectorMatches(hook.namespaceSelector, asked.operation === 'delete' ? undefined : asked.object, asked.old)) continue;
        }
        if (!objectSelectorMatches(hook.objectSelector, asked.operation === 'delete' ? undefined : asked.object, asked.old)) continue;
        if (!system && ++spaceCount > MAX_SPACE_WEBHOOKS) {
          throw internalError(`more than ${MAX_SPACE_WEBHOOKS} ${kind} admission webhooks of this space match the request`);
        }
        invocations.push({ hook, owner, def, system });
      }
    }
    return invocations;
  }

  /** The kind a webhook's rules match the request as: the request's own, or (Equivalent) another version of it. */
  private matchedKind(hook: Webhook, attrs: AdmissionAttributes, asked: AskedWrite, operation: Operation): ResourceDefinition | undefined {
    const target = (def: ResourceDefinition): RequestTarget => ({
      operation,
      group: def.group,
      version: def.version,
      resource: def.resource,
      subresource: asked.subresource,
      namespaced: def.scope === 'namespace',
    });
    if (rulesMatch(hook.rules, target(attrs.def))) return attrs.def;
    // A view (a Scale, an Eviction) is the same object in every version of the resource: asked as the request's.
    if (hook.matchPolicy === 'Exact' || asked.view) return undefined;
    return this.options.equivalents(attrs.tenant, attrs.def).find((def) => rulesMatch(hook.rules, target(def)));
  }

  // ---- calling ---------------------------------------------------------------------------

  private async request(inv: Invocation, attrs: AdmissionAttributes): Promise<AdmissionRequest> {
    const write = askedWrite(attrs);
    const operation = operationOf[write.operation];
    const asked = attrs.def;
    const def = inv.def;
    const object = write.operation === 'delete' ? null : await convert(write.object, asked, def, attrs.tenant);
    const oldObject = write.old ? await convert(write.old, asked, def, attrs.tenant) : null;
    const sub = write.subresource;
    return {
      uid: randomUUID(),
      kind: write.view ? write.kind : { group: def.group, version: def.version, kind: def.kind },
      resource: { group: def.group, version: def.version, resource: def.resource },
      ...(sub ? { subResource: sub } : {}),
      requestKind: write.kind,
      requestResource: { group: asked.group, version: asked.version, resource: asked.resource },
      ...(sub ? { requestSubResource: sub } : {}),
      name: (object ?? oldObject)?.metadata.name ?? '',
      ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
      operation,
      userInfo: reviewUserInfo(attrs.user!),
      object,
      oldObject,
      dryRun: attrs.dryRun ?? false,
      options: optionsFor(operation),
    };
  }

  /**
   * Calls one webhook about the request: its response, or undefined when the webhook is skipped
   * (match conditions false, or a failure its `failurePolicy: Ignore` lets through).
   */
  private async call(inv: Invocation, attrs: AdmissionAttributes): Promise<{ response: AdmissionResponse; request: AdmissionRequest } | undefined> {
    const hook = inv.hook;
    const name = hook.name ?? '';
    const request = await this.request(inv, attrs);
    try {
      if (!this.conditionsMatch(hook, request)) return undefined;
      if (attrs.dryRun && !NO_SIDE_EFFECT_CLASSES.includes(hook.sideEffects ?? '')) {
        throw new ApiError(400, 'BadRequest', `admission webhook ${JSON.stringify(name)} does not support dry run`);
      }
      const target = await this.target(inv);
      const answer = await this.post(target, reviewBody(request));
      if ('error' in answer) throw new CallError(`failed calling webhook ${JSON.stringify(name)}: failed to call webhook: ${answer.error}`);
      if (answer.status < 200 || answer.status >= 300) {
        throw new CallError(`failed calling webhook ${JSON.stringify(name)}: failed to call webhook: the server responded with the status code ${answer.status} but did not return more information`);
      }
      const response = readResponse(answer.body, request.uid);
      if ('invalid' in response) throw new CallError(`failed calling webhook ${JSON.stringify(name)}: received invalid webhook response: ${response.invalid}`);
      return { response, request };
    } catch (err) {
      if (!(err instanceof CallError)) throw err;
      if (hook.failurePolicy === 'Ignore') {
        this.options.log?.warn({ webhook: name, tenant: inv.owner, err: err.message }, 'admission webhook failed; ignored by its failurePolicy');
        return undefined;
      }
      throw internalError(err.message);
    }
  }

  /** Where the webhook answers: its URL, or its service's endpoint in the configuration's space. */
  private async target(inv: Invocation): Promise<WebhookTarget> {
    const target = await clientTarget(inv.hook.clientConfig ?? {}, inv.hook.timeoutSeconds ?? 10, (service) => this.options.resolveService(inv.owner, service));
    if ('error' in target) throw new CallError(`failed calling webhook ${JSON.stringify(inv.hook.name ?? '')}: failed to call webhook: ${target.error}`);
    return target;
  }

  /** Whether every match condition holds; an error is a call failure (failurePolicy decides). */
  private conditionsMatch(hook: Webhook, request: AdmissionRequest): boolean {
    const conditions = hook.matchConditions ?? [];
    if (conditions.length === 0) return true;
    const { object, oldObject, ...rest } = request;
    const vars = { object: toCel(object, DYN), oldObject: toCel(oldObject, DYN), request: toCel(rest, DYN) };
    let size: number | undefined; // measured once, when a condition has nested loops
    for (const condition of conditions) {
      const compiled = this.compile(condition.expression ?? '');
      let result: { value: unknown } | { error: string };
      if ('errors' in compiled) result = { error: compiled.errors };
      else {
        const depth = comprehensionDepth(compiled.parsed.expr);
        if (depth >= 2) size ??= largestCollection(object, oldObject, rest);
        result = size !== undefined && mayExceedLimit(depth, size) ? { error: 'operation cancelled: actual cost limit exceeded' } : evaluate(compiled, vars);
      }
      if ('error' in result) {
        throw new CallError(`failed calling webhook ${JSON.stringify(hook.name ?? '')}: failed to evaluate match condition ${JSON.stringify(condition.name ?? '')}: ${result.error}`);
      }
      if (result.value !== true) return false;
    }
    return true;
  }

  private compile(expression: string): CompiledExpression | { errors: string } {
    let compiled = this.compiled.get(expression);
    if (!compiled) {
      if (this.compiled.size >= MAX_COMPILED_CONDITIONS) this.compiled.clear();
      compiled = compileExpression(expression.trim(), MATCH_CONDITION_VARIABLES);
      this.compiled.set(expression, compiled);
    }
    return compiled;
  }

  private async callValidating(inv: Invocation, attrs: AdmissionAttributes): Promise<void> {
    const response = (await this.call(inv, attrs))?.response;
    if (!response) return;
    this.warn(response, attrs);
    this.annotate(inv, response, attrs);
    if (!response.allowed) this.refuse(inv, response);
  }

  private async callMutating(inv: Invocation, attrs: AdmissionAttributes): Promise<void> {
    const answered = await this.call(inv, attrs);
    if (!answered) return;
    const { response, request } = answered;
    this.warn(response, attrs);
    this.annotate(inv, response, attrs);
    if (!response.allowed) this.refuse(inv, response);
    if (!response.patch) return;
    if (response.patchType !== 'JSONPatch') throw internalError(`unsupported patch type ${JSON.stringify(response.patchType ?? '')}`);
    await this.applyPatch(inv, attrs, request.object, response.patch);
  }

  private refuse(inv: Invocation, response: AdmissionResponse): never {
    const { code, reason, message } = denial(inv.hook.name ?? '', response.status);
    throw new ApiError(code, reason as StatusReason, message);
  }

  private warn(response: AdmissionResponse, attrs: AdmissionAttributes): void {
    // Every one, as kube adds them; the Warning headers keep kube's total and per-text limits.
    for (const w of response.warnings ?? []) if (typeof w === 'string') attrs.warnings?.push(w);
  }

  /**
   * The answer's audit annotations, keyed `<webhook name>/<key>` as kube-apiserver records them;
   * a key that is no qualified name, or a value over 10 KiB, is dropped (kube drops them too, logging).
   */
  private annotate(inv: Invocation, response: AdmissionResponse, attrs: AdmissionAttributes): void {
    const annotations = response.auditAnnotations;
    if (!attrs.auditAnnotations || !annotations || typeof annotations !== 'object') return;
    for (const [key, value] of Object.entries(annotations)) {
      const full = `${inv.hook.name ?? ''}/${key}`;
      if (typeof value !== 'string' || value.length > MAX_AUDIT_VALUE_LENGTH || isQualifiedName(full).length > 0) continue;
      attrs.auditAnnotations.set(full, value);
    }
  }

  /**
   * Applies a webhook's JSONPatch to the request's object in place (the store goes on with that
   * object), decoded again as kube decodes a patched object: unknown fields dropped, defaults
   * applied. A patch may not move the object to another name, namespace or space. `sent` is the
   * object as the webhook received it (in its version), null for a DELETE.
   */
  private async applyPatch(inv: Invocation, attrs: AdmissionAttributes, sent: KubeObject | null, patch: string): Promise<void> {
    let operations: unknown;
    try {
      operations = JSON.parse(Buffer.from(patch, 'base64').toString('utf8'));
    } catch (err) {
      throw internalError(`invalid character in the webhook's patch: ${(err as Error).message}`);
    }
    const write = askedWrite(attrs);
    const asked = attrs.def;
    let patched: KubeObject;
    const asSent = sent ?? (await convert(write.object, asked, inv.def, attrs.tenant));
    try {
      patched = await convert(applyJsonPatch(asSent, operations), inv.def, asked, attrs.tenant);
    } catch (err) {
      throw internalError(err instanceof ApiError ? err.message.replace(/^the server rejected our request due to an error in our request: /, '') : String(err));
    }
    const before = write.object.metadata;
    patched.metadata ??= {};
    const after = patched.metadata;
    for (const field of ['name', 'namespace', 'tenant'] as const) {
      if ((after[field] ?? '') !== (before[field] ?? '')) throw internalError(`admission webhook ${JSON.stringify(inv.hook.name ?? '')} may not change metadata.${field}`);
    }
    // What the server sets (kube sets it after mutating admission, so a webhook's value never lands).
    for (const field of SERVER_METADATA) {
      if (before[field] === undefined) delete after[field];
      else (after as Record<string, unknown>)[field] = before[field];
    }
    if (patched.apiVersion !== write.object.apiVersion || patched.kind !== write.object.kind) {
      throw internalError(`admission webhook ${JSON.stringify(inv.hook.name ?? '')} may not change the object's apiVersion or kind`);
    }
    // A view (a Scale) is taken back by its subresource, which checks the fields it reads.
    if (write.view) return replaceContents(write.object, patched);
    const check = checkObject(patched, asked.schema);
    if (check.typeError) throw internalError(`admission webhook ${JSON.stringify(inv.hook.name ?? '')} returned an invalid object: ${check.typeError}`);
    if (!asked.unstructured) canonicalizeDecoded(check);
    dropFields(patched, check.unknownFields);
    asked.defaults?.(patched);
    replaceContents(write.object, patched);
  }
}
