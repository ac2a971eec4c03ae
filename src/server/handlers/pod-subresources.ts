/**
 * The pod subresources that are actions rather than parts of the pod, as kube-apiserver serves
 * them (`pkg/registry/core/pod/storage/storage.go`, `eviction.go`, `pkg/registry/core/pod/strategy.go`):
 *
 * - `binding`: a v1 Binding places the pod on a node, once (the scheduler's write);
 * - `eviction`: a policy/v1 (or v1beta1) Eviction deletes the pod unless a PodDisruptionBudget of
 *   its namespace forbids it, taking one of the budget's allowed disruptions;
 * - `exec`, `attach`, `portforward`: streams a kubelet serves. No kubelet runs here, so these
 *   answer the Status kube-apiserver gives when it cannot reach one, never a bare 404.
 *
 * Everything is read and written in the request's own space: the pod, its budgets, its node name.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkTypeMeta, type TypeMeta } from '../../../api/registry/api-errors.js';
import { nowTimestamp, type DeleteOptions, type ReviewedWrite } from '../../../api/registry/generic-store.js';
import { anything } from '../../../api/schema/schema.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { Pod, PodCondition } from '../../../api/kinds/core/types.js';
import type { PodDisruptionBudget } from '../../../api/kinds/policy/poddisruptionbudget.js';
import { labelSelectorMatches, type LabelSelector } from '../../../api/validation/label-selector.js';
import type { HandlerDeps } from './handler-deps.js';
import { decodeObjectBody, negotiateFormat, sendFormatted } from '../negotiate.js';
import { ApiError } from '../../../api/status.js';
import { parseDeleteOptions } from './delete-options.js';
import { dryRunParam, param, type Query } from './query.js';
import { locationOf } from './read-handlers.js';
import type { ResourceRequest } from './resolve-resource.js';

/** Conflicts on a budget are retried this often before the eviction gives up, as kube-apiserver's EvictionsRetry. */
const BUDGET_UPDATE_ATTEMPTS = 20;
/** Evictions approved but not yet seen by the disruption controller, beyond which a budget refuses more. */
const MAX_DISRUPTED_PODS = 2000;
/** Admission never mutates an eviction (the pod's delete runs no mutating phase): any shape will do. */
const EVICTION_SCHEMA = anything('An Eviction of a pod.');
const EVICTION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

/** What a successful binding or eviction answers: a Success Status carrying the create's code. */
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

async function bodyOf(request: FastifyRequest, kinds: readonly [TypeMeta, ...TypeMeta[]]): Promise<KubeObject> {
  const body = await decodeObjectBody(request, kinds[0].kind);
  checkTypeMeta(body, kinds);
  const obj = body as KubeObject;
  obj.metadata ??= {};
  return obj;
}

/** A subresource body may name its space, but only the request's. */
function checkBodyPlace(req: ResourceRequest, obj: KubeObject, kind: string): void {
  if (obj.metadata.name !== req.name) throw new ApiError(400, 'BadRequest', `name in URL does not match name in ${kind} object`);
  if (obj.metadata.tenant !== undefined && obj.metadata.tenant !== req.tenant) {
    throw new ApiError(400, 'BadRequest', `the tenant of the object (${obj.metadata.tenant}) does not match the tenant on the URL (${req.tenant})`);
  }
  if (obj.metadata.namespace && obj.metadata.namespace !== req.namespace) {
    throw new ApiError(400, 'BadRequest', `the namespace of the provided object does not match the namespace sent on the request`);
  }
}

const isReason = (err: unknown, reason: ApiError['reason']): boolean => err instanceof ApiError && err.reason === reason;

// ---- binding ----------------------------------------------------------------------------------

interface Binding extends KubeObject {
  target?: { kind?: string; name?: string };
}

