/**
 * The root CA publisher (kube-controller-manager's `rootcacertpublisher`): one instance over every
 * space keeps a `kube-root-ca.crt` ConfigMap in each namespace holding the CA that signs the
 * server's certificate, so pods can verify the API server. Made when the namespace appears, made
 * again when deleted, its data and description put back when changed. Namespaces and tenants
 * being deleted are left alone, so their teardowns converge. Queue keys are namespaces (tenant
 * included). A client of the API, as `system:controller:root-ca-cert-publisher`; its ConfigMap
 * informer holds only the published ConfigMaps (a field selector on the name).
 */
import { isAlreadyExists, isForbidden, isNotFound } from '../../src/client/api-status.js';
import { configMaps } from '../../src/client/builtin-kinds.js';
import type { ConfigMap } from '../../src/client/kind-types.generated.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
/** The informer's selector: the only ConfigMaps this controller reads. */
export const ROOT_CA_FIELD_SELECTOR = `metadata.name=${ROOT_CA_CONFIG_MAP}`;
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherDeps {
  /** Acts as the root CA publisher. */
  client: KubeClient;
  /** PEM of the CA to publish. */
  caBundle: string;
  tenants: Informer;
  namespaces: Informer;
  /** ConfigMaps named ROOT_CA_CONFIG_MAP in every space (ROOT_CA_FIELD_SELECTOR). */
  rootCaConfigMaps: Informer;
  log: { error(obj: object, msg: string): void };
}

async function reconcileNamespace(deps: RootCaPublisherDeps, key: ObjectKey): Promise<ReconcileResult> {
  const namespace = deps.namespaces.get(key);
  if (!namespace || namespace.metadata.deletionTimestamp) return done;
  const tenant = deps.tenants.get({ tenant: '', namespace: '', name: key.tenant });
  if (!tenant || tenant.metadata.deletionTimestamp) return done;
  const current = deps.rootCaConfigMaps.get({ tenant: key.tenant, namespace: key.name, name: ROOT_CA_CONFIG_MAP }) as ConfigMap | undefined;
  const data = { 'ca.crt': deps.caBundle };
  const resource = deps.client.space(key.tenant).namespace(key.name).resource(configMaps);
  try {
    if (!current) {
      await resource.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIG_MAP, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data });
    } else if (current.data?.['ca.crt'] !== deps.caBundle || Object.keys(current.data).length !== 1 || current.metadata.annotations?.[DESCRIPTION_ANNOTATION] !== DESCRIPTION) {
      // Keys other than ca.crt are removed (null in a merge patch).
      const stale = Object.fromEntries(Object.keys(current.data ?? {}).map((k) => [k, null]));
      await resource.patch(ROOT_CA_CONFIG_MAP, 'merge', { metadata: { annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data: { ...stale, ...data } });
    }
  } catch (err) {
    // Made meanwhile (AlreadyExists), deleted meanwhile (NotFound: its deletion brings us back), or
    // the namespace or tenant started going away (Forbidden): nothing left to do now.
    if (isAlreadyExists(err) || isNotFound(err) || isForbidden(err)) return done;
    throw err;
  }
  return done;
}

export function rootCaPublisher(deps: RootCaPublisherDeps): Controller {
  const controller = new Controller({ name: 'root-ca-cert-publisher', reconcile: (key) => reconcileNamespace(deps, key), log: deps.log });
  deps.namespaces.onChange((key, obj) => {
    if (obj && !obj.metadata.deletionTimestamp) controller.enqueue(key);
  });
  deps.rootCaConfigMaps.onChange((key) => controller.enqueue({ tenant: key.tenant, namespace: '', name: key.namespace }));
  return controller;
}
