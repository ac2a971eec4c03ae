/**
 * The root CA publisher (kube-controller-manager's `rootcacertpublisher`): one instance over every
 * space keeps a `kube-root-ca.crt` ConfigMap in each namespace holding the CA that signs the
 * serving certificate, so pods can verify the API server. Made when the namespace appears, made
 * again when deleted, its data and description put back when changed. Namespaces and tenants
 * being deleted are left alone, so their teardowns converge. Queue keys are namespaces (tenant
 * included). Idle until the server hands over its CA (`publish`).
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { ApiError } from '../../api/status.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { ObjectKey } from '../../src/client/object-key.js';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherDeps {
  generic: GenericStore;
  tenants: Informer;
  namespaces: Informer;
  configMaps: Informer;
  configMapDef: ResourceDefinition;
  log: { error(obj: object, msg: string): void };
}

type Annotations = Record<string, string>;

export class RootCaPublisher {
  private caBundle: string | undefined;
  readonly controller: Controller;

  constructor(private readonly deps: RootCaPublisherDeps) {
    this.controller = new Controller({ name: 'root-ca-publisher', reconcile: (key) => this.reconcile(key), log: deps.log });
    deps.namespaces.onChange((key, obj) => {
      if (obj && !obj.metadata.deletionTimestamp) this.controller.enqueue(key);
    });
    deps.configMaps.onChange((key) => {
      if (key.name === ROOT_CA_CONFIG_MAP) this.controller.enqueue({ tenant: key.tenant, namespace: '', name: key.namespace });
    });
  }

  /** Sets the CA bundle (PEM) to publish and reconciles every namespace of every space against it. */
  publish(caBundle: string): void {
    this.caBundle = caBundle;
    for (const ns of this.deps.namespaces.lister().list()) this.controller.enqueue({ tenant: ns.metadata.tenant ?? '', namespace: '', name: ns.metadata.name! });
  }

  private async reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const caBundle = this.caBundle;
    if (caBundle === undefined) return done;
    const namespace = this.deps.namespaces.get(key);
    if (!namespace || namespace.metadata.deletionTimestamp) return done;
    const tenant = this.deps.tenants.get({ tenant: '', namespace: '', name: key.tenant });
    if (!tenant || tenant.metadata.deletionTimestamp) return done;
    await this.deps.configMaps.waitForSync();
    const loc = { tenant: key.tenant, namespace: key.name, name: ROOT_CA_CONFIG_MAP };
    const data = { 'ca.crt': caBundle };
    const current = this.deps.configMaps.get(loc);
    try {
      if (!current) {
        await this.deps.generic.create(this.deps.configMapDef, loc, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIG_MAP, namespace: key.name, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data,
        });
      } else if (!semanticEqual(current.data, data) || !(current.metadata.annotations as Annotations | undefined)?.[DESCRIPTION_ANNOTATION]) {
        await this.deps.generic.mutate(this.deps.configMapDef, loc, (cm: KubeObject) => ({
          ...cm,
          metadata: { ...cm.metadata, annotations: { ...(cm.metadata.annotations as Annotations | undefined), [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data,
        }));
      }
    } catch (err) {
      // Made meanwhile (AlreadyExists), deleted meanwhile (NotFound: its deletion brings us back), or
      // the namespace or tenant started going away (Forbidden): nothing left to do now.
      if (err instanceof ApiError && (err.reason === 'AlreadyExists' || err.reason === 'Forbidden' || err.reason === 'NotFound')) return done;
      throw err;
    }
    return done;
  }
}