/** PodScheduled=True, as Kubernetes' UpdatePodCondition records it: the transition time moves only on a change. */
function scheduledConditions(conditions: readonly PodCondition[] | undefined): PodCondition[] {
  const old = (conditions ?? []).find((c) => c.type === 'PodScheduled');
  const scheduled: PodCondition = { type: 'PodScheduled', status: 'True', lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : nowTimestamp() };
  return old ? (conditions ?? []).map((c) => (c === old ? scheduled : c)) : [...(conditions ?? []), scheduled];
}

export async function handleBinding(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const binding = (await bodyOf(request, [{ apiVersion: 'v1', kind: 'Binding' }])) as Binding;
  checkBodyPlace(req, binding, 'Binding');
  const causes = [];
  const targetKind = binding.target?.kind ?? '';
  if (targetKind !== '' && targetKind !== 'Node') causes.push({ reason: 'FieldValueNotSupported', field: 'target.kind', message: `Unsupported value: ${JSON.stringify(targetKind)}: supported values: "Node", "<empty>"` });
  if (!binding.target?.name) causes.push({ reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' });
  if (causes.length > 0) {
    const lines = causes.map((c) => `${c.field}: ${c.message}`);
    throw new ApiError(422, 'Invalid', `Binding "${req.name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`, { name: req.name, kind: 'Binding', causes });
  }
  const node = binding.target!.name!;
  const refused = (why: string): ApiError => new ApiError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${req.name}": ${why}`, { name: req.name, kind: 'pods/binding' });
  const { uid, resourceVersion } = binding.metadata;
  await deps.generic.mutate(
    req.def,
    locationOf(req),
    (current) => {
      const pod = current as Pod;
      // The Binding's uid and resourceVersion, when given, are preconditions on the pod.
      if (uid && uid !== pod.metadata.uid) throw refused(`the UID in the precondition (${uid}) does not match the UID in record (${pod.metadata.uid}). The object might have been deleted and then recreated`);
      if (resourceVersion && resourceVersion !== pod.metadata.resourceVersion) throw refused('the object has been modified; please apply your changes to the latest version and try again');
      if (pod.metadata.deletionTimestamp) throw refused(`pod ${req.name} is being deleted, cannot be assigned to a host`);
      if (pod.spec?.nodeName) throw refused(`pod ${req.name} is already assigned to node ${JSON.stringify(pod.spec.nodeName)}`);
      if ((pod.spec?.schedulingGates ?? []).length > 0) throw refused(`pod ${req.name} has non-empty .spec.schedulingGates`);
      pod.spec = { ...pod.spec, nodeName: node };
      if (binding.metadata.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
      pod.status = { ...pod.status, conditions: scheduledConditions(pod.status?.conditions) };
      return pod;
    },
    { subresource: 'binding', dryRun: dryRunParam(request.query as Query), user: req.user },
  );
  return sendFormatted(reply, 201, format, SUCCESS);
}

// ---- eviction ---------------------------------------------------------------------------------

const EVICTION_KINDS: [TypeMeta, TypeMeta] = [
  { apiVersion: 'policy/v1', kind: 'Eviction' },
  { apiVersion: 'policy/v1beta1', kind: 'Eviction' },
];

function tooManyRequests(retryAfterSeconds: number, cause: string): ApiError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) };
  return new ApiError(429, 'TooManyRequests', EVICTION_MESSAGE, details);
}

const stillProcessed = (budget: string): ApiError => tooManyRequests(10, `The disruption budget ${budget} is still being processed by the server.`);

