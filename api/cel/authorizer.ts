/**
 * Kubernetes' authorizer CEL library (`apiserver/pkg/cel/library/authz.go`), which admission
 * policies offer as the `authorizer` variable: `authorizer.group('apps').resource('deployments')
 * .namespace('ns').name('web').check('update').allowed()`, `authorizer.path('/healthz')
 * .check('get')`, `authorizer.serviceAccount('ns', 'sa')…`, and a decision's `allowed()`,
 * `reason()`, `errored()`, `error()`. Every check asks the server's own authorizer about the
 * requester (or the service account named) in the request's space, so a policy learns only what
 * that identity may do there.
 *
 * At run time each value is the JSON text of what it has gathered (as URLs and quantities are
 * texts here), and a check reads the request it is about from `withAuthorizer`, which policy
 * evaluation sets around each synchronous run.
 *
 * @example
 *   withAuthorizer(context, () => evaluate(program, { authorizer: AUTHORIZER_ROOT, … }));
 */
import { celError, type CelValue } from '@bufbuild/cel';
import type { AccessAttributes, AccessDecision, UserInfo } from '../access.js';
import { libraryOf, opaqueMethod, type Declaration } from './declare.js';
import { BOOL, STRING, type CelType } from './types.js';

const type = (name: string): CelType => ({ kind: 'object', name: `kubernetes.authorization.${name}`, fields: {}, max: 0 });
export const AUTHORIZER_TYPE = type('Authorizer');
const PATH_CHECK = type('PathCheck');
const GROUP_CHECK = type('GroupCheck');
const RESOURCE_CHECK = type('ResourceCheck');
const DECISION = type('Decision');

/** What a check is asked about: the requester, its space, and the server's authorizer. */
export interface AuthorizerContext {
  user: UserInfo;
  tenant: string;
  authorize(user: UserInfo, attrs: AccessAttributes): AccessDecision;
}

interface State {
  /** A service account asked about instead of the requester (`system:serviceaccount:<ns>:<name>`). */
  serviceAccount?: { namespace: string; name: string };
  path?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  allowed?: boolean;
  reason?: string;
  error?: string;
}

/** The `authorizer` variable's value. */
export const AUTHORIZER_ROOT = '{}';

let active: AuthorizerContext | undefined;

/** Runs `fn` (one synchronous evaluation) with checks answered for `context`. */
export function withAuthorizer<T>(context: AuthorizerContext | undefined, fn: () => T): T {
  const before = active;
  active = context;
  try {
    return fn();
  } finally {
    active = before;
  }
}

const read = (self: string): State => JSON.parse(self) as State;
const next = (self: string, change: State): string => JSON.stringify({ ...read(self), ...change });
const isString = (t: CelType): boolean => t.kind === 'string' || t.kind === 'dyn';

function checkAccess(self: string, verb: CelValue): string {
  const state = read(self);
  if (!active) throw celError('the authorizer is not available here');
  const sa = state.serviceAccount;
  const user: UserInfo = sa
    ? { name: `system:serviceaccount:${sa.namespace}:${sa.name}`, uid: '', groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`, 'system:authenticated'], tenant: active.tenant, extra: {} }
    : active.user;
  const attrs: AccessAttributes =
    state.path !== undefined
      ? { verb: String(verb), path: state.path, tenant: active.tenant }
      : { verb: String(verb), group: state.group ?? '', resource: state.resource ?? '', subresource: state.subresource ?? '', namespace: state.namespace ?? '', name: state.name ?? '', tenant: active.tenant };
  try {
    const decision = active.authorize(user, attrs);
    return JSON.stringify({ allowed: decision.allowed, reason: decision.reason });
  } catch (err) {
    return JSON.stringify({ allowed: false, reason: '', error: (err as Error).message });
  }
}

/** A method that narrows or reads a value, declared on the types it belongs to. */
function method(name: string, owners: CelType[], params: number, result: CelType, impl: (self: string, ...args: CelValue[]) => CelValue): [ReturnType<typeof opaqueMethod>[0], Declaration] {
  const [func] = opaqueMethod(owners[0]!, name, Array.from({ length: params }, () => isString), result, impl);
  const names = new Set(owners.map((o) => (o.kind === 'object' ? o.name : '')));
  return [func, (target, args) => (target?.kind === 'object' && names.has(target.name) && args.length === params && args.every(isString) ? result : undefined)];
}

export const authorizerLibrary = libraryOf(
  [
    method('path', [AUTHORIZER_TYPE], 1, PATH_CHECK, (self, path) => next(self, { path: String(path) })),
    method('group', [AUTHORIZER_TYPE], 1, GROUP_CHECK, (self, group) => next(self, { group: String(group) })),
    method('serviceAccount', [AUTHORIZER_TYPE], 2, AUTHORIZER_TYPE, (self, namespace, name) => next(self, { serviceAccount: { namespace: String(namespace), name: String(name) } })),
    method('resource', [GROUP_CHECK], 1, RESOURCE_CHECK, (self, resource) => next(self, { resource: String(resource) })),
    method('subresource', [RESOURCE_CHECK], 1, RESOURCE_CHECK, (self, subresource) => next(self, { subresource: String(subresource) })),
    method('namespace', [RESOURCE_CHECK], 1, RESOURCE_CHECK, (self, namespace) => next(self, { namespace: String(namespace) })),
    method('name', [RESOURCE_CHECK], 1, RESOURCE_CHECK, (self, name) => next(self, { name: String(name) })),
    method('check', [PATH_CHECK, RESOURCE_CHECK], 1, DECISION, checkAccess),
    method('allowed', [DECISION], 0, BOOL, (self) => read(self).allowed === true),
    method('reason', [DECISION], 0, STRING, (self) => read(self).reason ?? ''),
    method('errored', [DECISION], 0, BOOL, (self) => read(self).error !== undefined),
    method('error', [DECISION], 0, STRING, (self) => read(self).error ?? ''),
  ],
  // kube charges a check 350,000 (a webhook authorizer may answer it); here the RBAC index answers
  // from memory in microseconds, and the runtime budget measures time on the event loop.
  { check: () => 10_000 },
);
