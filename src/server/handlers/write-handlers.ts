/** POST, PUT, PATCH and DELETE on resources, as kube-apiserver answers them. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedPatchTypes, applyJsonPatch, applyMergePatch, patchTypeOf, unsupportedPatchType } from '../../../api/patch/apply-patch.js';
import { applyStrategicMergePatch } from '../../../api/patch/strategic-merge.js';
import type { DeleteOptions, UpdateSubresource, WriteOptions } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { Requester, TokenReviewResult } from '../../../api/registry/resource-definition.js';
import { SYSTEM_TENANT } from '../../../api/spaces.js';
import { SERVICE_ACCOUNT_ISSUER } from '../../../authz/service-account-token.js';
import { scaleSchema } from '../../../api/schema/autoscaling-types.js';
import type { HandlerDeps } from './handler-deps.js';
import { contentType, decodeBody, decodeObjectBody, hasBody, negotiateFormat, sendFormatted } from '../negotiate.js';
import { goJsonValueName } from '../../../api/schema/json-syntax.js';
import { ApiError } from '../../../api/status.js';
import { warningHeaders } from '../warning-headers.js';
import { applyConfiguration, applyConflictError, fieldManagerName, FieldSet, fieldsOutside, statusResetFields } from '../../../api/apply/index.js';
import type { JsonObject, JsonValue } from '../../../api/apply/json-value.js';
import { boolParam, dryRunParam, fieldSelectorParam, fieldValidationParam, labelSelectorParam, param, type Query } from './query.js';
import { parseDeleteOptions } from './delete-options.js';
import { locationOf } from './read-handlers.js';
import type { ResourceRequest } from './resolve-resource.js';
import { patchScale, updateScale } from './scale.js';
import { handleTokenRequest } from './token-request.js';
import { handleBinding, handleEviction, handleStream } from './pod-subresources.js';

/** The part of the object a write addresses: the whole, its status, a namespace's finalizers, a CSR's approval. */
function writtenPart(req: ResourceRequest): UpdateSubresource | undefined {
  const sub = req.subresource;
  if (sub === undefined || sub === 'status' || sub === 'finalize' || sub === 'ephemeralcontainers' || sub === 'approval') return sub;
  // Scale writes go through scale.ts and logs are read-only: neither reaches here.
  throw new ApiError(405, 'MethodNotAllowed', `${req.verb} is not supported on ${req.def.resource}/${sub}`);
}

/** The write's options; after the body is decoded, which finds its duplicate fields. */
function writeOptions(request: FastifyRequest): WriteOptions & { warnings: string[] } {
  const query = request.query as Query;
  // Kept on the request so the audit events see them, also when admission then refuses the write.
  const auditAnnotations = new Map<string, string>();
  if (request.kube) request.kube.auditAnnotations = auditAnnotations;
  return {
    auditAnnotations,
    dryRun: dryRunParam(query),
    fieldManager: fieldManagerName(param(query, 'fieldManager'), request.headers['user-agent']),
    fieldValidation: fieldValidationParam(query),
    duplicateFields: request.kube?.duplicateFields ?? [],
    warnings: [],
    user: request.kube?.user,
  };
}

/** `Warning: 299 - "text"` headers, which kubectl prints as `Warning: text`; a deprecated version's first, as kube-apiserver adds it first. */
function addWarnings(reply: FastifyReply, req: ResourceRequest, warnings: string[]): void {
  const headers = warningHeaders(req.def.deprecationWarning ? [req.def.deprecationWarning, ...warnings] : warnings);
  if (headers.length > 0) reply.header('Warning', headers);
}

/** A kind that is asked, not stored: its answer, decided as real requests are. */
function answerReview(deps: HandlerDeps, req: ResourceRequest, body: KubeObject): KubeObject | Promise<KubeObject> {
  const { user, tenant } = req;
  const requester: Requester = {
    user,
    tenant,
    namespace: req.namespace,
    authorize: (attributes) => deps.authorizer.authorize(user, { ...attributes, tenant }),
    authorizeSubject: (subject, attributes) => deps.authorizer.authorize({ ...subject, tenant }, { ...attributes, tenant }),
    rulesFor: (namespace) => deps.authorizer.rulesFor(user, tenant, namespace),
    reviewToken: (token, audiences) => reviewToken(deps, req, token, audiences),
  };
  return req.def.answer!(body, requester);
}