/** Pods that already caused their disruption (finished, never started, or going) are deleted without asking a budget. */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The budgets of the pod's namespace whose selector matches it; an empty or absent selector matches nothing here. */
async function budgetsOf(deps: HandlerDeps, pdbs: ResourceDefinition, req: ResourceRequest, pod: Pod): Promise<PodDisruptionBudget[]> {
  const { items } = await deps.generic.list(pdbs, { tenant: req.tenant, namespace: req.namespace });
  return (items as PodDisruptionBudget[]).filter((pdb) => {
    const selector = pdb.spec?.selector as LabelSelector | undefined;
    if (!selector || ((selector.matchLabels === undefined || Object.keys(selector.matchLabels).length === 0) && (selector.matchExpressions ?? []).length === 0)) return false;
    try {
      return labelSelectorMatches(selector, pod.metadata.labels);
    } catch {
      return false; // an invalid selector matches no pod
    }
  });
}

/** Takes one allowed disruption from the budget, recording the pod as disrupted, or refuses the eviction. */
function decrement(pdb: PodDisruptionBudget, podName: string, dryRun: boolean): PodDisruptionBudget {
  const name = pdb.metadata.name!;
  const status = (pdb.status ?? {}) as NonNullable<PodDisruptionBudget['status']> & { observedGeneration?: number; disruptedPods?: Record<string, string>; conditions?: Array<Record<string, unknown>> };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw stillProcessed(name);
  const allowed = status.disruptionsAllowed ?? 0;
  const forbidden = (why: string): ApiError =>
    new ApiError(403, 'Forbidden', `poddisruptionbudget.policy ${JSON.stringify(name)} is forbidden: ${why}`, { name, group: 'policy', kind: 'poddisruptionbudget' });
  if (allowed < 0) throw forbidden('pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) throw forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) throw tooManyRequests(0, `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`);
  const next: typeof status = { ...status, disruptionsAllowed: allowed - 1 };
  if (next.disruptionsAllowed === 0) {
    // Kubernetes' UpdateDisruptionAllowedCondition: DisruptionAllowed turns False (InsufficientPods).
    const old = (status.conditions ?? []).find((c) => c['type'] === 'DisruptionAllowed');
    const condition = {
      type: 'DisruptionAllowed',
      status: 'False',
      observedGeneration: status.observedGeneration,
      lastTransitionTime: old?.['status'] === 'False' ? old['lastTransitionTime'] : nowTimestamp(),
      reason: 'InsufficientPods',
      message: old?.['reason'] === 'InsufficientPods' ? (old['message'] ?? '') : '',
    };
    next.conditions = old ? (status.conditions ?? []).map((c) => (c === old ? condition : c)) : [...(status.conditions ?? []), condition];
  }
  if (!dryRun) next.disruptedPods = { ...status.disruptedPods, [podName]: nowTimestamp() };
  return { ...pdb, status: next };
}

export async function handleEviction(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const format = negotiateFormat(request.headers.accept, false);
  const query = request.query as Query;
  const eviction = (await bodyOf(request, EVICTION_KINDS)) as KubeObject & { deleteOptions?: unknown };
  checkBodyPlace(req, eviction, 'Eviction');
  // Webhooks and policies are asked about a CREATE of pods/eviction, not about the pod's delete, as kube-apiserver asks them.
  const version = eviction.apiVersion === 'policy/v1beta1' ? 'v1beta1' : 'v1';
  const reviewedAs: ReviewedWrite = { operation: 'create', subresource: 'eviction', kind: { group: 'policy', version, kind: 'Eviction' }, schema: EVICTION_SCHEMA, object: eviction, old: undefined };
  const asked: DeleteOptions = { ...parseDeleteOptions(eviction.deleteOptions ?? {}, {}), user: req.user, reviewedAs };
  // The request's dryRun and the Eviction's must agree; either one alone applies.
  const queryDryRun = param(query, 'dryRun') !== undefined;
  if (queryDryRun) asked.dryRun = asked.dryRun || dryRunParam(query);
  const pinnedVersion = asked.preconditions?.resourceVersion !== undefined;
  const loc = locationOf(req);
  const pdbs = deps.registry.lookup('policy', 'v1', 'poddisruptionbudgets')!;

  const deletePod = async (opts: DeleteOptions): Promise<unknown> => {
    await deps.generic.delete(req.def, loc, opts);
    return sendFormatted(reply, 201, format, SUCCESS);
  };
  /** Deleting at the version read keeps the pod from turning ready (and counted) in between. */
  const atVersion = (pod: Pod): DeleteOptions => (pinnedVersion ? asked : { ...asked, preconditions: { ...asked.preconditions, resourceVersion: pod.metadata.resourceVersion } });

  const pod = (await deps.generic.get(req.def, loc)) as Pod;
  if (canIgnoreBudget(pod)) {
    const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' || pod.metadata.deletionTimestamp !== undefined;
    return deletePod(terminal ? asked : atVersion(pod));
  }

  const budgets = await budgetsOf(deps, pdbs, req, pod);
  if (budgets.length > 1) {
    return sendFormatted(reply, 500, format, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
  }
  const budget = budgets[0];
  if (!budget) return deletePod(asked);

  const status = budget.status ?? {};
  // An unready pod counts for nothing healthy: with enough healthy pods it goes without taking a disruption.
  const unreadyWithinBudget = !isReady(pod) && (status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0;
  if (!unreadyWithinBudget) {
    let current: PodDisruptionBudget = budget;
    for (let attempt = 1; ; attempt++) {
      const next = decrement(current, req.name!, asked.dryRun ?? false);
      if (asked.dryRun) break;
      try {
        await deps.generic.update(pdbs, { tenant: req.tenant, namespace: req.namespace, name: budget.metadata.name! }, next, { subresource: 'status' });
        break;
      } catch (err) {
        if (!isReason(err, 'Conflict')) throw err;
        if (attempt >= BUDGET_UPDATE_ATTEMPTS) throw new ApiError(504, 'Timeout', `couldn't update PodDisruptionBudget ${JSON.stringify(budget.metadata.name)} due to conflicts`, { retryAfterSeconds: 10 });
        current = (await deps.generic.get(pdbs, { tenant: req.tenant, namespace: req.namespace, name: budget.metadata.name! })) as PodDisruptionBudget;
      }
    }
    return deletePod(asked);
  }
  try {
    return await deletePod(atVersion(pod));
  } catch (err) {
    // The pod changed since it was read: the client should ask again.
    if (isReason(err, 'Conflict') && !pinnedVersion) throw stillProcessed(budget.metadata.name!);
    throw err;
  }
}

// ---- exec, attach, portforward ----------------------------------------------------------------

/**
 * exec, attach and portforward are proxied to the kubelet of the pod's node. The pod and container
 * are checked first, with kube-apiserver's messages; then a pod on no node is a 400, and a pod on a
 * node gets a 503, as no kubelet here can serve the stream (a simulated one may later).
 */
export async function handleStream(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest): Promise<never> {
  const pod = (await deps.generic.get(req.def, locationOf(req))) as Pod;
  const spec = pod.spec ?? {};
  const name = req.name!;
  if (req.subresource !== 'portforward') {
    const container = param(request.query as Query, 'container');
    if (!container) {
      const containers = spec.containers ?? [];
      if (containers.length > 1) {
        const init = (spec.initContainers ?? []).map((c) => c.name);
        const initText = init.length > 0 ? ` or one of the init containers: [${init.join(' ')}]` : '';
        throw new ApiError(400, 'BadRequest', `a container name must be specified for pod ${name}, choose one of: [${containers.map((c) => c.name).join(' ')}]${initText}`);
      }
    } else if (![...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].some((c) => c.name === container)) {
      throw new ApiError(400, 'BadRequest', `container ${container} is not valid for pod ${name}`);
    }
  }
  if (!spec.nodeName) throw new ApiError(400, 'BadRequest', `pod ${name} does not have a host assigned`);
  throw new ApiError(503, 'ServiceUnavailable', `no kubelet serves node ${JSON.stringify(spec.nodeName)} of pod ${name}: this server runs no kubelets`);
}
