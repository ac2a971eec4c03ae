/**
 * The control plane behind the HTTP server: the registry of kinds, the generic store with its
 * admission plugins, and the controllers that still run on the server's own watch cache and store
 * (those on the client run in the controller manager, see in-process-controller-manager.ts).
 * `serve` builds one; tests build one over a temporary store.
 *
 * @example
 *   const plane = await startControlPlane(store, { serviceClusterIpRange: '10.96.0.0/12', log });
 *   const app = buildApp({ ...plane, store, ... });
 *   await plane.stop();
 */
import { ClusterIpAllocator, clusterIpAdmission, parseIpv4Range } from '../api/admission/cluster-ip.js';
import { NodePortAllocator, nodePortAdmission } from '../api/admission/node-port.js';
import { namespaceLifecycle } from '../api/admission/namespace-lifecycle.js';
import { resourceQuotaAdmission } from '../api/admission/resource-quota.js';
import { SpaceQuotaAdmission, hasSpaceLimits, isCounted, limitsSpaceBytes } from '../api/admission/space-quota.js';
import type { Tenant } from '../api/kinds/core/tenant.js';
import { limitRanger } from '../api/admission/limit-ranger.js';
import { serviceResolver } from '../api/admission/webhooks/service-resolver.js';
import { WebhookAdmission } from '../api/admission/webhooks/webhook-admission.js';
import type { WebhookConfiguration } from '../api/kinds/admissionregistration/webhook-types.js';
import { DEFAULT_POD_SECURITY_EXEMPTIONS, podSecurityAdmission, type PodSecurityExemptions } from '../api/admission/pod-security/pod-security.js';
import type { LimitRange } from '../api/kinds/core/types.js';
import { sharedCrdNames } from '../api/admission/shared-crd-names.js';
import { systemDaemonSets } from '../api/admission/system-daemonsets.js';
import { isSharedCrd } from '../api/kinds/apiextensions/types.js';
import { SYSTEM_TENANT, tenantLifecycle } from '../api/admission/tenant-lifecycle.js';
import { builtinKinds } from '../api/kinds/index.js';
import { GenericStore, type ObjectLocation } from '../api/registry/generic-store.js';
import { WatchCaches } from '../api/registry/watch-cache.js';
import type { KubeObject } from '../api/registry/object.js';
import { ResourceRegistry } from '../api/registry/registry.js';
import type { ResourceDefinition } from '../api/registry/resource-definition.js';
import { KubernetesServiceController } from './apiserver-controllers/kubernetes-service/kubernetes-service-controller.js';
import type { AdvertisedEndpoint } from './apiserver-controllers/kubernetes-service/kubernetes-service-objects.js';
import { crdStatusController } from './apiserver-controllers/crd-status/crd-status-controller.js';
import { policyStatusController } from './apiserver-controllers/policy-status/policy-status-controller.js';
import { EventExpiry } from './apiserver-controllers/event-ttl/event-expiry.js';
import type { Controller } from '../controllers/runtime/controller.js';
import { inProcessSource } from './apiserver-controllers/in-process-source.js';
import type { Informer } from '../controllers/runtime/informer.js';
import { InformerFactory } from '../controllers/runtime/informer-factory.js';
import type { ObjectKey } from './client/object-key.js';
import { INITIAL_NAMESPACES, initialNamespace } from '../controllers/tenant/space-layout.js';
import { ensureBootstrapPolicy } from './apiserver-controllers/ensure-bootstrap-policy.js';
import { ensureFlowControlDefaults } from './apiserver-controllers/ensure-flow-control-defaults.js';
import { flowSchemaStatusController } from './apiserver-controllers/flow-schema-status/flow-schema-status-controller.js';
import { Authorizer } from '../authz/authorize.js';
import { RbacIndex, type RbacKind } from '../authz/rbac/rbac-index.js';
import { cachedServiceAccountLookup, storeServiceAccountLookup, type ServiceAccountLookup } from '../authz/service-account-authenticator.js';
import { rbacEscalationAdmission } from '../authz/rbac/escalation.js';
import { certificateSigningAdmission } from '../authz/certificate-signing-admission.js';
import type { Store } from '../storage/store.js';
import { DEFAULT_STORAGE_CLUSTER, StorageClusters } from '../storage/storage-clusters.js';
import { storageClusterAdmission } from '../api/admission/storage-cluster.js';
import { NodeUsage } from './server/handlers/above-spaces.js';
import { ensureLocalAPIServices } from './apiserver-controllers/apiregistration/ensure-local-api-services.js';
import { ApiError } from '../api/status.js';
import { validatingPolicyAdmission } from '../api/admission/policies/validating-policy-admission.js';
import { mutatingPolicyAdmission } from '../api/admission/policies/mutating-policy-admission.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../api/kinds/admissionregistration/mutating-admission-policy.js';
import type { PolicyReaders } from '../api/admission/policies/policy-sources.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../api/kinds/admissionregistration/validating-admission-policy.js';