/**
 * A TokenReview's answer. Service-account tokens are issued for the API server's audience only;
 * a token of another space is answered like a bad one unless the requester is a system user.
 */
async function reviewToken(deps: HandlerDeps, req: ResourceRequest, token: string, audiences: string[]): Promise<TokenReviewResult> {
  const unauthenticated = { error: 'the token is not valid' };
  if (audiences.length > 0 && !audiences.includes(SERVICE_ACCOUNT_ISSUER)) return { error: `the token's audience does not match any of ${JSON.stringify(audiences)}` };
  const user = deps.reviewToken ? await deps.reviewToken(token) : null;
  if (!user) return unauthenticated;
  if (req.user.tenant !== SYSTEM_TENANT && user.tenant !== req.tenant) return unauthenticated;
  return { user, audiences: [SERVICE_ACCOUNT_ISSUER] };
}

export async function handleCreate(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (req.subresource === 'token') return handleTokenRequest(deps, req, request, reply);
  if (req.subresource === 'binding') return handleBinding(deps, req, request, reply);
  if (req.subresource === 'eviction') return handleEviction(deps, req, request, reply);
  if (req.subresource === 'exec' || req.subresource === 'attach' || req.subresource === 'portforward') return handleStream(deps, req, request);
  if (req.name !== undefined) throw new ApiError(405, 'MethodNotAllowed', `POST to a named ${req.def.singular} is not supported`);
  const format = negotiateFormat(request.headers.accept, false);
  const body = (await decodeObjectBody(request, req.def.kind)) as KubeObject;
  const opts = writeOptions(request);
  if (req.def.answer) return sendFormatted(reply, 201, format, await answerReview(deps, req, deps.generic.checkBody(req.def, body, opts)));
  const created = await deps.generic.create(req.def, { tenant: req.tenant, namespace: req.namespace }, body, opts);
  addWarnings(reply, req, opts.warnings);
  return sendFormatted(reply, 201, format, created);
}

export async function handleUpdate(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const body = (await decodeObjectBody(request, req.subresource === 'scale' ? 'Scale' : req.def.kind)) as KubeObject;
  const opts = writeOptions(request);
  if (req.subresource === 'scale') return sendFormatted(reply, 200, format, await updateScale(deps, req, body, opts));
  const { object, created } = await deps.generic.update(req.def, locationOf(req), body, {
    ...opts,
    subresource: writtenPart(req),
  });
  addWarnings(reply, req, opts.warnings);
  return sendFormatted(reply, created ? 201 : 200, format, object);
}

export async function handlePatch(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const type = patchTypeOf(contentType(request));
  const accepted = acceptedPatchTypes(req.def.schema);
  if (type === undefined || !accepted.includes(type)) throw unsupportedPatchType(accepted);
  if (type === 'apply') return handleApply(deps, req, request, reply);
  const patch = await decodeBody(request);
  const opts = writeOptions(request);
  if (boolParam(request.query as Query, 'force') !== undefined) {
    throw new ApiError(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch', {
      causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }],
    });
  }
  // A strategic patch of the scale subresource follows the Scale's schema, not the workload's.
  const schema = req.subresource === 'scale' ? scaleSchema : req.def.schema;
  const applyPatch = (current: KubeObject): KubeObject => {
    if (type === 'json') return applyJsonPatch(current, patch);
    if (type === 'merge') return applyMergePatch(current, patch);
    return applyStrategicMergePatch(current, patch, schema);
  };
  if (req.subresource === 'scale') return sendFormatted(reply, 200, format, await patchScale(deps, req, applyPatch, opts));
  const patched = await deps.generic.mutate(req.def, locationOf(req), applyPatch, { ...opts, subresource: writtenPart(req) });
  addWarnings(reply, req, opts.warnings);
  return sendFormatted(reply, 200, format, patched);
}

function patchOptionsInvalid(field: string, reason: 'FieldValueRequired' | 'FieldValueForbidden', detail: string): ApiError {
  const message = `${reason === 'FieldValueRequired' ? 'Required value' : 'Forbidden'}: ${detail}`;
  return new ApiError(422, 'Invalid', `PatchOptions.meta.k8s.io "" is invalid: ${field}: ${message}`, { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason, message, field }] });
}

