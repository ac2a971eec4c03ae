/**
 * A write's admission attributes as policies see them (`PolicyRequest`), and the JSON of the
 * `request` and `namespaceObject` variables, as kube's `CreateAdmissionRequest` and
 * `CreateNamespaceObject` build them.
 */
import { askedWrite, type AdmissionAttributes } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import { admissionRequestValue, type GroupVersionResource, type PolicyOperation, type PolicyRequest } from './policy-request.js';
import type { PolicyReaders } from './policy-sources.js';
import type { AuthorizerContext } from '../../cel/authorizer.js';

const OPERATIONS: Record<AdmissionAttributes['operation'], PolicyOperation> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE' };

export function policyRequestOf(attrs: AdmissionAttributes, readers: Pick<PolicyReaders, 'equivalents'>): PolicyRequest {
  const { def } = attrs;
  const asked = askedWrite(attrs);
  const isNamespace = def.group === '' && def.resource === 'namespaces';
  const name = asked.object.metadata.name ?? '';
  return {
    tenant: attrs.tenant,
    operation: OPERATIONS[asked.operation],
    gvr: { group: def.group, version: def.version, resource: def.resource },
    kind: asked.kind,
    subresource: asked.subresource,
    namespace: isNamespace ? name : (attrs.namespace ?? ''),
    name,
    object: asked.operation === 'delete' ? null : asked.object,
    oldObject: asked.operation === 'create' ? null : (asked.old ?? null),
    user: attrs.user,
    dryRun: attrs.dryRun === true,
    // A view (a Scale, an Eviction) is the same in every version of the resource.
    equivalents: asked.view ? [] : readers.equivalents(def),
  };
}

/** What the `authorizer` variable's checks are answered for: the requester, in the request's space. */
export function authorizerFor(attrs: AdmissionAttributes, readers: Pick<PolicyReaders, 'authorize'>): AuthorizerContext | undefined {
  const authorize = readers.authorize;
  if (!authorize || !attrs.user) return undefined;
  return { user: attrs.user, tenant: attrs.tenant, authorize: (user, access) => authorize.call(readers, user, access) };
}

export function requestValueFor(req: PolicyRequest, matched: GroupVersionResource): Record<string, unknown> {
  return admissionRequestValue(req, matched);
}

/** The namespace as CEL sees it: its name, uid, labels, annotations, creation time, spec and status only. */
export function namespaceObjectValue(ns: KubeObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const m = ns.metadata;
  return {
    metadata: {
      name: m.name,
      ...(m.generateName ? { generateName: m.generateName } : {}),
      ...(m.uid ? { uid: m.uid } : {}),
      ...(m.creationTimestamp ? { creationTimestamp: m.creationTimestamp } : {}),
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: (ns as { spec?: unknown }).spec ?? {},
    status: (ns as { status?: unknown }).status ?? {},
  };
}