export interface ControlPlaneOptions {
  /** The service IP range every space allocates cluster IPs from. */
  serviceClusterIpRange: string;
  /** What PodSecurity admission skips; DEFAULT_POD_SECURITY_EXEMPTIONS when absent. */
  podSecurityExemptions?: PodSecurityExemptions;
  /** How long an event is kept after its last write (`--event-ttl`); EVENT_TTL_MS when absent. */
  eventTtlMs?: number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface ControlPlane {
  registry: ResourceRegistry;
  generic: GenericStore;
  /** Serves every watch, the controllers' and the clients'. */
  watchCaches: WatchCaches;
  /** Decides every request and review; its RBAC view has synced before the plane is returned. */
  authorizer: Authorizer;
  /** Whether a Tenant exists, from the shared informer (synced before the plane is returned). */
  tenantExists(name: string): boolean;
  /** The uid of the live Tenant of that name; undefined when there is none. */
  tenantUid(name: string): string | undefined;
  /** The live service account a token names: from the shared informer, else storage. */
  serviceAccountLookup: ServiceAccountLookup;
  /** Which nodes run pods of which space, kept by the shared pods informer. */
  nodeUsage: NodeUsage;
  /** The FlowSchemas and PriorityLevelConfigurations (synced before the plane is returned), for API Priority and Fairness. */
  flowControlObjects: { flowSchemas: Informer; priorityLevels: Informer };
  /** The `kubernetes` Service's endpoint in every space, once the server listens; until then that controller waits. */
  advertise(apiServer: AdvertisedEndpoint): void;
  /** Stops publishing this server's endpoint (another replica publishes its own). */
  withdraw(): void;
  stop(): Promise<void>;
}

function requireKind(registry: ResourceRegistry, group: string, resource: string): ResourceDefinition {
  const def = registry.all().find((d) => d.group === group && d.resource === resource);
  if (!def) throw new Error(`built-in kind ${group}/${resource} is missing`);
  return def;
}

/**
 * Reads an object for admission: from the informer's cache when it has it, else from storage, so
 * an object created a moment ago (not yet seen by the informer) is still found.
 */
function cachedReader(informer: Informer, generic: GenericStore, def: ResourceDefinition) {
  return async (key: ObjectKey): Promise<KubeObject | undefined> => {
    const cached = informer.get(key);
    if (cached) return cached;
    const loc: ObjectLocation = { tenant: key.tenant, namespace: key.namespace || undefined, name: key.name };
    try {
      return await generic.get(def, loc);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
}

async function createIfAbsent(generic: GenericStore, def: ResourceDefinition, obj: KubeObject, tenant = ''): Promise<void> {
  try {
    await generic.create(def, { tenant }, obj);
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
  }
}

export async function startControlPlane(storage: Store | StorageClusters, options: ControlPlaneOptions): Promise<ControlPlane> {
  const clusters = storage instanceof StorageClusters ? storage : new StorageClusters(storage);
  // Every key to the storage cluster of its space (the default store when none is configured).
  const store = clusters.routed;
  const registry = new ResourceRegistry(builtinKinds);
  const tenantDef = requireKind(registry, '', 'tenants');
  const kinds = {
    namespaces: requireKind(registry, '', 'namespaces'),
    clusterRoles: requireKind(registry, 'rbac.authorization.k8s.io', 'clusterroles'),
    clusterRoleBindings: requireKind(registry, 'rbac.authorization.k8s.io', 'clusterrolebindings'),
  };

  // Admission reads tenants and namespaces through informers that need the generic store: the
  // plugins are handed readers that look the informers up when called.
  const readers: { tenant?: (key: ObjectKey) => Promise<KubeObject | undefined>; namespace?: (key: ObjectKey) => Promise<KubeObject | undefined> } = {};
  // The same for the namespace-scoped admission objects (quotas, limit ranges), from their informers.
  const namespaced: { quotas?: Informer; limitRanges?: Informer; pods?: Informer } = {};
  // Webhook configurations, and the services and endpoints their service references name, from informers.
  const webhookInformers: { validating?: Informer; mutating?: Informer; services?: Informer; endpoints?: Informer } = {};
  const fromCache = (informer: () => Informer | undefined, def: ResourceDefinition) => {
    return (tenant: string, namespace: string, name: string) => cachedReader(informer()!, generic, def)({ tenant, namespace, name });
  };
  // Where admission and CRD conversion webhooks' service references answer.
  const resolveWebhookService = serviceResolver({
    service: fromCache(() => webhookInformers.services, requireKind(registry, '', 'services')),
    endpoints: fromCache(() => webhookInformers.endpoints, requireKind(registry, '', 'endpoints')),
  });
  const quotaDef = requireKind(registry, '', 'resourcequotas');
  const allocator = new ClusterIpAllocator(store, parseIpv4Range(options.serviceClusterIpRange));
  // RBAC decisions read every space's roles and bindings from memory, kept by the shared informers below.
  const rbac = new RbacIndex();
  // Shared system CRDs are known from the CRD informer, made below with the generic store it needs.
  const crdInformer: { current?: Informer } = {};
  const isSharedCrdName = (name: string): boolean => {
    const crd = crdInformer.current?.get({ tenant: SYSTEM_TENANT, namespace: '', name });
    return crd !== undefined && isSharedCrd(crd);
  };
  const authorizer = new Authorizer(rbac, registry.all().filter((d) => d.scope === 'cluster'), isSharedCrdName);
  // Admission policies and their bindings, from informers made below; params from the watch cache.
  const policyInformers: { validating?: Informer; validatingBindings?: Informer; mutating?: Informer; mutatingBindings?: Informer } = {};
  const watchCacheRef: { current?: WatchCaches } = {};
  const policyReaders: PolicyReaders = {
    namespace: (tenant, name) => readers.namespace!({ tenant, namespace: '', name }),
    kindFor: (tenant, apiVersion, kind) => registry.view(tenant).all().find((d) => d.apiVersion === apiVersion && d.kind === kind),
    get: (def, tenant, namespace, name) => watchCacheRef.current!.get(def, { tenant, namespace, name }),
    select: async (def, tenant, namespace, labelSelector) => (await watchCacheRef.current!.list(def, { tenant, namespace }, { labelSelector })).items,
    equivalents: (def) =>
      registry
        .all()
        .filter((d) => d !== def && d.storage.group === def.storage.group && d.storage.resource === def.storage.resource)
        .map((d) => ({ group: d.group, version: d.version, resource: d.resource })),
    authorize: (user, attrs) => authorizer.authorize(user, attrs),
  };
  const tenantInformer: { current?: Informer } = {};
  const readCachedTenant = (name: string): Tenant | undefined => tenantInformer.current?.lister<Tenant>().get({ tenant: '', namespace: '', name });
  const spaceQuota = new SpaceQuotaAdmission({
    store,
    tenantDef,
    spaceKinds: (tenant) => registry.view(tenant).all(),
    hasLimits: (tenant) => hasSpaceLimits(readCachedTenant(tenant)),
    limitsBytes: (tenant) => limitsSpaceBytes(readCachedTenant(tenant)),
  });
  const generic = new GenericStore(clusters, [
    rbacEscalationAdmission(authorizer),
    certificateSigningAdmission(authorizer),
    sharedCrdNames(isSharedCrdName),
    systemDaemonSets(),
    tenantLifecycle((name) => readers.tenant!({ tenant: '', namespace: '', name })),
    storageClusterAdmission(clusters.ids.filter((id) => id !== DEFAULT_STORAGE_CLUSTER)),
    namespaceLifecycle((tenant, name) => readers.namespace!({ tenant, namespace: '', name })),
    limitRanger((tenant, namespace) => namespaced.limitRanges!.lister<LimitRange>().list({ tenant, namespace })),
    podSecurityAdmission({
      readNamespace: (tenant, name) => readers.namespace!({ tenant, namespace: '', name }),
      podsIn: (tenant, namespace) => namespaced.pods!.lister().list({ tenant, namespace }),
      exemptions: options.podSecurityExemptions ?? DEFAULT_POD_SECURITY_EXEMPTIONS,
    }),
    clusterIpAdmission(allocator),
    nodePortAdmission(new NodePortAllocator(store)),
    mutatingPolicyAdmission({
      lister: {
        policies: (tenant) => policyInformers.mutating!.lister<MutatingAdmissionPolicy>().list({ tenant }),
        bindings: (tenant) => policyInformers.mutatingBindings!.lister<MutatingAdmissionPolicyBinding>().list({ tenant }),
      },
      readers: policyReaders,
    }),
    validatingPolicyAdmission({
      lister: {
        policies: (tenant) => policyInformers.validating!.lister<ValidatingAdmissionPolicy>().list({ tenant }),
        bindings: (tenant) => policyInformers.validatingBindings!.lister<ValidatingAdmissionPolicyBinding>().list({ tenant }),
      },
      readers: policyReaders,
    }),
    // kube-apiserver's order: the webhooks after the policies (each phase runs in this order), before quota.
    new WebhookAdmission({
      systemTenant: SYSTEM_TENANT,
      configurations: (kind, tenant) => (kind === 'validating' ? webhookInformers.validating! : webhookInformers.mutating!).lister<WebhookConfiguration>().list({ tenant }),
      readNamespace: (tenant, name) => readers.namespace!({ tenant, namespace: '', name }),
      resolveService: resolveWebhookService,
      equivalents: (tenant, def) => registry.view(tenant).all().filter((d) => d !== def && d.storage.group === def.storage.group && d.storage.resource === def.storage.resource),
      log: { warn: (obj, msg) => options.log.info(obj, msg) },
    }),
    // Last, as in kube-apiserver: only a write every other plugin admitted is charged.
    resourceQuotaAdmission({ store, quotaDef, hasQuotas: (tenant, namespace) => namespaced.quotas!.lister().list({ tenant, namespace }).length > 0 }),
    // The space's own limits (its Tenant's spec.hard), after the namespace's quotas.
    spaceQuota,
  ]);

  // One informer per kind, shared by every controller (and admission) that watches it.
  const watchCaches = new WatchCaches(generic);
  watchCacheRef.current = watchCaches;
  const informers = new InformerFactory<ResourceDefinition>((def, space, selectors) => inProcessSource(watchCaches, def, space, selectors), (err, informer) => options.log.error({ err, informer }, 'informer error'));
  const tenants = informers.informerFor(tenantDef);
  tenantInformer.current = tenants;
  // Limits set, changed or removed (and, at start, any tenant not counted yet): count the space now,
  // rather than on its next write, so status.used shows it.
  tenants.onChange((key, obj) => {
    if (obj && !isCounted(obj as Tenant)) spaceQuota.recount(key.name).catch((err: unknown) => options.log.error({ err, tenant: key.name }, 'space quota recount failed'));
  });
  const namespaces = informers.informerFor(kinds.namespaces);
  const serviceAccountDef = requireKind(registry, '', 'serviceaccounts');
  const serviceAccounts = informers.informerFor(serviceAccountDef);
  const crdDef = requireKind(registry, 'apiextensions.k8s.io', 'customresourcedefinitions');
  const crds = informers.informerFor(crdDef);
  crdInformer.current = crds;
  namespaced.quotas = informers.informerFor(quotaDef);
  namespaced.limitRanges = informers.informerFor(requireKind(registry, '', 'limitranges'));
  policyInformers.validating = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicies'));
  policyInformers.validatingBindings = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'validatingadmissionpolicybindings'));
  // One served version of the mutating policies (the first, v1beta1) is enough: every version reads the same storage.
  policyInformers.mutating = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'mutatingadmissionpolicies'));
  policyInformers.mutatingBindings = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'mutatingadmissionpolicybindings'));
  webhookInformers.validating = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'validatingwebhookconfigurations'));
  webhookInformers.mutating = informers.informerFor(requireKind(registry, 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations'));
  readers.tenant = cachedReader(tenants, generic, tenantDef);
  // A space's cluster is its Tenant's spec.storageClusterId (immutable): the informer's copy, else storage's.
  clusters.locate = async (tenant) => (tenant === SYSTEM_TENANT ? undefined : ((await readers.tenant!({ tenant: '', namespace: '', name: tenant })) as Tenant | undefined)?.spec?.storageClusterId);
  readers.namespace = cachedReader(namespaces, generic, kinds.namespaces);

  const rbacInformers = (['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as RbacKind[]).map((kind) => {
    const def = registry.all().find((d) => d.group === 'rbac.authorization.k8s.io' && d.kind === kind)!;
    const informer = informers.informerFor(def);
    informer.onChange((key, obj) => rbac.apply(kind, key.tenant, key.namespace, key.name, obj));
    return informer;
  });

  // What each space sees of nodes: where its pods run.
  const nodeUsage = new NodeUsage();
  const pods = informers.informerFor(requireKind(registry, '', 'pods'));
  pods.onChange((key, pod) => nodeUsage.apply(key, pod));
  namespaced.pods = pods;

  // The system space exists before the first request: its Tenant, its namespaces and the default RBAC policy.
  await createIfAbsent(generic, tenantDef, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: SYSTEM_TENANT } });
  await Promise.all(INITIAL_NAMESPACES.map((name) => createIfAbsent(generic, kinds.namespaces, initialNamespace(name), SYSTEM_TENANT)));
  await ensureBootstrapPolicy(generic, kinds);
  await ensureLocalAPIServices(generic, requireKind(registry, 'apiregistration.k8s.io', 'apiservices'), registry);
  const flowControlKinds = { flowSchemas: requireKind(registry, 'flowcontrol.apiserver.k8s.io', 'flowschemas'), priorityLevels: requireKind(registry, 'flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations') };
  await ensureFlowControlDefaults(generic, flowControlKinds);
  const flowControlObjects = { flowSchemas: informers.informerFor(flowControlKinds.flowSchemas), priorityLevels: informers.informerFor(flowControlKinds.priorityLevels) };

  const kind = (group: string, resource: string) => requireKind(registry, group, resource);
  const spaceDefaultDefs = { services: kind('', 'services'), endpoints: kind('', 'endpoints'), endpointSlices: kind('discovery.k8s.io', 'endpointslices') };
  webhookInformers.services = informers.informerFor(spaceDefaultDefs.services);
  webhookInformers.endpoints = informers.informerFor(spaceDefaultDefs.endpoints);
  const kubernetesService = new KubernetesServiceController({
    generic,
    tenants,
    namespaces,
    services: informers.informerFor(spaceDefaultDefs.services),
    endpoints: informers.informerFor(spaceDefaultDefs.endpoints),
    endpointSlices: informers.informerFor(spaceDefaultDefs.endpointSlices),
    defs: spaceDefaultDefs,
    clusterIP: allocator.kubernetesServiceIp,
    log: options.log,
  });

  const controllers: Controller[] = [
    kubernetesService.controller,
    crdStatusController({ generic, crds, crdDef, registry, log: options.log, onKindsRetired: (defs) => defs.forEach((def) => watchCaches.retire(def)), resolveService: resolveWebhookService }),
    policyStatusController({ generic, policies: policyInformers.validating, policyDef: kind('admissionregistration.k8s.io', 'validatingadmissionpolicies'), registry, log: options.log }),
    flowSchemaStatusController({ generic, ...flowControlObjects, flowSchemaDef: flowControlKinds.flowSchemas, log: options.log }),
  ];
  const eventExpiry = new EventExpiry({ generic, watchCaches, events: kind('', 'events'), ttlMs: options.eventTtlMs, log: options.log });
  informers.start();
  for (const c of controllers) c.start();
  eventExpiry.start();
  await Promise.all([tenants, serviceAccounts, pods, namespaced.quotas, namespaced.limitRanges, policyInformers.validating, policyInformers.validatingBindings, policyInformers.mutating, policyInformers.mutatingBindings, webhookInformers.validating, webhookInformers.mutating, flowControlObjects.flowSchemas, flowControlObjects.priorityLevels, ...rbacInformers].map((i) => i.waitForSync()));

  return {
    registry,
    generic,
    watchCaches,
    authorizer,
    tenantExists: (name) => tenants.get({ tenant: '', namespace: '', name }) !== undefined,
    tenantUid: (name) => tenants.get({ tenant: '', namespace: '', name })?.metadata.uid,
    serviceAccountLookup: cachedServiceAccountLookup((key) => serviceAccounts.get(key), storeServiceAccountLookup(generic, registry)),
    nodeUsage,
    flowControlObjects,
    advertise(apiServer) {
      kubernetesService.advertise(apiServer);
    },
    withdraw() {
      kubernetesService.withdraw();
    },
    async stop() {
      informers.stop();
      await Promise.all([...controllers.map((c) => c.stop()), eventExpiry.stop()]);
      await watchCaches.stop();
    },
  };
}