/**
 * Server-side apply (`application/apply-patch+yaml`): the configuration is merged into the live
 * object (or creates it) by `applyConfiguration`, which also decides ownership and conflicts;
 * the result is written like any update, its managedFields kept as computed.
 */
async function handleApply(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const query = request.query as Query;
  if (!param(query, 'fieldManager')) throw patchOptionsInvalid('fieldManager', 'FieldValueRequired', 'is required for apply patch');
  if (req.subresource === 'scale') throw unsupportedPatchType(acceptedPatchTypes(scaleSchema).filter((t) => t !== 'apply'));
  const config = await decodeBody(request);
  const opts = writeOptions(request);
  const force = boolParam(query, 'force') ?? false;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    // sigs.k8s.io/yaml's words for a configuration that is no map.
    throw new ApiError(400, 'BadRequest', `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goJsonValueName(config)} into Go value of type map[string]interface {}`);
  }
  const checked = deps.generic.checkBody(req.def, config as KubeObject, opts);
  if (checked.metadata.name !== undefined && checked.metadata.name !== req.name) {
    throw new ApiError(400, 'BadRequest', `the name of the object (${checked.metadata.name}) does not match the name on the URL (${req.name})`);
  }
  // Checked for types and unknown fields, but the configuration itself is what was sent (minus dropped fields).
  const applied = (live: KubeObject | undefined): KubeObject => {
    const result = applyConfiguration({
      schema: req.def.schema,
      resetFields: req.subresource === 'status' ? fieldsOutside(req.def.schema, ['status']) : req.def.status ? statusResetFields() : new FieldSet(),
      live,
      config: { ...(config as Record<string, JsonValue>), metadata: { ...(checked.metadata as Record<string, JsonValue>) } } as JsonObject,
      manager: opts.fieldManager!,
      force,
      apiVersion: req.def.apiVersion,
      kind: req.def.kind,
      subresource: req.subresource,
      now: new Date(),
    });
    if (result.conflicts) throw applyConflictError(result.conflicts);
    return result.object;
  };
  const loc = locationOf(req);
  let object: KubeObject;
  let code = 200;
  try {
    object = await deps.generic.mutate(req.def, loc, (live) => applied(live), { ...opts, subresource: writtenPart(req), applied: true });
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'NotFound' && err.details?.name === req.name) || req.subresource) throw err;
    object = await deps.generic.create(req.def, { tenant: req.tenant, namespace: req.namespace }, applied(undefined), { ...opts, applied: true });
    code = 201;
  }
  addWarnings(reply, req, opts.warnings);
  return sendFormatted(reply, code, format, object);
}

/** DeleteOptions from the body (kubectl sends one) and the query (curl users do). */
async function deleteOptions(request: FastifyRequest): Promise<DeleteOptions & { warnings: string[] }> {
  const parsed = parseDeleteOptions(hasBody(request) ? await decodeObjectBody(request, 'DeleteOptions') : {}, request.query as Query);
  // Who deletes, for admission (webhooks are sent DELETEs with the requester's identity).
  const { warnings, auditAnnotations, user } = writeOptions(request);
  return { ...parsed, warnings, auditAnnotations, user };
}

export async function handleDelete(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const opts = await deleteOptions(request);
  const { object, deleted } = await deps.generic.delete(req.def, locationOf(req), opts);
  addWarnings(reply, req, opts.warnings);
  // As kube-apiserver: 202 only for a cascading delete asked for the legacy way and still pending.
  if (!deleted) return sendFormatted(reply, opts.orphanDependents === false ? 202 : 200, format, object);
  if (req.def.returnDeletedObject) return sendFormatted(reply, 200, format, object);
  return sendFormatted(reply, 200, format, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: object.metadata.name, group: req.def.group, kind: req.def.resource, uid: object.metadata.uid },
  });
}

export async function handleDeleteCollection(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const query = request.query as Query;
  const items = await deps.generic.deleteCollection(
    req.def,
    { tenant: req.tenant, namespace: req.namespace },
    { labelSelector: labelSelectorParam(query), fieldMatch: fieldSelectorParam(query, req.def) },
    await deleteOptions(request),
  );
  return sendFormatted(reply, 200, format, { kind: req.def.listKind, apiVersion: req.def.apiVersion, metadata: {}, items });
}
