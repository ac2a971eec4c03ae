/**
 * Types of every schema the server registers (its built-in kinds and the types they are made of),
 * generated from those schemas by scripts/kind-types.ts: every property with its description,
 * optional unless the schema requires it. Do not edit: run `npm run generate:client-types`
 * after changing a schema (a test fails while this file is stale).
 *
 * Names: a schema's last name segment (`io.k8s.api.core.v1.Pod` → `Pod`). Where several schemas
 * share that segment, each of them is prefixed by its group and version instead (the names the
 * JavaScript Kubernetes client gives them): `CoreV1Event` and `EventsV1Event`, `RbacV1Subject` and
 * `FlowcontrolV1Subject`, `AdmissionregistrationV1alpha1MutatingAdmissionPolicy`. Each type's
 * comment ends with its schema's name. `BuiltinKindTypes` maps `apiVersion/kind` to a kind's type.
 *
 * Mapping: `$ref` → the named type; arrays → `T[]`; maps → `Record<string, T>`; `enum` → a
 * union of literals; IntOrString → `number | string`; Quantity → `string | number`; free-form
 * objects (`x-kubernetes-preserve-unknown-fields`) → `Record<string, unknown>`; a schema without a
 * type (any JSON value) → `unknown`. A kind (a schema with a group/version/kind and ObjectMeta
 * metadata) extends `KubeObject`, and its `metadata` is the client's `ObjectMeta`, `tenant`
 * included; the server always sets it.
 */
import type { KubeObject, ObjectMeta } from '../../api/registry/object.js';

/**
 * A server for one API group version.
 *
 * Schema `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService`.
 */
export interface APIService extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Where the group version is served. */
  spec?: APIServiceSpec;
  /** The observed state of the APIService. */
  status?: APIServiceStatus;
}

/**
 * One observed condition of an APIService.
 *
 * Schema `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition`.
 */
export interface APIServiceCondition {
  /** Last time the status changed. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason of the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status?: string;
  /** Type of the condition, e.g. Available. */
  type?: string;
}

/**
 * Where a group version is served and how it ranks in discovery.
 *
 * Schema `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec`.
 */
export interface APIServiceSpec {
  /** PEM CA bundle that validates the aggregated server's serving certificate. */
  caBundle?: string;
  /** The API group name. */
  group?: string;
  /** Least priority of the group in discovery; the highest of its APIServices orders the group. */
  groupPriorityMinimum?: number;
  /** Skip TLS verification of the aggregated server. Strongly discouraged. */
  insecureSkipTLSVerify?: boolean;
  /** The Service of the aggregated server; absent for a group version this server serves itself. */
  service?: ApiregistrationV1ServiceReference;
  /** The API version. */
  version?: string;
  /** Order of this version within its group. */
  versionPriority?: number;
}

/**
 * The observed state of an APIService.
 *
 * Schema `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus`.
 */
export interface APIServiceStatus {
  /** Current service state. */
  conditions?: APIServiceCondition[];
}

/**
 * An AWS EBS volume.
 *
 * Schema `io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource`.
 */
export interface AWSElasticBlockStoreVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Partition to mount. */
  partition?: number;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** ID of the EBS volume. */
  volumeID: string;
}

/**
 * A CEL expression returning an object, merged as server-side apply merges.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ApplyConfiguration`.
 */
export interface AdmissionregistrationV1ApplyConfiguration {
  /** The CEL expression. */
  expression?: string;
}

/**
 * A CEL expression returning a list of JSON patch operations.
 *
 * Schema `io.k8s.api.admissionregistration.v1.JSONPatch`.
 */
export interface AdmissionregistrationV1JSONPatch {
  /** The CEL expression. */
  expression?: string;
}

/**
 * Mutates requests with CEL, once bound.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicy`.
 */
export interface AdmissionregistrationV1MutatingAdmissionPolicy extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The policy. */
  spec?: AdmissionregistrationV1MutatingAdmissionPolicySpec;
}

/**
 * Binds a MutatingAdmissionPolicy to requests, with params.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBinding`.
 */
export interface AdmissionregistrationV1MutatingAdmissionPolicyBinding extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The binding. */
  spec?: AdmissionregistrationV1MutatingAdmissionPolicyBindingSpec;
}

/**
 * Which policy applies, with which params, to which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicyBindingSpec`.
 */
export interface AdmissionregistrationV1MutatingAdmissionPolicyBindingSpec {
  /** Further limits the requests the policy applies to. */
  matchResources?: MatchResources;
  /** The params of the policy. */
  paramRef?: ParamRef;
  /** The MutatingAdmissionPolicy bound. */
  policyName?: string;
}

/**
 * What a MutatingAdmissionPolicy changes, and of which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec`.
 */
export interface AdmissionregistrationV1MutatingAdmissionPolicySpec {
  /** Fail (the default) or Ignore: what an error in the policy does to the request. */
  failurePolicy?: string;
  /** Conditions every one of which must hold for the policy to apply (at most 64). */
  matchConditions?: MatchCondition[];
  /** The requests the policy may apply to; required. */
  matchConstraints?: MatchResources;
  /** The mutations, applied in order. */
  mutations?: AdmissionregistrationV1Mutation[];
  /** The kind of the params; without it the policy takes none. */
  paramKind?: ParamKind;
  /** Never or IfNeeded: whether the policy runs again when later mutations changed the object. */
  reinvocationPolicy?: string;
  /** Variables, evaluated in order, for the other expressions. */
  variables?: Variable[];
}

/**
 * One mutation: an apply configuration or a JSON patch computed by CEL.
 *
 * Schema `io.k8s.api.admissionregistration.v1.Mutation`.
 */
export interface AdmissionregistrationV1Mutation {
  /** For patchType ApplyConfiguration. */
  applyConfiguration?: AdmissionregistrationV1ApplyConfiguration;
  /** For patchType JSONPatch. */
  jsonPatch?: AdmissionregistrationV1JSONPatch;
  /** ApplyConfiguration or JSONPatch. */
  patchType: string;
}

/**
 * A Service of the webhook configuration’s space that serves the webhook.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ServiceReference`.
 */
export interface AdmissionregistrationV1ServiceReference {
  /** The Service’s name. */
  name: string;
  /** The Service’s namespace. */
  namespace: string;
  /** URL path requests are sent to. */
  path?: string;
  /** The Service port; 443 by default. */
  port?: number;
}

/**
 * How to reach the webhook over TLS.
 *
 * Schema `io.k8s.api.admissionregistration.v1.WebhookClientConfig`.
 */
export interface AdmissionregistrationV1WebhookClientConfig {
  /** PEM CA bundle that validates the webhook’s serving certificate; the system trust roots when empty. */
  caBundle?: string;
  /** A Service of this space serving the webhook. */
  service?: AdmissionregistrationV1ServiceReference;
  /** https://host[:port][/path] of the webhook; exactly one of url or service. */
  url?: string;
}

/**
 * A CEL expression returning an object, merged as server-side apply merges.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.ApplyConfiguration`.
 */
export interface AdmissionregistrationV1alpha1ApplyConfiguration {
  /** The CEL expression. */
  expression?: string;
}

/**
 * A CEL expression returning a list of JSON patch operations.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.JSONPatch`.
 */
export interface AdmissionregistrationV1alpha1JSONPatch {
  /** The CEL expression. */
  expression?: string;
}

/**
 * Mutates requests with CEL, once bound.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicy`.
 */
export interface AdmissionregistrationV1alpha1MutatingAdmissionPolicy extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The policy. */
  spec?: AdmissionregistrationV1alpha1MutatingAdmissionPolicySpec;
}

/**
 * Binds a MutatingAdmissionPolicy to requests, with params.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBinding`.
 */
export interface AdmissionregistrationV1alpha1MutatingAdmissionPolicyBinding extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The binding. */
  spec?: AdmissionregistrationV1alpha1MutatingAdmissionPolicyBindingSpec;
}

/**
 * Which policy applies, with which params, to which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicyBindingSpec`.
 */
export interface AdmissionregistrationV1alpha1MutatingAdmissionPolicyBindingSpec {
  /** Further limits the requests the policy applies to. */
  matchResources?: MatchResources;
  /** The params of the policy. */
  paramRef?: ParamRef;
  /** The MutatingAdmissionPolicy bound. */
  policyName?: string;
}

/**
 * What a MutatingAdmissionPolicy changes, and of which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec`.
 */
export interface AdmissionregistrationV1alpha1MutatingAdmissionPolicySpec {
  /** Fail (the default) or Ignore: what an error in the policy does to the request. */
  failurePolicy?: string;
  /** Conditions every one of which must hold for the policy to apply (at most 64). */
  matchConditions?: MatchCondition[];
  /** The requests the policy may apply to; required. */
  matchConstraints?: MatchResources;
  /** The mutations, applied in order. */
  mutations?: AdmissionregistrationV1alpha1Mutation[];
  /** The kind of the params; without it the policy takes none. */
  paramKind?: ParamKind;
  /** Never or IfNeeded: whether the policy runs again when later mutations changed the object. */
  reinvocationPolicy?: string;
  /** Variables, evaluated in order, for the other expressions. */
  variables?: Variable[];
}

/**
 * One mutation: an apply configuration or a JSON patch computed by CEL.
 *
 * Schema `io.k8s.api.admissionregistration.v1alpha1.Mutation`.
 */
export interface AdmissionregistrationV1alpha1Mutation {
  /** For patchType ApplyConfiguration. */
  applyConfiguration?: AdmissionregistrationV1alpha1ApplyConfiguration;
  /** For patchType JSONPatch. */
  jsonPatch?: AdmissionregistrationV1alpha1JSONPatch;
  /** ApplyConfiguration or JSONPatch. */
  patchType: string;
}

/**
 * A CEL expression returning an object, merged as server-side apply merges.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.ApplyConfiguration`.
 */
export interface AdmissionregistrationV1beta1ApplyConfiguration {
  /** The CEL expression. */
  expression?: string;
}

/**
 * A CEL expression returning a list of JSON patch operations.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.JSONPatch`.
 */
export interface AdmissionregistrationV1beta1JSONPatch {
  /** The CEL expression. */
  expression?: string;
}

/**
 * Mutates requests with CEL, once bound.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicy`.
 */
export interface AdmissionregistrationV1beta1MutatingAdmissionPolicy extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The policy. */
  spec?: AdmissionregistrationV1beta1MutatingAdmissionPolicySpec;
}

/**
 * Binds a MutatingAdmissionPolicy to requests, with params.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBinding`.
 */
export interface AdmissionregistrationV1beta1MutatingAdmissionPolicyBinding extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The binding. */
  spec?: AdmissionregistrationV1beta1MutatingAdmissionPolicyBindingSpec;
}

/**
 * Which policy applies, with which params, to which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicyBindingSpec`.
 */
export interface AdmissionregistrationV1beta1MutatingAdmissionPolicyBindingSpec {
  /** Further limits the requests the policy applies to. */
  matchResources?: MatchResources;
  /** The params of the policy. */
  paramRef?: ParamRef;
  /** The MutatingAdmissionPolicy bound. */
  policyName?: string;
}

/**
 * What a MutatingAdmissionPolicy changes, and of which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec`.
 */
export interface AdmissionregistrationV1beta1MutatingAdmissionPolicySpec {
  /** Fail (the default) or Ignore: what an error in the policy does to the request. */
  failurePolicy?: string;
  /** Conditions every one of which must hold for the policy to apply (at most 64). */
  matchConditions?: MatchCondition[];
  /** The requests the policy may apply to; required. */
  matchConstraints?: MatchResources;
  /** The mutations, applied in order. */
  mutations?: AdmissionregistrationV1beta1Mutation[];
  /** The kind of the params; without it the policy takes none. */
  paramKind?: ParamKind;
  /** Never or IfNeeded: whether the policy runs again when later mutations changed the object. */
  reinvocationPolicy?: string;
  /** Variables, evaluated in order, for the other expressions. */
  variables?: Variable[];
}

/**
 * One mutation: an apply configuration or a JSON patch computed by CEL.
 *
 * Schema `io.k8s.api.admissionregistration.v1beta1.Mutation`.
 */
export interface AdmissionregistrationV1beta1Mutation {
  /** For patchType ApplyConfiguration. */
  applyConfiguration?: AdmissionregistrationV1beta1ApplyConfiguration;
  /** For patchType JSONPatch. */
  jsonPatch?: AdmissionregistrationV1beta1JSONPatch;
  /** ApplyConfiguration or JSONPatch. */
  patchType: string;
}

/**
 * Scheduling constraints of the pod.
 *
 * Schema `io.k8s.api.core.v1.Affinity`.
 */
export interface Affinity {
  /** Constraints on nodes. */
  nodeAffinity?: NodeAffinity;
  /** Pods to run near. */
  podAffinity?: PodAffinity;
  /** Pods to stay away from. */
  podAntiAffinity?: PodAntiAffinity;
}

/**
 * How a cluster role collects the rules of other cluster roles.
 *
 * Schema `io.k8s.api.rbac.v1.AggregationRule`.
 */
export interface AggregationRule {
  /** Selectors over cluster roles; the rules of every cluster role any of them matches are added. */
  clusterRoleSelectors?: LabelSelector[];
}

/**
 * A service in a namespace.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference`.
 */
export interface ApiextensionsV1ServiceReference {
  /** The name of the service. */
  name: string;
  /** The namespace of the service. */
  namespace: string;
  /** The URL path requests are sent to. */
  path?: string;
  /** The port requests are sent to; 443 by default. */
  port?: number;
}

/**
 * How to reach a webhook.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig`.
 */
export interface ApiextensionsV1WebhookClientConfig {
  /** PEM CA bundle that signs the webhook server certificate. */
  caBundle?: string;
  /** The service of the webhook. */
  service?: ApiextensionsV1ServiceReference;
  /** The webhook URL, https://host:port/path. */
  url?: string;
}

/**
 * The Service in front of an aggregated API server.
 *
 * Schema `io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference`.
 */
export interface ApiregistrationV1ServiceReference {
  /** Name of the service. */
  name?: string;
  /** Namespace of the service. */
  namespace?: string;
  /** Port of the service that hosts the API. Defaults to 443. */
  port?: number;
}

/**
 * The AppArmor profile to apply.
 *
 * Schema `io.k8s.api.core.v1.AppArmorProfile`.
 */
export interface AppArmorProfile {
  /** Name of a profile loaded on the node; only for type Localhost. */
  localhostProfile?: string;
  /** Localhost, RuntimeDefault or Unconfined. */
  type: string;
}

/**
 * A volume attached to the node.
 *
 * Schema `io.k8s.api.core.v1.AttachedVolume`.
 */
export interface AttachedVolume {
  /** Where the volume is available. */
  devicePath?: string;
  /** Name of the volume. */
  name?: string;
}

/**
 * An audit annotation the policy adds to the request's audit event.
 *
 * Schema `io.k8s.api.admissionregistration.v1.AuditAnnotation`.
 */
export interface AuditAnnotation {
  /** The annotation key, prefixed with "<policy name>/" in the audit event. */
  key: string;
  /** A CEL expression returning a string or null (no annotation). */
  valueExpression: string;
}

/**
 * Tells the caller who the server takes them to be.
 *
 * Schema `io.k8s.api.authentication.v1.SelfSubjectReview`.
 */
export interface AuthenticationV1SelfSubjectReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The answer, filled in by the server. */
  status?: AuthenticationV1SelfSubjectReviewStatus;
}

/**
 * The answer.
 *
 * Schema `io.k8s.api.authentication.v1.SelfSubjectReviewStatus`.
 */
export interface AuthenticationV1SelfSubjectReviewStatus {
  /** The caller. */
  userInfo?: AuthenticationV1UserInfo;
}

/**
 * An identity.
 *
 * Schema `io.k8s.api.authentication.v1.UserInfo`.
 */
export interface AuthenticationV1UserInfo {
  /** More attributes, such as the tenant. */
  extra?: Record<string, string[]>;
  /** The groups the user belongs to. */
  groups?: string[];
  /** A unique, stable id of the user. */
  uid?: string;
  /** The user name. */
  username?: string;
}

/**
 * Tells the caller who the server takes them to be.
 *
 * Schema `io.k8s.api.authentication.v1beta1.SelfSubjectReview`.
 */
export interface AuthenticationV1beta1SelfSubjectReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The answer, filled in by the server. */
  status?: AuthenticationV1beta1SelfSubjectReviewStatus;
}

/**
 * The answer.
 *
 * Schema `io.k8s.api.authentication.v1beta1.SelfSubjectReviewStatus`.
 */
export interface AuthenticationV1beta1SelfSubjectReviewStatus {
  /** The caller. */
  userInfo?: AuthenticationV1beta1UserInfo;
}

/**
 * An identity.
 *
 * Schema `io.k8s.api.authentication.v1beta1.UserInfo`.
 */
export interface AuthenticationV1beta1UserInfo {
  /** More attributes, such as the tenant. */
  extra?: Record<string, string[]>;
  /** The groups the user belongs to. */
  groups?: string[];
  /** A unique, stable id of the user. */
  uid?: string;
  /** The user name. */
  username?: string;
}

/**
 * An Azure data disk.
 *
 * Schema `io.k8s.api.core.v1.AzureDiskVolumeSource`.
 */
export interface AzureDiskVolumeSource {
  /** None, ReadOnly or ReadWrite. */
  cachingMode?: string;
  /** Name of the disk. */
  diskName: string;
  /** URI of the disk. */
  diskURI: string;
  /**
   * Filesystem type to mount, e.g. ext4 or xfs.
   * @defaultValue `"ext4"`
   */
  fsType?: string;
  /** Shared, Dedicated or Managed. */
  kind?: string;
  /**
   * Force the mount read-only. Defaults to false.
   * @defaultValue `false`
   */
  readOnly?: boolean;
}

/**
 * An Azure File share.
 *
 * Schema `io.k8s.api.core.v1.AzureFilePersistentVolumeSource`.
 */
export interface AzureFilePersistentVolumeSource {
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Secret holding the storage account name and key. */
  secretName: string;
  /** Namespace of that Secret; defaults to the pod’s. */
  secretNamespace?: string;
  /** The share. */
  shareName: string;
}

/**
 * An Azure File share.
 *
 * Schema `io.k8s.api.core.v1.AzureFileVolumeSource`.
 */
export interface AzureFileVolumeSource {
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Secret holding the storage account name and key. */
  secretName: string;
  /** The share. */
  shareName: string;
}

/**
 * A volume managed by a CSI driver.
 *
 * Schema `io.k8s.api.core.v1.CSIPersistentVolumeSource`.
 */
export interface CSIPersistentVolumeSource {
  /** A Secret holding credentials, in any namespace. */
  controllerExpandSecretRef?: SecretReference;
  /** A Secret holding credentials, in any namespace. */
  controllerPublishSecretRef?: SecretReference;
  /** Name of the CSI driver. */
  driver: string;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** A Secret holding credentials, in any namespace. */
  nodeExpandSecretRef?: SecretReference;
  /** A Secret holding credentials, in any namespace. */
  nodePublishSecretRef?: SecretReference;
  /** A Secret holding credentials, in any namespace. */
  nodeStageSecretRef?: SecretReference;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Attributes passed to the driver. */
  volumeAttributes?: Record<string, string>;
  /** The driver’s identifier of the volume. */
  volumeHandle: string;
}

/**
 * An ephemeral volume from a CSI driver.
 *
 * Schema `io.k8s.api.core.v1.CSIVolumeSource`.
 */
export interface CSIVolumeSource {
  /** Name of the CSI driver. */
  driver: string;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** A Secret holding credentials. */
  nodePublishSecretRef?: LocalObjectReference;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Driver-specific settings. */
  volumeAttributes?: Record<string, string>;
}

/**
 * POSIX capabilities to add and drop.
 *
 * Schema `io.k8s.api.core.v1.Capabilities`.
 */
export interface Capabilities {
  /** Capabilities to add. */
  add?: string[];
  /** Capabilities to drop. */
  drop?: string[];
}

/**
 * A CephFS mount.
 *
 * Schema `io.k8s.api.core.v1.CephFSPersistentVolumeSource`.
 */
export interface CephFSPersistentVolumeSource {
  /** Ceph monitors. */
  monitors: string[];
  /** Root of the mount. Defaults to /. */
  path?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Path to the user’s keyring. */
  secretFile?: string;
  /** A Secret holding credentials, in any namespace. */
  secretRef?: SecretReference;
  /** The RADOS user. Defaults to admin. */
  user?: string;
}

/**
 * A CephFS mount.
 *
 * Schema `io.k8s.api.core.v1.CephFSVolumeSource`.
 */
export interface CephFSVolumeSource {
  /** Ceph monitors. */
  monitors: string[];
  /** Root of the mount. Defaults to /. */
  path?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Path to the user’s keyring. */
  secretFile?: string;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
  /** The RADOS user. Defaults to admin. */
  user?: string;
}

/**
 * A request for a certificate from a signer.
 *
 * Schema `io.k8s.api.certificates.v1.CertificateSigningRequest`.
 */
export interface CertificateSigningRequest extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The request. */
  spec: CertificateSigningRequestSpec;
  /** Approval and the issued certificate. */
  status?: CertificateSigningRequestStatus;
}

/**
 * One condition of a request: Approved, Denied or Failed.
 *
 * Schema `io.k8s.api.certificates.v1.CertificateSigningRequestCondition`.
 */
export interface CertificateSigningRequestCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** When the condition was last updated. */
  lastUpdateTime?: Time;
  /** Human-readable details. */
  message?: string;
  /** Machine-readable reason. */
  reason?: string;
  /** True, False or Unknown; Approved, Denied and Failed are always True. */
  status?: string;
  /** Approved, Denied, Failed, or another condition. */
  type?: string;
}

/**
 * The certificate request, and the identity of whoever made it.
 *
 * Schema `io.k8s.api.certificates.v1.CertificateSigningRequestSpec`.
 */
export interface CertificateSigningRequestSpec {
  /** The requested validity of the certificate; at least 600 seconds. */
  expirationSeconds?: number;
  /** Extra attributes of the user who created the request; set by the server. */
  extra?: Record<string, string[]>;
  /** The groups of the user who created the request; set by the server. */
  groups?: string[];
  /** A PEM-encoded PKCS#10 certificate request ("CERTIFICATE REQUEST" block). */
  request?: string;
  /** The signer asked to sign, e.g. kubernetes.io/kube-apiserver-client. */
  signerName?: string;
  /** The uid of the user who created the request; set by the server. */
  uid?: string;
  /** Key usages requested in the certificate. */
  usages?: string[];
  /** The user who created the request; set by the server. */
  username?: string;
}

/**
 * Whether the request is approved, denied or failed, and the issued certificate.
 *
 * Schema `io.k8s.api.certificates.v1.CertificateSigningRequestStatus`.
 */
export interface CertificateSigningRequestStatus {
  /** The issued PEM certificate chain ("CERTIFICATE" blocks), set by the signer once approved. */
  certificate?: string;
  /** Conditions of the request. */
  conditions?: CertificateSigningRequestCondition[];
}

/**
 * An OpenStack Cinder volume.
 *
 * Schema `io.k8s.api.core.v1.CinderPersistentVolumeSource`.
 */
export interface CinderPersistentVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials, in any namespace. */
  secretRef?: SecretReference;
  /** ID of the volume. */
  volumeID: string;
}

/**
 * An OpenStack Cinder volume.
 *
 * Schema `io.k8s.api.core.v1.CinderVolumeSource`.
 */
export interface CinderVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
  /** ID of the volume. */
  volumeID: string;
}

/**
 * Settings of ClientIP session affinity.
 *
 * Schema `io.k8s.api.core.v1.ClientIPConfig`.
 */
export interface ClientIPConfig {
  /** How long a client sticks to one endpoint, 1 to 86400 seconds. Defaults to 10800. */
  timeoutSeconds?: number;
}

/**
 * A set of rules granted across the space by ClusterRoleBindings, or in a namespace by RoleBindings.
 *
 * Schema `io.k8s.api.rbac.v1.ClusterRole`.
 */
export interface ClusterRole extends KubeObject {
  /** Builds the rules from other cluster roles. */
  aggregationRule?: AggregationRule;
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The rules of the role; managed by a controller when aggregationRule is set. */
  rules?: PolicyRule[];
}

/**
 * Grants a cluster role to subjects across the space.
 *
 * Schema `io.k8s.api.rbac.v1.ClusterRoleBinding`.
 */
export interface ClusterRoleBinding extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** A ClusterRole. Immutable. */
  roleRef: RoleRef;
  /** Who the role is granted to. */
  subjects?: RbacV1Subject[];
}

/**
 * ClusterTrustBundles projected into a volume as one PEM file.
 *
 * Schema `io.k8s.api.core.v1.ClusterTrustBundleProjection`.
 */
export interface ClusterTrustBundleProjection {
  /** Select bundles of the signer by label. */
  labelSelector?: LabelSelector;
  /** Select one bundle by name. */
  name?: string;
  /** Do not block pod startup if no bundle matches. */
  optional?: boolean;
  /** Path of the file. */
  path: string;
  /** Select the bundles of this signer. */
  signerName?: string;
}

/**
 * One aspect of an object’s current state.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.Condition`.
 */
export interface Condition {
  /** When the status last changed. */
  lastTransitionTime: Time;
  /** A human-readable explanation. */
  message: string;
  /** The metadata.generation the condition was computed from. */
  observedGeneration?: number;
  /** A CamelCase, machine-readable reason for the last transition. */
  reason: string;
  /** True, False or Unknown. */
  status: string;
  /** The condition’s type, in CamelCase or as foo.example.com/CamelCase. */
  type: string;
}

/**
 * Configuration data for pods to read as files, environment variables or arguments.
 *
 * Schema `io.k8s.api.core.v1.ConfigMap`.
 */
export interface ConfigMap extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** Binary values by key; keys may not repeat those of data. */
  binaryData?: Record<string, string>;
  /** UTF-8 values by key. */
  data?: Record<string, string>;
  /** When true, the data can no longer change (the object can only be deleted). */
  immutable?: boolean;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
}

/**
 * A ConfigMap whose keys become environment variables.
 *
 * Schema `io.k8s.api.core.v1.ConfigMapEnvSource`.
 */
export interface ConfigMapEnvSource {
  /** Name of the ConfigMap. */
  name?: string;
  /** Whether the ConfigMap may be missing. */
  optional?: boolean;
}

/**
 * Selects one key of a ConfigMap.
 *
 * Schema `io.k8s.api.core.v1.ConfigMapKeySelector`.
 */
export interface ConfigMapKeySelector {
  /** The key to select. */
  key: string;
  /** Name of the ConfigMap. */
  name?: string;
  /** Whether the ConfigMap or key may be missing. */
  optional?: boolean;
}

/**
 * A ConfigMap holding a node configuration (deprecated dynamic kubelet config).
 *
 * Schema `io.k8s.api.core.v1.ConfigMapNodeConfigSource`.
 */
export interface ConfigMapNodeConfigSource {
  /** The key holding the KubeletConfiguration. */
  kubeletConfigKey?: string;
  /** Name of the ConfigMap. */
  name?: string;
  /** Namespace of the ConfigMap. */
  namespace?: string;
  /** resourceVersion of the ConfigMap. */
  resourceVersion?: string;
  /** UID of the ConfigMap. */
  uid?: string;
}

/**
 * A ConfigMap projected into a volume.
 *
 * Schema `io.k8s.api.core.v1.ConfigMapProjection`.
 */
export interface ConfigMapProjection {
  /** Keys to project and where; all keys when empty. */
  items?: KeyToPath[];
  /** Name of the ConfigMap. */
  name?: string;
  /** Whether the ConfigMap or its keys may be missing. */
  optional?: boolean;
}

/**
 * A ConfigMap presented as files.
 *
 * Schema `io.k8s.api.core.v1.ConfigMapVolumeSource`.
 */
export interface ConfigMapVolumeSource {
  /** Permission bits for files by default, 0000-0777 (octal in YAML, decimal in JSON). */
  defaultMode?: number;
  /** Keys to project and where; all keys when empty. */
  items?: KeyToPath[];
  /** Name of the ConfigMap. */
  name?: string;
  /** Whether the ConfigMap or its keys may be missing. */
  optional?: boolean;
}

/**
 * A container of a pod.
 *
 * Schema `io.k8s.api.core.v1.Container`.
 */
export interface Container {
  /** Arguments to the entrypoint; the image’s CMD when empty. $(VAR) references are expanded. */
  args?: string[];
  /** The entrypoint, run directly (not in a shell); the image’s ENTRYPOINT when empty. */
  command?: string[];
  /** Environment variables to set. */
  env?: EnvVar[];
  /** Sources of many environment variables; later sources win. */
  envFrom?: EnvFromSource[];
  /** The container image. */
  image?: string;
  /** Always, Never or IfNotPresent. Defaults to Always for the :latest tag, IfNotPresent otherwise. */
  imagePullPolicy?: string;
  /** Actions at lifecycle events. */
  lifecycle?: Lifecycle;
  /** Restarts the container when it fails. */
  livenessProbe?: Probe;
  /** Name of the container, a DNS label unique among the pod’s containers. */
  name: string;
  /** Ports the container exposes (informational). */
  ports?: ContainerPort[];
  /** Takes the pod out of service endpoints while it fails. */
  readinessProbe?: Probe;
  /** How the container reacts to in-place resource resizes. */
  resizePolicy?: ContainerResizePolicy[];
  /** Compute resources of the container. */
  resources?: ResourceRequirements;
  /** Only for init containers: Always makes it a sidecar that runs alongside the others. */
  restartPolicy?: string;
  /** Security settings of the container. */
  securityContext?: SecurityContext;
  /** Holds other probes back until the container has started. */
  startupProbe?: Probe;
  /** Allocate a stdin buffer. */
  stdin?: boolean;
  /** Close stdin after the first attach detaches. */
  stdinOnce?: boolean;
  /** File the termination message is read from. Defaults to /dev/termination-log. */
  terminationMessagePath?: string;
  /** File or FallbackToLogsOnError. Defaults to File. */
  terminationMessagePolicy?: string;
  /** Allocate a TTY (needs stdin). */
  tty?: boolean;
  /** Raw block devices to map in. */
  volumeDevices?: VolumeDevice[];
  /** Pod volumes to mount. */
  volumeMounts?: VolumeMount[];
  /** Working directory; the image’s when empty. */
  workingDir?: string;
}

/**
 * A container image on the node.
 *
 * Schema `io.k8s.api.core.v1.ContainerImage`.
 */
export interface ContainerImage {
  /** Names of the image. */
  names?: string[];
  /** Size in bytes. */
  sizeBytes?: number;
}

/**
 * A network port of one container.
 *
 * Schema `io.k8s.api.core.v1.ContainerPort`.
 */
export interface ContainerPort {
  /** Port number on the pod’s IP address (1-65535). */
  containerPort: number;
  /** Host IP to bind the host port to. */
  hostIP?: string;
  /** Port number to expose on the host (1-65535); most containers need none. */
  hostPort?: number;
  /** An IANA service name for the port, unique in the pod; services can refer to it. */
  name?: string;
  /**
   * UDP, TCP or SCTP. Defaults to TCP.
   * @defaultValue `"TCP"`
   */
  protocol?: string;
}

/**
 * How a container reacts when a resource of it is resized in place.
 *
 * Schema `io.k8s.api.core.v1.ContainerResizePolicy`.
 */
export interface ContainerResizePolicy {
  /** The resource: cpu or memory. */
  resourceName: string;
  /** NotRequired or RestartContainer. */
  restartPolicy: string;
}

/**
 * A resource of one container in each pod.
 *
 * Schema `io.k8s.api.autoscaling.v2.ContainerResourceMetricSource`.
 */
export interface ContainerResourceMetricSource {
  /** Name of the container in the pods of the scale target. */
  container: string;
  /** Name of the resource, such as cpu or memory. */
  name: string;
  /** The target value of the metric. */
  target: MetricTarget;
}

/**
 * Current value of a container resource metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.ContainerResourceMetricStatus`.
 */
export interface ContainerResourceMetricStatus {
  /** Name of the container in the pods of the scale target. */
  container: string;
  /** The current value of the metric. */
  current: MetricValueStatus;
  /** Name of the resource, such as cpu or memory. */
  name: string;
}

/**
 * The state of a container; at most one member is set.
 *
 * Schema `io.k8s.api.core.v1.ContainerState`.
 */
export interface ContainerState {
  /** Running. */
  running?: ContainerStateRunning;
  /** Exited. */
  terminated?: ContainerStateTerminated;
  /** Waiting to run. */
  waiting?: ContainerStateWaiting;
}

/**
 * A running container.
 *
 * Schema `io.k8s.api.core.v1.ContainerStateRunning`.
 */
export interface ContainerStateRunning {
  /** When it last (re)started. */
  startedAt?: Time;
}

/**
 * A container that has exited.
 *
 * Schema `io.k8s.api.core.v1.ContainerStateTerminated`.
 */
export interface ContainerStateTerminated {
  /** ID of the container, as <runtime>://<id>. */
  containerID?: string;
  /** Exit status. */
  exitCode: number;
  /** When it exited. */
  finishedAt?: Time;
  /** Details. */
  message?: string;
  /** Why it exited. */
  reason?: string;
  /** Signal that ended it. */
  signal?: number;
  /** When it started. */
  startedAt?: Time;
}

/**
 * A container not running yet.
 *
 * Schema `io.k8s.api.core.v1.ContainerStateWaiting`.
 */
export interface ContainerStateWaiting {
  /** Details. */
  message?: string;
  /** Why it is waiting. */
  reason?: string;
}

/**
 * What the node reports about one container.
 *
 * Schema `io.k8s.api.core.v1.ContainerStatus`.
 */
export interface ContainerStatus {
  /** Resources allocated to the container by the node. */
  allocatedResources?: Record<string, string | number>;
  /** Health of allocated devices. */
  allocatedResourcesStatus?: ResourceStatus[];
  /** ID of the container, as <runtime>://<id>. */
  containerID?: string;
  /** The image it runs. */
  image: string;
  /** ID of the image. */
  imageID: string;
  /** The previous state, after a restart. */
  lastState?: ContainerState;
  /** Name of the container. */
  name: string;
  /** Whether it passes its readiness check. */
  ready: boolean;
  /** Resources in effect. */
  resources?: ResourceRequirements;
  /** How many times it has restarted. */
  restartCount: number;
  /** Whether it has passed its startup probe. */
  started?: boolean;
  /** The current state. */
  state?: ContainerState;
  /** The signal used to stop it. */
  stopSignal?: string;
  /** The identity it runs as. */
  user?: ContainerUser;
  /** Its mounts. */
  volumeMounts?: VolumeMountStatus[];
}

/**
 * The identity of a container’s first process.
 *
 * Schema `io.k8s.api.core.v1.ContainerUser`.
 */
export interface ContainerUser {
  /** On Linux. */
  linux?: LinuxContainerUser;
}

/**
 * An immutable snapshot of controller state, kept for rollback. Only controllers are expected to write it.
 *
 * Schema `io.k8s.api.apps.v1.ControllerRevision`.
 */
export interface ControllerRevision extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** The serialized state. */
  data?: Record<string, unknown>;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The revision of the state in data. */
  revision: number;
}

/**
 * One port of an endpoint.
 *
 * Schema `io.k8s.api.core.v1.EndpointPort`.
 */
export interface CoreV1EndpointPort {
  /** Application protocol hint: an IANA service name or a prefixed name. */
  appProtocol?: string;
  /** Name of the port, matching the service port’s; required when there are several. */
  name?: string;
  /** Port number. */
  port: number;
  /**
   * TCP, UDP or SCTP. Defaults to TCP.
   * @defaultValue `"TCP"`
   */
  protocol?: string;
}

/**
 * A report of something that happened to an object.
 *
 * Schema `io.k8s.api.core.v1.Event`.
 */
export interface CoreV1Event extends KubeObject {
  /** What was done (or failed) about the object, machine-readable. */
  action?: string;
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** How many times the event has occurred. */
  count?: number;
  /** When the event first happened, with microseconds. */
  eventTime?: MicroTime;
  /** When the event was first recorded. */
  firstTimestamp?: Time;
  /** The object the event is about. */
  involvedObject: ObjectReference;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** When the event was most recently recorded. */
  lastTimestamp?: Time;
  /** What happened, for people. */
  message?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Why the event happened: a short CamelCase word, machine-readable. */
  reason?: string;
  /** A second object involved, if any. */
  related?: ObjectReference;
  /** The controller that emitted the event, e.g. kubernetes.io/kubelet. */
  reportingComponent?: string;
  /** The instance of that controller, e.g. a node name. */
  reportingInstance?: string;
  /** Repeats of the event, if it is a series. */
  series?: CoreV1EventSeries;
  /** The component that reported the event. */
  source?: EventSource;
  /** Normal or Warning; more types may come. */
  type?: string;
}

/**
 * A series of repeated occurrences of one event.
 *
 * Schema `io.k8s.api.core.v1.EventSeries`.
 */
export interface CoreV1EventSeries {
  /** How many times the event has happened so far. */
  count?: number;
  /** When the last occurrence was seen. */
  lastObservedTime?: MicroTime;
}

/**
 * Runs a job on a schedule.
 *
 * Schema `io.k8s.api.batch.v1.CronJob`.
 */
export interface CronJob extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the cron job, including its schedule. */
  spec?: CronJobSpec;
  /** The current status of the cron job. */
  status?: CronJobStatus;
}

/**
 * When and what a cron job runs.
 *
 * Schema `io.k8s.api.batch.v1.CronJobSpec`.
 */
export interface CronJobSpec {
  /** Allow (the default), Forbid or Replace: what to do when the previous run has not finished. */
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  /** Failed jobs kept. Defaults to 1. */
  failedJobsHistoryLimit?: number;
  /** The job to create at each scheduled time. */
  jobTemplate: JobTemplateSpec;
  /** The schedule in cron format, e.g. "*\/5 * * * *". */
  schedule: string;
  /** Seconds after a missed start time during which the job may still start. */
  startingDeadlineSeconds?: number;
  /** Finished successful jobs kept. Defaults to 3. */
  successfulJobsHistoryLimit?: number;
  /** Whether later runs are held off. Defaults to false. */
  suspend?: boolean;
  /** IANA time zone of the schedule, e.g. "Europe/Paris"; the controller manager’s zone when unset. */
  timeZone?: string;
}

/**
 * The observed state of a cron job.
 *
 * Schema `io.k8s.api.batch.v1.CronJobStatus`.
 */
export interface CronJobStatus {
  /** The jobs currently running. */
  active?: ObjectReference[];
  /** When a job was last scheduled. */
  lastScheduleTime?: Time;
  /** When a job last completed successfully. */
  lastSuccessfulTime?: Time;
}

/**
 * Identifies an object in any API version.
 *
 * Schema `io.k8s.api.autoscaling.v2.CrossVersionObjectReference`.
 */
export interface CrossVersionObjectReference {
  /** API version of the referent. */
  apiVersion?: string;
  /** Kind of the referent. */
  kind: string;
  /** Name of the referent. */
  name: string;
}

/**
 * A server-side printing column.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceColumnDefinition`.
 */
export interface CustomResourceColumnDefinition {
  /** What the column shows. */
  description?: string;
  /** A format of the type. */
  format?: string;
  /** The simple JSON path of the value, evaluated against each object. */
  jsonPath: string;
  /** The column header. */
  name: string;
  /** 0 always shown; greater only with -o wide. */
  priority?: number;
  /** integer, number, string, boolean or date. */
  type: string;
}

/**
 * How custom resources are converted between versions.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion`.
 */
export interface CustomResourceConversion {
  /** None (only apiVersion changes) or Webhook. */
  strategy: string;
  /** The webhook, for strategy Webhook. */
  webhook?: WebhookConversion;
}

/**
 * A custom resource to serve: its names, versions and schemas.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition`.
 */
export interface CustomResourceDefinition extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The resource to serve. */
  spec: CustomResourceDefinitionSpec;
  /** The observed state. */
  status?: CustomResourceDefinitionStatus;
}

/**
 * One condition of a CustomResourceDefinition.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition`.
 */
export interface CustomResourceDefinitionCondition {
  /** When the status last changed. */
  lastTransitionTime?: Time;
  /** Why, for humans. */
  message?: string;
  /** Why, in CamelCase. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** NamesAccepted, Established, Terminating, ... */
  type: string;
}

/**
 * The names a custom resource is served under.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames`.
 */
export interface CustomResourceDefinitionNames {
  /** Groups of resources the resource belongs to (kubectl get all). */
  categories?: string[];
  /** The kind, in CamelCase. */
  kind: string;
  /** The kind of lists; defaults to <kind>List. */
  listKind?: string;
  /** The plural name, the URL segment: /apis/<group>/<version>/.../<plural>. Lower case. */
  plural: string;
  /** Short aliases on the CLI (kubectl get ct). Lower case. */
  shortNames?: string[];
  /** The singular name, an alias on the CLI; defaults to the kind in lower case. */
  singular?: string;
}

/**
 * What a custom resource is: its group, names, scope and versions.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec`.
 */
export interface CustomResourceDefinitionSpec {
  /** How versions are converted. */
  conversion?: CustomResourceConversion;
  /** The API group, a DNS subdomain with at least one dot. */
  group: string;
  /** The names of the resource. */
  names: CustomResourceDefinitionNames;
  /** Deprecated: true keeps fields no schema declares (not allowed in v1 with structural schemas). */
  preserveUnknownFields?: boolean;
  /** Cluster or Namespaced. */
  scope: string;
  /** The versions of the resource, exactly one of them for storage. */
  versions: CustomResourceDefinitionVersion[];
}

/**
 * The observed state of a CustomResourceDefinition.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus`.
 */
export interface CustomResourceDefinitionStatus {
  /** The names actually served; they may differ from spec.names after a conflict. */
  acceptedNames?: CustomResourceDefinitionNames;
  /** The current conditions. */
  conditions?: CustomResourceDefinitionCondition[];
  /** Every version objects have ever been stored in. */
  storedVersions?: string[];
}

/**
 * One version of a custom resource.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion`.
 */
export interface CustomResourceDefinitionVersion {
  /** Columns kubectl get shows. */
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  /** Whether the version is deprecated (clients get a warning). */
  deprecated?: boolean;
  /** The warning clients get instead of the default one. */
  deprecationWarning?: string;
  /** The version name, as in /apis/<group>/<version>. */
  name: string;
  /** The schema of this version. */
  schema?: CustomResourceValidation;
  /** Fields usable in field selectors. */
  selectableFields?: SelectableField[];
  /** Whether the version is served by the REST API. */
  served: boolean;
  /** Whether objects are stored in this version; exactly one version is. */
  storage: boolean;
  /** The subresources of this version. */
  subresources?: CustomResourceSubresources;
}

/**
 * Enables the scale subresource.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceScale`.
 */
export interface CustomResourceSubresourceScale {
  /** The JSON path of the pod selector string, under .status or .spec. */
  labelSelectorPath?: string;
  /** The JSON path of the desired replicas, under .spec. */
  specReplicasPath: string;
  /** The JSON path of the observed replicas, under .status. */
  statusReplicasPath: string;
}

/**
 * Enables the status subresource: /status writes status only, and the main resource ignores it.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus`.
 */
export interface CustomResourceSubresourceStatus {
}

/**
 * The subresources of a version.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources`.
 */
export interface CustomResourceSubresources {
  /** The scale subresource. */
  scale?: CustomResourceSubresourceScale;
  /** The status subresource. */
  status?: CustomResourceSubresourceStatus;
}

/**
 * How custom resources of a version are validated.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation`.
 */
export interface CustomResourceValidation {
  /** The OpenAPI v3 schema for validation and pruning. */
  openAPIV3Schema?: JSONSchemaProps;
}

/**
 * A port a node daemon listens on.
 *
 * Schema `io.k8s.api.core.v1.DaemonEndpoint`.
 */
export interface DaemonEndpoint {
  /** The port number. */
  Port?: number;
}

/**
 * Runs a copy of a pod on every eligible node.
 *
 * Schema `io.k8s.api.apps.v1.DaemonSet`.
 */
export interface DaemonSet extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the daemon set. */
  spec?: DaemonSetSpec;
  /** The most recently observed status of the daemon set. */
  status?: DaemonSetStatus;
}

/**
 * One observation of a daemon set’s state.
 *
 * Schema `io.k8s.api.apps.v1.DaemonSetCondition`.
 */
export interface DaemonSetCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type. */
  type: string;
}

/**
 * The desired state of a daemon set.
 *
 * Schema `io.k8s.api.apps.v1.DaemonSetSpec`.
 */
export interface DaemonSetSpec {
  /** Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0. */
  minReadySeconds?: number;
  /** Old revisions kept for rollback. Defaults to 10. */
  revisionHistoryLimit?: number;
  /** Label query over the daemon pods; must match the template’s labels. Immutable. */
  selector: LabelSelector;
  /** The pod to run on every eligible node. Only restartPolicy Always is allowed. */
  template: PodTemplateSpec;
  /** How daemon pods are updated. */
  updateStrategy?: DaemonSetUpdateStrategy;
}

/**
 * The observed state of a daemon set.
 *
 * Schema `io.k8s.api.apps.v1.DaemonSetStatus`.
 */
export interface DaemonSetStatus {
  /** Hash collisions met while naming the newest ControllerRevision. */
  collisionCount?: number;
  /** Latest observations of the daemon set’s state. */
  conditions?: DaemonSetCondition[];
  /** Nodes running at least one daemon pod that should run it. */
  currentNumberScheduled: number;
  /** Nodes that should run the daemon pod. */
  desiredNumberScheduled: number;
  /** Nodes whose daemon pod is available. */
  numberAvailable?: number;
  /** Nodes running a daemon pod that should not run it. */
  numberMisscheduled: number;
  /** Nodes whose daemon pod has a Ready condition. */
  numberReady: number;
  /** Nodes whose daemon pod is not available. */
  numberUnavailable?: number;
  /** The generation the controller last acted on. */
  observedGeneration?: number;
  /** Nodes running the current template. */
  updatedNumberScheduled?: number;
}

/**
 * How daemon pods are replaced when the template changes.
 *
 * Schema `io.k8s.api.apps.v1.DaemonSetUpdateStrategy`.
 */
export interface DaemonSetUpdateStrategy {
  /** Parameters for type RollingUpdate. */
  rollingUpdate?: RollingUpdateDaemonSet;
  /** RollingUpdate (the default) or OnDelete. */
  type?: 'RollingUpdate' | 'OnDelete';
}

/**
 * Options for a delete request.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions`.
 */
export interface DeleteOptions {
  /** Versioned schema of this representation. */
  apiVersion?: string;
  /** If "All", run every stage but persist nothing. */
  dryRun?: string[];
  /** Seconds before the object is deleted; 0 deletes at once. */
  gracePeriodSeconds?: number;
  /** Delete even an object that cannot be read back; dangerous. */
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
  /** The kind, "DeleteOptions". */
  kind?: string;
  /** Deprecated: use propagationPolicy. */
  orphanDependents?: boolean;
  /** Conditions that must hold; a mismatch answers 409 Conflict. */
  preconditions?: Preconditions;
  /** What happens to dependents: Orphan, Background or Foreground. */
  propagationPolicy?: string;
}

/**
 * Declarative updates for pods and ReplicaSets.
 *
 * Schema `io.k8s.api.apps.v1.Deployment`.
 */
export interface Deployment extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the deployment. */
  spec?: DeploymentSpec;
  /** The most recently observed status of the deployment. */
  status?: DeploymentStatus;
}

/**
 * One observation of a deployment’s state.
 *
 * Schema `io.k8s.api.apps.v1.DeploymentCondition`.
 */
export interface DeploymentCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** When the condition was last updated. */
  lastUpdateTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type: Available, Progressing or ReplicaFailure. */
  type: string;
}

/**
 * The desired state of a deployment.
 *
 * Schema `io.k8s.api.apps.v1.DeploymentSpec`.
 */
export interface DeploymentSpec {
  /** Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0. */
  minReadySeconds?: number;
  /** Whether the rollout is paused. */
  paused?: boolean;
  /** Seconds a rollout may make no progress before it is reported as failed. Defaults to 600. */
  progressDeadlineSeconds?: number;
  /** Desired number of pods. Defaults to 1. */
  replicas?: number;
  /** Old ReplicaSets kept for rollback. Defaults to 10. */
  revisionHistoryLimit?: number;
  /** Label query over the pods of this deployment; must match the template’s labels. Immutable. */
  selector: LabelSelector;
  /** How to replace existing pods with new ones. */
  strategy?: DeploymentStrategy;
  /** The pods to create. Only restartPolicy Always is allowed. */
  template: PodTemplateSpec;
}

/**
 * The observed state of a deployment.
 *
 * Schema `io.k8s.api.apps.v1.DeploymentStatus`.
 */
export interface DeploymentStatus {
  /** Targeted pods ready for at least minReadySeconds. */
  availableReplicas?: number;
  /** Hash collisions met while naming the newest ReplicaSet. */
  collisionCount?: number;
  /** Latest observations of the deployment’s state. */
  conditions?: DeploymentCondition[];
  /** The generation the controller last acted on. */
  observedGeneration?: number;
  /** Targeted pods with a Ready condition. */
  readyReplicas?: number;
  /** Non-terminated pods targeted by this deployment. */
  replicas?: number;
  /** Pods still needed for the deployment to be fully available. */
  unavailableReplicas?: number;
  /** Non-terminated pods that run the current template. */
  updatedReplicas?: number;
}

/**
 * How existing pods are replaced by new ones.
 *
 * Schema `io.k8s.api.apps.v1.DeploymentStrategy`.
 */
export interface DeploymentStrategy {
  /** Rolling update parameters; only with type RollingUpdate. */
  rollingUpdate?: RollingUpdateDeployment;
  /** Recreate or RollingUpdate (the default). */
  type?: 'Recreate' | 'RollingUpdate';
}

/**
 * A port of the endpoints of a slice.
 *
 * Schema `io.k8s.api.discovery.v1.EndpointPort`.
 */
export interface DiscoveryV1EndpointPort {
  /** Application protocol, in label-key syntax. */
  appProtocol?: string;
  /** Name of the port, unique in the slice; a DNS label or empty. */
  name?: string;
  /** Port number; every port when unset. */
  port?: number;
  /** TCP (the default), UDP or SCTP. */
  protocol?: 'SCTP' | 'TCP' | 'UDP';
}

/**
 * Pod information projected into a volume.
 *
 * Schema `io.k8s.api.core.v1.DownwardAPIProjection`.
 */
export interface DownwardAPIProjection {
  /** The files. */
  items?: DownwardAPIVolumeFile[];
}

/**
 * One file with pod information.
 *
 * Schema `io.k8s.api.core.v1.DownwardAPIVolumeFile`.
 */
export interface DownwardAPIVolumeFile {
  /** A field of the pod: labels, annotations, name or namespace. */
  fieldRef?: ObjectFieldSelector;
  /** Permission bits for this file, 0000-0777 (octal in YAML, decimal in JSON). */
  mode?: number;
  /** Relative path of the file. */
  path: string;
  /** A resource limit or request of a container. */
  resourceFieldRef?: ResourceFieldSelector;
}

/**
 * Pod information presented as files.
 *
 * Schema `io.k8s.api.core.v1.DownwardAPIVolumeSource`.
 */
export interface DownwardAPIVolumeSource {
  /** Permission bits for files by default, 0000-0777 (octal in YAML, decimal in JSON). */
  defaultMode?: number;
  /** The files. */
  items?: DownwardAPIVolumeFile[];
}

/**
 * A temporary directory that lives as long as the pod.
 *
 * Schema `io.k8s.api.core.v1.EmptyDirVolumeSource`.
 */
export interface EmptyDirVolumeSource {
  /** Backing storage: "" for the node’s default, or Memory. */
  medium?: string;
  /** The most local storage the directory may use. */
  sizeLimit?: string | number;
}

/**
 * One backend of a service.
 *
 * Schema `io.k8s.api.discovery.v1.Endpoint`.
 */
export interface Endpoint {
  /** Addresses of the endpoint: 1 to 100. */
  addresses: string[];
  /** The current condition of the endpoint. */
  conditions?: EndpointConditions;
  /** Topology labels from the v1beta1 API; not writable in v1. */
  deprecatedTopology?: Record<string, string>;
  /** Hints for consumers. */
  hints?: EndpointHints;
  /** Hostname of the endpoint (a DNS label). */
  hostname?: string;
  /** The node hosting the endpoint. */
  nodeName?: string;
  /** The object behind the endpoint, usually a pod. */
  targetRef?: ObjectReference;
  /** The zone the endpoint is in. */
  zone?: string;
}

/**
 * One address of an endpoint.
 *
 * Schema `io.k8s.api.core.v1.EndpointAddress`.
 */
export interface EndpointAddress {
  /** Hostname of the endpoint. */
  hostname?: string;
  /** IP of the endpoint; not loopback, link-local or unspecified. */
  ip: string;
  /** Node hosting the endpoint. */
  nodeName?: string;
  /** The object behind the endpoint, usually a pod. */
  targetRef?: ObjectReference;
}

/**
 * The current condition of an endpoint.
 *
 * Schema `io.k8s.api.discovery.v1.EndpointConditions`.
 */
export interface EndpointConditions {
  /** Whether the endpoint should receive traffic; unknown when unset. */
  ready?: boolean;
  /** Like ready, but also set while the endpoint terminates. */
  serving?: boolean;
  /** Whether the endpoint is terminating. */
  terminating?: boolean;
}

/**
 * How the endpoint should be consumed.
 *
 * Schema `io.k8s.api.discovery.v1.EndpointHints`.
 */
export interface EndpointHints {
  /** Nodes that should consume the endpoint. */
  forNodes?: ForNode[];
  /** Zones that should consume the endpoint, for topology-aware routing. */
  forZones?: ForZone[];
}

/**
 * A subset of the endpoints that implement a service.
 *
 * Schema `io.k8s.api.discovery.v1.EndpointSlice`.
 */
export interface EndpointSlice extends KubeObject {
  /** IPv4, IPv6 or FQDN: the type of every address in the slice. Immutable. */
  addressType: 'FQDN' | 'IPv4' | 'IPv6';
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** The endpoints, at most 1000. */
  endpoints: Endpoint[];
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The ports every endpoint exposes. */
  ports?: DiscoveryV1EndpointPort[];
}

/**
 * Addresses that all serve the same ports.
 *
 * Schema `io.k8s.api.core.v1.EndpointSubset`.
 */
export interface EndpointSubset {
  /** Addresses ready to receive traffic. */
  addresses?: EndpointAddress[];
  /** Addresses not ready yet, or failing their readiness probes. */
  notReadyAddresses?: EndpointAddress[];
  /** Ports served on every address. */
  ports?: CoreV1EndpointPort[];
}

/**
 * The network endpoints behind a service.
 *
 * Schema `io.k8s.api.core.v1.Endpoints`.
 */
export interface Endpoints extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Groups of addresses with their ports. */
  subsets?: EndpointSubset[];
}

/**
 * A source of many environment variables at once.
 *
 * Schema `io.k8s.api.core.v1.EnvFromSource`.
 */
export interface EnvFromSource {
  /** The ConfigMap to read. */
  configMapRef?: ConfigMapEnvSource;
  /** A prefix added to every variable name. */
  prefix?: string;
  /** The Secret to read. */
  secretRef?: SecretEnvSource;
}

/**
 * An environment variable of a container.
 *
 * Schema `io.k8s.api.core.v1.EnvVar`.
 */
export interface EnvVar {
  /** Name of the variable. */
  name: string;
  /** The value; $(VAR) references to earlier variables are expanded, $$ escapes. */
  value?: string;
  /** Where to read the value from, instead of value. */
  valueFrom?: EnvVarSource;
}

/**
 * Where an environment variable’s value comes from. Exactly one source is set.
 *
 * Schema `io.k8s.api.core.v1.EnvVarSource`.
 */
export interface EnvVarSource {
  /** A key of a ConfigMap. */
  configMapKeyRef?: ConfigMapKeySelector;
  /** A field of the pod. */
  fieldRef?: ObjectFieldSelector;
  /** A resource limit or request of the container. */
  resourceFieldRef?: ResourceFieldSelector;
  /** A key of a Secret. */
  secretKeyRef?: SecretKeySelector;
}

/**
 * A temporary container added to a running pod, e.g. for debugging. Added through the ephemeralcontainers subresource.
 *
 * Schema `io.k8s.api.core.v1.EphemeralContainer`.
 */
export interface EphemeralContainer {
  /** Arguments to the entrypoint; the image’s CMD when empty. $(VAR) references are expanded. */
  args?: string[];
  /** The entrypoint, run directly (not in a shell); the image’s ENTRYPOINT when empty. */
  command?: string[];
  /** Environment variables to set. */
  env?: EnvVar[];
  /** Sources of many environment variables; later sources win. */
  envFrom?: EnvFromSource[];
  /** The container image. */
  image?: string;
  /** Always, Never or IfNotPresent. Defaults to Always for the :latest tag, IfNotPresent otherwise. */
  imagePullPolicy?: string;
  /** Actions at lifecycle events. */
  lifecycle?: Lifecycle;
  /** Restarts the container when it fails. */
  livenessProbe?: Probe;
  /** Name of the ephemeral container, a DNS label unique among the pod’s containers. */
  name: string;
  /** Ports the container exposes (informational). */
  ports?: ContainerPort[];
  /** Takes the pod out of service endpoints while it fails. */
  readinessProbe?: Probe;
  /** How the container reacts to in-place resource resizes. */
  resizePolicy?: ContainerResizePolicy[];
  /** Compute resources of the container. */
  resources?: ResourceRequirements;
  /** Only for init containers: Always makes it a sidecar that runs alongside the others. */
  restartPolicy?: string;
  /** Security settings of the container. */
  securityContext?: SecurityContext;
  /** Holds other probes back until the container has started. */
  startupProbe?: Probe;
  /** Allocate a stdin buffer. */
  stdin?: boolean;
  /** Close stdin after the first attach detaches. */
  stdinOnce?: boolean;
  /** A container whose namespaces (PID, IPC, ...) this one joins. */
  targetContainerName?: string;
  /** File the termination message is read from. Defaults to /dev/termination-log. */
  terminationMessagePath?: string;
  /** File or FallbackToLogsOnError. Defaults to File. */
  terminationMessagePolicy?: string;
  /** Allocate a TTY (needs stdin). */
  tty?: boolean;
  /** Raw block devices to map in. */
  volumeDevices?: VolumeDevice[];
  /** Pod volumes to mount. */
  volumeMounts?: VolumeMount[];
  /** Working directory; the image’s when empty. */
  workingDir?: string;
}

/**
 * A volume provisioned for the pod through a claim that lives as long as the pod.
 *
 * Schema `io.k8s.api.core.v1.EphemeralVolumeSource`.
 */
export interface EphemeralVolumeSource {
  /** The claim to create, named <pod>-<volume>. */
  volumeClaimTemplate?: PersistentVolumeClaimTemplate;
}

/**
 * The component that reported an event.
 *
 * Schema `io.k8s.api.core.v1.EventSource`.
 */
export interface EventSource {
  /** Name of the component. */
  component?: string;
  /** Node the component runs on. */
  host?: string;
}

/**
 * A report of something that happened to an object, kept for about an hour.
 *
 * Schema `io.k8s.api.events.v1.Event`.
 */
export interface EventsV1Event extends KubeObject {
  /** What was done, or failed, about the regarding object. */
  action?: string;
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** The core/v1 count; not set by this API. */
  deprecatedCount?: number;
  /** The core/v1 firstTimestamp; not set by this API. */
  deprecatedFirstTimestamp?: Time;
  /** The core/v1 lastTimestamp; not set by this API. */
  deprecatedLastTimestamp?: Time;
  /** The core/v1 source; not set by this API. */
  deprecatedSource?: EventSource;
  /** When the event first happened (microsecond precision). */
  eventTime: MicroTime;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Human-readable description; at most 1 kB. */
  note?: string;
  /** Why the action was taken; short, machine-readable. */
  reason?: string;
  /** The object this event is about. */
  regarding?: ObjectReference;
  /** A second object involved, if any. */
  related?: ObjectReference;
  /** The controller that emitted the event, e.g. kubernetes.io/kubelet. */
  reportingController?: string;
  /** The instance of that controller, e.g. kubelet-node-1. */
  reportingInstance?: string;
  /** Repeated occurrences of the event, when it recurs. */
  series?: EventsV1EventSeries;
  /** Normal or Warning. */
  type?: string;
}

/**
 * A run of repeated occurrences of the same event.
 *
 * Schema `io.k8s.api.events.v1.EventSeries`.
 */
export interface EventsV1EventSeries {
  /** Occurrences so far. */
  count: number;
  /** When the last occurrence was seen (microsecond precision). */
  lastObservedTime: MicroTime;
}

/**
 * Runs a command in the container.
 *
 * Schema `io.k8s.api.core.v1.ExecAction`.
 */
export interface ExecAction {
  /** The command line, run directly (not in a shell). */
  command?: string[];
}

/**
 * A level never limited.
 *
 * Schema `io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration`.
 */
export interface ExemptPriorityLevelConfiguration {
  /** Percent of the seats other levels may borrow (0-100). */
  lendablePercent?: number;
  /** Share of the server concurrency limit; default 0. */
  nominalConcurrencyShares?: number;
}

/**
 * A warning about one expression.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ExpressionWarning`.
 */
export interface ExpressionWarning {
  /** The path to the expression's field, e.g. spec.validations[0].expression. */
  fieldRef: string;
  /** What type checking found. */
  warning: string;
}

/**
 * A link to more documentation.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ExternalDocumentation`.
 */
export interface ExternalDocumentation {
  /** What the link is about. */
  description?: string;
  /** Where the documentation is. */
  url?: string;
}

/**
 * A metric from outside the cluster, such as a queue length.
 *
 * Schema `io.k8s.api.autoscaling.v2.ExternalMetricSource`.
 */
export interface ExternalMetricSource {
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
  /** The target value of the metric. */
  target: MetricTarget;
}

/**
 * Current value of an external metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.ExternalMetricStatus`.
 */
export interface ExternalMetricStatus {
  /** The current value of the metric. */
  current: MetricValueStatus;
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
}

/**
 * A Fibre Channel volume.
 *
 * Schema `io.k8s.api.core.v1.FCVolumeSource`.
 */
export interface FCVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Target LUN number. */
  lun?: number;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Target worldwide names. */
  targetWWNs?: string[];
  /** Volume worldwide identifiers (instead of targetWWNs and lun). */
  wwids?: string[];
}

/**
 * The set of fields a manager owns, as a trie of `f:`, `k:`, `v:` and `i:` keys.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1`.
 */
export type FieldsV1 = Record<string, unknown>;

/**
 * A volume provided by an exec-based plugin.
 *
 * Schema `io.k8s.api.core.v1.FlexPersistentVolumeSource`.
 */
export interface FlexPersistentVolumeSource {
  /** Name of the driver. */
  driver: string;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Extra options for the driver. */
  options?: Record<string, string>;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials, in any namespace. */
  secretRef?: SecretReference;
}

/**
 * A volume provided by an exec-based plugin.
 *
 * Schema `io.k8s.api.core.v1.FlexVolumeSource`.
 */
export interface FlexVolumeSource {
  /** Name of the driver. */
  driver: string;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Extra options for the driver. */
  options?: Record<string, string>;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
}

/**
 * A Flocker dataset.
 *
 * Schema `io.k8s.api.core.v1.FlockerVolumeSource`.
 */
export interface FlockerVolumeSource {
  /** Name of the dataset (deprecated). */
  datasetName?: string;
  /** UUID of the dataset. */
  datasetUUID?: string;
}

/**
 * How matching requests split into flows.
 *
 * Schema `io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod`.
 */
export interface FlowDistinguisherMethod {
  /** `ByUser` or `ByNamespace`. */
  type: 'ByNamespace' | 'ByUser';
}

/**
 * Which requests belong to which priority level, and how they split into flows.
 *
 * Schema `io.k8s.api.flowcontrol.v1.FlowSchema`.
 */
export interface FlowSchema extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** How requests are matched. */
  spec?: FlowSchemaSpec;
  /** The current state. */
  status?: FlowSchemaStatus;
}

/**
 * A condition of a FlowSchema.
 *
 * Schema `io.k8s.api.flowcontrol.v1.FlowSchemaCondition`.
 */
export interface FlowSchemaCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Why, for humans. */
  message?: string;
  /** Why, in one CamelCase word. */
  reason?: string;
  /** True, False or Unknown. */
  status?: string;
  /** The condition type. */
  type?: string;
}

/**
 * How requests are classified to this schema and its priority level.
 *
 * Schema `io.k8s.api.flowcontrol.v1.FlowSchemaSpec`.
 */
export interface FlowSchemaSpec {
  /** How requests of this schema split into flows; here the space always distinguishes flows. */
  distinguisherMethod?: FlowDistinguisherMethod;
  /** Lower is tried first; 1 to 10000, default 1000. */
  matchingPrecedence?: number;
  /** The priority level of matching requests. */
  priorityLevelConfiguration: PriorityLevelConfigurationReference;
  /** The rules; a request matches when one rule does. */
  rules?: PolicyRulesWithSubjects[];
}

/**
 * The observed state of a FlowSchema.
 *
 * Schema `io.k8s.api.flowcontrol.v1.FlowSchemaStatus`.
 */
export interface FlowSchemaStatus {
  /** The current state. */
  conditions?: FlowSchemaCondition[];
}

/**
 * Who a flow schema matches: a user, a group or a service account.
 *
 * Schema `io.k8s.api.flowcontrol.v1.Subject`.
 */
export interface FlowcontrolV1Subject {
  /** The group, when kind is Group. */
  group?: GroupSubject;
  /** `User`, `Group` or `ServiceAccount`. */
  kind: 'Group' | 'ServiceAccount' | 'User';
  /** The service account, when kind is ServiceAccount. */
  serviceAccount?: ServiceAccountSubject;
  /** The user, when kind is User. */
  user?: UserSubject;
}

/**
 * A node that should consume an endpoint.
 *
 * Schema `io.k8s.api.discovery.v1.ForNode`.
 */
export interface ForNode {
  /** Name of the node. */
  name: string;
}

/**
 * A zone that should consume an endpoint.
 *
 * Schema `io.k8s.api.discovery.v1.ForZone`.
 */
export interface ForZone {
  /** Name of the zone. */
  name: string;
}

/**
 * A Google Compute Engine persistent disk.
 *
 * Schema `io.k8s.api.core.v1.GCEPersistentDiskVolumeSource`.
 */
export interface GCEPersistentDiskVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Partition to mount. */
  partition?: number;
  /** Name of the disk. */
  pdName: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
}

/**
 * Calls the gRPC health checking protocol.
 *
 * Schema `io.k8s.api.core.v1.GRPCAction`.
 */
export interface GRPCAction {
  /** Port of the gRPC service. */
  port: number;
  /**
   * Service name to put in the HealthCheckRequest.
   * @defaultValue `""`
   */
  service?: string;
}

/**
 * Deprecated: a git repository cloned into the volume.
 *
 * Schema `io.k8s.api.core.v1.GitRepoVolumeSource`.
 */
export interface GitRepoVolumeSource {
  /** Target directory. */
  directory?: string;
  /** Repository URL. */
  repository: string;
  /** Commit to check out. */
  revision?: string;
}

/**
 * A GlusterFS volume.
 *
 * Schema `io.k8s.api.core.v1.GlusterfsPersistentVolumeSource`.
 */
export interface GlusterfsPersistentVolumeSource {
  /** Endpoints object naming the GlusterFS servers. */
  endpoints: string;
  /** Namespace of that Endpoints object; defaults to the claim’s. */
  endpointsNamespace?: string;
  /** Volume path. */
  path: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
}

/**
 * A GlusterFS volume.
 *
 * Schema `io.k8s.api.core.v1.GlusterfsVolumeSource`.
 */
export interface GlusterfsVolumeSource {
  /** Endpoints object naming the GlusterFS servers. */
  endpoints: string;
  /** Volume path. */
  path: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
}

/**
 * A group.
 *
 * Schema `io.k8s.api.flowcontrol.v1.GroupSubject`.
 */
export interface GroupSubject {
  /** The group name; `*` matches every group. */
  name: string;
}

/**
 * A limit on how much scaling may happen within a period.
 *
 * Schema `io.k8s.api.autoscaling.v2.HPAScalingPolicy`.
 */
export interface HPAScalingPolicy {
  /** The window the policy applies to, 1 to 1800 seconds. */
  periodSeconds: number;
  /** Pods (an absolute count) or Percent (of the current pods). */
  type: 'Percent' | 'Pods';
  /** The change allowed; greater than zero. */
  value: number;
}

/**
 * Scaling behaviour in one direction.
 *
 * Schema `io.k8s.api.autoscaling.v2.HPAScalingRules`.
 */
export interface HPAScalingRules {
  /** Limits on the scaling velocity; at least one. */
  policies?: HPAScalingPolicy[];
  /** Max (the default), Min or Disabled: which policy wins. */
  selectPolicy?: 'Disabled' | 'Max' | 'Min';
  /** Seconds of past recommendations considered, 0 to 3600. */
  stabilizationWindowSeconds?: number;
}

/**
 * Sends an HTTP GET request.
 *
 * Schema `io.k8s.api.core.v1.HTTPGetAction`.
 */
export interface HTTPGetAction {
  /** Host to connect to; defaults to the pod IP. */
  host?: string;
  /** Extra request headers. */
  httpHeaders?: HTTPHeader[];
  /** Path to request. */
  path?: string;
  /** Port number or name to connect to. */
  port: number | string;
  /** HTTP or HTTPS. Defaults to HTTP. */
  scheme?: string;
}

/**
 * A header of an HTTP probe request.
 *
 * Schema `io.k8s.api.core.v1.HTTPHeader`.
 */
export interface HTTPHeader {
  /** Header name. */
  name: string;
  /** Header value. */
  value: string;
}

/**
 * A path and the backend its requests go to.
 *
 * Schema `io.k8s.api.networking.v1.HTTPIngressPath`.
 */
export interface HTTPIngressPath {
  /** Where matching requests go. */
  backend: IngressBackend;
  /** The path requests are matched against; absolute for Exact and Prefix. */
  path?: string;
  /** How the path matches: Exact, Prefix or ImplementationSpecific. */
  pathType: 'Exact' | 'ImplementationSpecific' | 'Prefix';
}

/**
 * HTTP paths and their backends.
 *
 * Schema `io.k8s.api.networking.v1.HTTPIngressRuleValue`.
 */
export interface HTTPIngressRuleValue {
  /** Paths and their backends. */
  paths: HTTPIngressPath[];
}

/**
 * Scales a workload’s replica count between bounds, following metrics.
 *
 * Schema `io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler`.
 */
export interface HorizontalPodAutoscaler extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the autoscaler. */
  spec?: HorizontalPodAutoscalerSpec;
  /** The current state of the autoscaler. */
  status?: HorizontalPodAutoscalerStatus;
}

/**
 * Scaling behaviour up and down.
 *
 * Schema `io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior`.
 */
export interface HorizontalPodAutoscalerBehavior {
  /** Rules for scaling down. By default: down to minReplicas, with a 300-second stabilization window. */
  scaleDown?: HPAScalingRules;
  /** Rules for scaling up. By default: 4 pods or 100% per 15 seconds, whichever is more, without stabilization. */
  scaleUp?: HPAScalingRules;
}

/**
 * One observation of an autoscaler’s state.
 *
 * Schema `io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition`.
 */
export interface HorizontalPodAutoscalerCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type: ScalingActive, AbleToScale or ScalingLimited. */
  type: string;
}

/**
 * What to scale, within which bounds, on which metrics.
 *
 * Schema `io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec`.
 */
export interface HorizontalPodAutoscalerSpec {
  /** Scaling behaviour up and down; defaults apply to each unset direction. */
  behavior?: HorizontalPodAutoscalerBehavior;
  /** Upper bound on the replica count; not below minReplicas. */
  maxReplicas: number;
  /** Metrics to scale on; the largest resulting replica count wins. Defaults to 80% average CPU. */
  metrics?: MetricSpec[];
  /** Lower bound on the replica count. Defaults to 1. */
  minReplicas?: number;
  /** The object to scale; it must serve the scale subresource. */
  scaleTargetRef: CrossVersionObjectReference;
}

/**
 * The observed state of an autoscaler.
 *
 * Schema `io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus`.
 */
export interface HorizontalPodAutoscalerStatus {
  /** Latest observations of the autoscaler’s state. */
  conditions?: HorizontalPodAutoscalerCondition[];
  /** The last read values of the metrics. */
  currentMetrics?: MetricStatus[];
  /** Replicas last seen by the autoscaler. */
  currentReplicas?: number;
  /** Replicas last computed by the autoscaler. */
  desiredReplicas: number;
  /** When the autoscaler last changed the replica count. */
  lastScaleTime?: Time;
  /** The generation the autoscaler last acted on. */
  observedGeneration?: number;
}

/**
 * An /etc/hosts entry of the pod.
 *
 * Schema `io.k8s.api.core.v1.HostAlias`.
 */
export interface HostAlias {
  /** Host names for the IP. */
  hostnames?: string[];
  /** The IP address. */
  ip: string;
}

/**
 * An IP address of the pod’s node.
 *
 * Schema `io.k8s.api.core.v1.HostIP`.
 */
export interface HostIP {
  /** The address. */
  ip: string;
}

/**
 * A file or directory of the node.
 *
 * Schema `io.k8s.api.core.v1.HostPathVolumeSource`.
 */
export interface HostPathVolumeSource {
  /** Path on the host; symlinks are followed. */
  path: string;
  /**
   * What must exist at the path: "", DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice or BlockDevice.
   * @defaultValue `""`
   */
  type?: string;
}

/**
 * A range of IP addresses, minus some sub-ranges.
 *
 * Schema `io.k8s.api.networking.v1.IPBlock`.
 */
export interface IPBlock {
  /** The range, e.g. "192.168.1.0/24" or "2001:db8::/64". */
  cidr: string;
  /** Sub-ranges excluded from cidr. */
  except?: string[];
}

/**
 * An iSCSI disk.
 *
 * Schema `io.k8s.api.core.v1.ISCSIPersistentVolumeSource`.
 */
export interface ISCSIPersistentVolumeSource {
  /** Use CHAP authentication for discovery. */
  chapAuthDiscovery?: boolean;
  /** Use CHAP authentication for the session. */
  chapAuthSession?: boolean;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Custom iSCSI initiator name. */
  initiatorName?: string;
  /** Target iSCSI qualified name. */
  iqn: string;
  /** iSCSI interface name. Defaults to "default". */
  iscsiInterface?: string;
  /** Target LUN number. */
  lun: number;
  /** Additional target portals (ip or ip:port). */
  portals?: string[];
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials, in any namespace. */
  secretRef?: SecretReference;
  /** Target portal (ip or ip:port). */
  targetPortal: string;
}

/**
 * An iSCSI disk.
 *
 * Schema `io.k8s.api.core.v1.ISCSIVolumeSource`.
 */
export interface ISCSIVolumeSource {
  /** Use CHAP authentication for discovery. */
  chapAuthDiscovery?: boolean;
  /** Use CHAP authentication for the session. */
  chapAuthSession?: boolean;
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Custom iSCSI initiator name. */
  initiatorName?: string;
  /** Target iSCSI qualified name. */
  iqn: string;
  /** iSCSI interface name. Defaults to "default". */
  iscsiInterface?: string;
  /** Target LUN number. */
  lun: number;
  /** Additional target portals (ip or ip:port). */
  portals?: string[];
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
  /** Target portal (ip or ip:port). */
  targetPortal: string;
}

/**
 * An OCI image or artifact mounted read-only.
 *
 * Schema `io.k8s.api.core.v1.ImageVolumeSource`.
 */
export interface ImageVolumeSource {
  /** Always, Never or IfNotPresent. */
  pullPolicy?: string;
  /** The image or artifact reference. */
  reference?: string;
}

/**
 * Rules that route inbound HTTP traffic to services.
 *
 * Schema `io.k8s.api.networking.v1.Ingress`.
 */
export interface Ingress extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired routing. */
  spec?: IngressSpec;
  /** The current state of the ingress. */
  status?: IngressStatus;
}

/**
 * Where matching requests go: a service port, or another resource.
 *
 * Schema `io.k8s.api.networking.v1.IngressBackend`.
 */
export interface IngressBackend {
  /** Another object of the ingress’s namespace; excludes service. */
  resource?: TypedLocalObjectReference;
  /** A service backend; excludes resource. */
  service?: IngressServiceBackend;
}

/**
 * A class of ingresses and the controller that implements it.
 *
 * Schema `io.k8s.api.networking.v1.IngressClass`.
 */
export interface IngressClass extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired state of the class. */
  spec?: IngressClassSpec;
}

/**
 * The object holding a class’s parameters.
 *
 * Schema `io.k8s.api.networking.v1.IngressClassParametersReference`.
 */
export interface IngressClassParametersReference {
  /** API group of the object; the core group when unset. */
  apiGroup?: string;
  /** Kind of the object. */
  kind: string;
  /** Name of the object. */
  name: string;
  /** Namespace of the object; required with scope Namespace, forbidden with Cluster. */
  namespace?: string;
  /** Cluster (the default) or Namespace. */
  scope?: 'Cluster' | 'Namespace';
}

/**
 * The controller of a class and its parameters.
 *
 * Schema `io.k8s.api.networking.v1.IngressClassSpec`.
 */
export interface IngressClassSpec {
  /** The controller that implements the class, as a domain-prefixed path such as example.com/ingress-controller. Immutable. */
  controller?: string;
  /** Extra configuration for the controller. */
  parameters?: IngressClassParametersReference;
}

/**
 * One entry point of the load balancer.
 *
 * Schema `io.k8s.api.networking.v1.IngressLoadBalancerIngress`.
 */
export interface IngressLoadBalancerIngress {
  /** Hostname of the entry point. */
  hostname?: string;
  /** IP address of the entry point. */
  ip?: string;
  /** Ports of the entry point. */
  ports?: IngressPortStatus[];
}

/**
 * The load balancer’s entry points.
 *
 * Schema `io.k8s.api.networking.v1.IngressLoadBalancerStatus`.
 */
export interface IngressLoadBalancerStatus {
  /** The entry points. */
  ingress?: IngressLoadBalancerIngress[];
}

/**
 * The state of one load-balancer port.
 *
 * Schema `io.k8s.api.networking.v1.IngressPortStatus`.
 */
export interface IngressPortStatus {
  /** Why the port is not working, if it is not. */
  error?: string;
  /** The port number. */
  port: number;
  /** TCP, UDP or SCTP. */
  protocol: string;
}

/**
 * Paths under one host and where they go.
 *
 * Schema `io.k8s.api.networking.v1.IngressRule`.
 */
export interface IngressRule {
  /** The host requests must name (a DNS name, a leading "*." allowed); every host when empty. */
  host?: string;
  /** HTTP routing for the host. */
  http?: HTTPIngressRuleValue;
}

/**
 * A service and one of its ports.
 *
 * Schema `io.k8s.api.networking.v1.IngressServiceBackend`.
 */
export interface IngressServiceBackend {
  /** The service, in the ingress’s namespace. */
  name: string;
  /** The service port. */
  port?: ServiceBackendPort;
}

/**
 * The routing an ingress asks for.
 *
 * Schema `io.k8s.api.networking.v1.IngressSpec`.
 */
export interface IngressSpec {
  /** Where requests that match no rule go. */
  defaultBackend?: IngressBackend;
  /** The IngressClass whose controller implements this ingress. */
  ingressClassName?: string;
  /** Host rules; requests that match none go to the default backend. */
  rules?: IngressRule[];
  /** TLS configuration, on port 443. */
  tls?: IngressTLS[];
}

/**
 * The observed state of an ingress.
 *
 * Schema `io.k8s.api.networking.v1.IngressStatus`.
 */
export interface IngressStatus {
  /** The state of the load balancer. */
  loadBalancer?: IngressLoadBalancerStatus;
}

/**
 * TLS for some hosts.
 *
 * Schema `io.k8s.api.networking.v1.IngressTLS`.
 */
export interface IngressTLS {
  /** Hosts the certificate covers. */
  hosts?: string[];
  /** The secret holding the certificate and key. */
  secretName?: string;
}

/**
 * Any valid JSON value.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON`.
 */
export type JSON = unknown;

/**
 * A JSON-Schema following Specification Draft 4 (http://json-schema.org/).
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps`.
 */
export interface JSONSchemaProps {
  /** Not supported. */
  $ref?: string;
  /** The JSON-Schema dialect. */
  $schema?: string;
  /** Not supported. */
  additionalItems?: JSONSchemaPropsOrBool;
  /** The schema of map values, or whether other properties are allowed. */
  additionalProperties?: JSONSchemaPropsOrBool;
  /** Schemas the value must all match. */
  allOf?: JSONSchemaProps[];
  /** Schemas the value must match at least one of. */
  anyOf?: JSONSchemaProps[];
  /** The value used when none is given (structural schemas only). */
  default?: JSON;
  /** Not supported. */
  definitions?: Record<string, JSONSchemaProps>;
  /** Not supported. */
  dependencies?: Record<string, JSONSchemaPropsOrStringArray>;
  /** What the value is. */
  description?: string;
  /** The only values allowed. */
  enum?: JSON[];
  /** An example value. */
  example?: JSON;
  /** Whether maximum itself is excluded. */
  exclusiveMaximum?: boolean;
  /** Whether minimum itself is excluded. */
  exclusiveMinimum?: boolean;
  /** More documentation. */
  externalDocs?: ExternalDocumentation;
  /** A format of the type, such as int32, date-time or byte. */
  format?: string;
  /** Not supported. */
  id?: string;
  /** The schema of array items. */
  items?: JSONSchemaPropsOrArray;
  /** Most items allowed. */
  maxItems?: number;
  /** Longest string allowed. */
  maxLength?: number;
  /** Most properties allowed. */
  maxProperties?: number;
  /** Largest value allowed. */
  maximum?: number;
  /** Fewest items allowed. */
  minItems?: number;
  /** Shortest string allowed. */
  minLength?: number;
  /** Fewest properties allowed. */
  minProperties?: number;
  /** Smallest value allowed. */
  minimum?: number;
  /** Numbers must be multiples of this. */
  multipleOf?: number;
  /** A schema the value must not match. */
  not?: JSONSchemaProps;
  /** Whether null is allowed (and kept). */
  nullable?: boolean;
  /** Schemas the value must match exactly one of. */
  oneOf?: JSONSchemaProps[];
  /** A regular expression strings must match. */
  pattern?: string;
  /** Not supported. */
  patternProperties?: Record<string, JSONSchemaProps>;
  /** The schemas of known properties. */
  properties?: Record<string, JSONSchemaProps>;
  /** Properties that must be present. */
  required?: string[];
  /** A short title. */
  title?: string;
  /** object, array, string, integer, number or boolean. */
  type?: string;
  /** Not supported (true is refused). */
  uniqueItems?: boolean;
  /** The value is a Kubernetes object, with apiVersion, kind and metadata. */
  'x-kubernetes-embedded-resource'?: boolean;
  /** The value is an integer or a string. */
  'x-kubernetes-int-or-string'?: boolean;
  /** The fields that identify an item of a map-type list. */
  'x-kubernetes-list-map-keys'?: string[];
  /** atomic, set or map: how lists merge under server-side apply. */
  'x-kubernetes-list-type'?: string;
  /** granular or atomic: how objects merge under server-side apply. */
  'x-kubernetes-map-type'?: string;
  /** Keep fields the schema does not declare instead of pruning them. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** CEL rules the value must satisfy. */
  'x-kubernetes-validations'?: ValidationRule[];
}

/**
 * A schema, or an array of schemas.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray`.
 */
export type JSONSchemaPropsOrArray = unknown;

/**
 * A schema, or a boolean (true allows anything, false nothing).
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool`.
 */
export type JSONSchemaPropsOrBool = unknown;

/**
 * A schema, or an array of property names.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray`.
 */
export type JSONSchemaPropsOrStringArray = unknown;

/**
 * Pods that run until a number of them succeed.
 *
 * Schema `io.k8s.api.batch.v1.Job`.
 */
export interface Job extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the job. */
  spec?: JobSpec;
  /** The current status of the job. */
  status?: JobStatus;
}

/**
 * One observation of a job’s state.
 *
 * Schema `io.k8s.api.batch.v1.JobCondition`.
 */
export interface JobCondition {
  /** When the condition was last checked. */
  lastProbeTime?: Time;
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type: Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet. */
  type: string;
}

/**
 * What a job runs and how it finishes.
 *
 * Schema `io.k8s.api.batch.v1.JobSpec`.
 */
export interface JobSpec {
  /** Seconds the job may stay active before it is terminated. */
  activeDeadlineSeconds?: number;
  /** Retries before the job is marked failed. Defaults to 6. */
  backoffLimit?: number;
  /** Retries per index of an indexed job. Immutable. */
  backoffLimitPerIndex?: number;
  /** NonIndexed (the default) or Indexed. */
  completionMode?: 'NonIndexed' | 'Indexed';
  /** Successful pods needed. Defaults to 1 when parallelism is unset too. */
  completions?: number;
  /** The controller that manages the job; the built-in one is kubernetes.io/job-controller. Immutable. */
  managedBy?: string;
  /** Whether the client picks the selector and pod labels instead of the server. */
  manualSelector?: boolean;
  /** Failed indexes tolerated before the job fails; needs backoffLimitPerIndex. */
  maxFailedIndexes?: number;
  /** Most pods running at once. Defaults to 1. */
  parallelism?: number;
  /** How failed pods count towards backoffLimit. Requires restartPolicy Never. */
  podFailurePolicy?: PodFailurePolicy;
  /** When replacement pods are created: TerminatingOrFailed or Failed. */
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  /** Label query over the job’s pods; generated by the server unless manualSelector is true. */
  selector?: LabelSelector;
  /** When an indexed job may succeed early. Immutable. */
  successPolicy?: SuccessPolicy;
  /** Whether the job controller should hold off creating pods. Defaults to false. */
  suspend?: boolean;
  /** The pods the job runs. restartPolicy must be Never or OnFailure. */
  template: PodTemplateSpec;
  /** Seconds after the job finishes before it may be deleted automatically. */
  ttlSecondsAfterFinished?: number;
}

/**
 * The observed state of a job.
 *
 * Schema `io.k8s.api.batch.v1.JobStatus`.
 */
export interface JobStatus {
  /** Pending and running pods that are not terminating. */
  active?: number;
  /** Completed indexes of an indexed job, as intervals such as "1,3-5,7". */
  completedIndexes?: string;
  /** When the job completed successfully. */
  completionTime?: Time;
  /** Latest observations of the job’s state. */
  conditions?: JobCondition[];
  /** Pods that reached phase Failed. */
  failed?: number;
  /** Failed indexes of an indexed job with backoffLimitPerIndex. */
  failedIndexes?: string;
  /** Active pods with a Ready condition. */
  ready?: number;
  /** When the controller started the job. */
  startTime?: Time;
  /** Pods that reached phase Succeeded. */
  succeeded?: number;
  /** Pods that are terminating. */
  terminating?: number;
  /** Finished pods not yet counted in the status. */
  uncountedTerminatedPods?: UncountedTerminatedPods;
}

/**
 * The job a cron job creates.
 *
 * Schema `io.k8s.api.batch.v1.JobTemplateSpec`.
 */
export interface JobTemplateSpec {
  /** Metadata of the jobs created from this template. */
  metadata?: ObjectMeta;
  /** The spec of the jobs created from this template. */
  spec?: JobSpec;
}

/**
 * Projects one key to a file path.
 *
 * Schema `io.k8s.api.core.v1.KeyToPath`.
 */
export interface KeyToPath {
  /** The key. */
  key: string;
  /** Permission bits for this file, 0000-0777 (octal in YAML, decimal in JSON). */
  mode?: number;
  /** Relative path of the file; no ".." elements. */
  path: string;
}

/**
 * A label query. All requirements are ANDed; an empty selector matches everything, a missing one nothing.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector`.
 */
export interface LabelSelector {
  /** Requirements on label values. */
  matchExpressions?: LabelSelectorRequirement[];
  /** Labels that must be present with these exact values. */
  matchLabels?: Record<string, string>;
}

/**
 * One requirement of a label selector: a key, an operator and values.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement`.
 */
export interface LabelSelectorRequirement {
  /** The label key the requirement applies to. */
  key: string;
  /** In, NotIn, Exists or DoesNotExist. */
  operator: string;
  /** Values for In and NotIn; must be empty for Exists and DoesNotExist. */
  values?: string[];
}

/**
 * A lease, for leader election and heartbeats.
 *
 * Schema `io.k8s.api.coordination.v1.Lease`.
 */
export interface Lease extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The lease. */
  spec?: LeaseSpec;
}

/**
 * The state of a lease.
 *
 * Schema `io.k8s.api.coordination.v1.LeaseSpec`.
 */
export interface LeaseSpec {
  /** When the current holder acquired the lease (microsecond precision). */
  acquireTime?: MicroTime;
  /** Who holds the lease. */
  holderIdentity?: string;
  /** Seconds candidates wait for a renewal before they may take the lease. */
  leaseDurationSeconds?: number;
  /** How many times the lease changed holders. */
  leaseTransitions?: number;
  /** A holder the lease should move to; only with a strategy. */
  preferredHolder?: string;
  /** When the holder last renewed the lease (microsecond precision). */
  renewTime?: MicroTime;
  /** How a leader is chosen among candidates in coordinated leader election. */
  strategy?: string;
}

/**
 * Actions run at container lifecycle events.
 *
 * Schema `io.k8s.api.core.v1.Lifecycle`.
 */
export interface Lifecycle {
  /** Run right after the container is created. */
  postStart?: LifecycleHandler;
  /** Run before the container is terminated. */
  preStop?: LifecycleHandler;
  /** The signal used to stop the container. */
  stopSignal?: string;
}

/**
 * An action run at a container lifecycle event. Exactly one is set.
 *
 * Schema `io.k8s.api.core.v1.LifecycleHandler`.
 */
export interface LifecycleHandler {
  /** Run a command. */
  exec?: ExecAction;
  /** Send an HTTP request. */
  httpGet?: HTTPGetAction;
  /** Sleep for a while. */
  sleep?: SleepAction;
  /** Open a TCP connection. */
  tcpSocket?: TCPSocketAction;
}

/**
 * Bounds and defaults for resource use in a namespace.
 *
 * Schema `io.k8s.api.core.v1.LimitRange`.
 */
export interface LimitRange extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The bounds the LimitRange sets. */
  spec?: LimitRangeSpec;
}

/**
 * Bounds and defaults for one kind of object.
 *
 * Schema `io.k8s.api.core.v1.LimitRangeItem`.
 */
export interface LimitRangeItem {
  /** Default limits of a container that sets none. */
  default?: Record<string, string | number>;
  /** Default requests of a container that sets none. */
  defaultRequest?: Record<string, string | number>;
  /** The most of each resource allowed. */
  max?: Record<string, string | number>;
  /** The largest limit/request ratio allowed for each resource. */
  maxLimitRequestRatio?: Record<string, string | number>;
  /** The least of each resource required. */
  min?: Record<string, string | number>;
  /** What the bounds apply to: Container, Pod or PersistentVolumeClaim. */
  type: string;
}

/**
 * The bounds a LimitRange sets.
 *
 * Schema `io.k8s.api.core.v1.LimitRangeSpec`.
 */
export interface LimitRangeSpec {
  /** Bounds per kind of object. */
  limits: LimitRangeItem[];
}

/**
 * What happens to requests that cannot run at once.
 *
 * Schema `io.k8s.api.flowcontrol.v1.LimitResponse`.
 */
export interface LimitResponse {
  /** The queues, when type is Queue. */
  queuing?: QueuingConfiguration;
  /** `Queue` or `Reject`. */
  type: 'Queue' | 'Reject';
}

/**
 * A level with a share of the server.
 *
 * Schema `io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration`.
 */
export interface LimitedPriorityLevelConfiguration {
  /** Percent of its seats the level may borrow from others. */
  borrowingLimitPercent?: number;
  /** Percent of the seats other levels may borrow (0-100). */
  lendablePercent?: number;
  /** What happens to requests that cannot run at once. */
  limitResponse?: LimitResponse;
  /** Share of the server concurrency limit; default 30. */
  nominalConcurrencyShares?: number;
}

/**
 * The Linux identity of a container’s first process.
 *
 * Schema `io.k8s.api.core.v1.LinuxContainerUser`.
 */
export interface LinuxContainerUser {
  /** Primary GID. */
  gid: number;
  /** Supplemental groups. */
  supplementalGroups?: number[];
  /** UID. */
  uid: number;
}

/**
 * Metadata of a list response.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta`.
 */
export interface ListMeta {
  /** A token for the next page of a chunked list, if there is one. */
  continue?: string;
  /** An estimate of how many items the remaining pages hold. */
  remainingItemCount?: number;
  /** The revision the list was read at. */
  resourceVersion?: string;
  /** Deprecated and no longer set. */
  selfLink?: string;
}

/**
 * An address of a load balancer.
 *
 * Schema `io.k8s.api.core.v1.LoadBalancerIngress`.
 */
export interface LoadBalancerIngress {
  /** DNS name of the load balancer. */
  hostname?: string;
  /** IP of the load balancer. */
  ip?: string;
  /** VIP or Proxy: how traffic sent to the IP reaches the pods. */
  ipMode?: string;
  /** The state of each port. */
  ports?: PortStatus[];
}

/**
 * The state of a load balancer.
 *
 * Schema `io.k8s.api.core.v1.LoadBalancerStatus`.
 */
export interface LoadBalancerStatus {
  /** Addresses of the load balancer. */
  ingress?: LoadBalancerIngress[];
}

/**
 * A reference to an object in the same namespace.
 *
 * Schema `io.k8s.api.core.v1.LocalObjectReference`.
 */
export interface LocalObjectReference {
  /** Name of the referent. */
  name?: string;
}

/**
 * Asks whether a user or group may perform an action in one namespace.
 *
 * Schema `io.k8s.api.authorization.v1.LocalSubjectAccessReview`.
 */
export interface LocalSubjectAccessReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The action and the subject asked about; resourceAttributes.namespace must be the namespace of the request. */
  spec?: SubjectAccessReviewSpec;
  /** The answer, filled in by the server. */
  status?: SubjectAccessReviewStatus;
}

/**
 * A disk, partition or directory attached to a node.
 *
 * Schema `io.k8s.api.core.v1.LocalVolumeSource`.
 */
export interface LocalVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Full path on the node. */
  path: string;
}

/**
 * Which fields of the object one manager owns, and through which operation.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry`.
 */
export interface ManagedFieldsEntry {
  /** The version of the resource the field set is expressed in. */
  apiVersion?: string;
  /** The format of fieldsV1; only "FieldsV1" exists. */
  fieldsType?: string;
  /** The owned fields. */
  fieldsV1?: FieldsV1;
  /** Who manages these fields (the field manager of the request). */
  manager?: string;
  /** How the fields were last written: "Apply" or "Update". */
  operation?: string;
  /** The subresource the fields were written through, if any. */
  subresource?: string;
  /** When the manager last changed one of these fields. */
  time?: Time;
}

/**
 * A CEL condition a request must meet for the policy to apply.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MatchCondition`.
 */
export interface MatchCondition {
  /** A CEL expression returning bool. */
  expression: string;
  /** The condition's name, unique in the policy. */
  name: string;
}

/**
 * Which requests a policy or binding applies to.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MatchResources`.
 */
export interface MatchResources {
  /** The operations and resources that never match. */
  excludeResourceRules?: NamedRuleWithOperations[];
  /** Exact, or Equivalent (the default): also a request to another version of the same resource. */
  matchPolicy?: string;
  /** The namespaces whose objects (and the namespaces themselves) match, by label; empty matches all. */
  namespaceSelector?: LabelSelector;
  /** The objects that match, by label of the object or its old version; empty matches all. */
  objectSelector?: LabelSelector;
  /** The operations and resources that match. */
  resourceRules?: NamedRuleWithOperations[];
}

/**
 * Names a metric, optionally narrowed by a label selector.
 *
 * Schema `io.k8s.api.autoscaling.v2.MetricIdentifier`.
 */
export interface MetricIdentifier {
  /** Name of the metric. */
  name: string;
  /** Extra scoping passed to the metrics server. */
  selector?: LabelSelector;
}

/**
 * One metric to scale on: type plus the matching source.
 *
 * Schema `io.k8s.api.autoscaling.v2.MetricSpec`.
 */
export interface MetricSpec {
  /** A resource metric of one container. */
  containerResource?: ContainerResourceMetricSource;
  /** An external metric. */
  external?: ExternalMetricSource;
  /** A metric describing a single object. */
  object?: ObjectMetricSource;
  /** A metric of each pod. */
  pods?: PodsMetricSource;
  /** A resource metric of each pod. */
  resource?: ResourceMetricSource;
  /** ContainerResource, External, Object, Pods or Resource. */
  type: 'ContainerResource' | 'External' | 'Object' | 'Pods' | 'Resource';
}

/**
 * The last read value of one metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.MetricStatus`.
 */
export interface MetricStatus {
  /** A container resource metric. */
  containerResource?: ContainerResourceMetricStatus;
  /** An external metric. */
  external?: ExternalMetricStatus;
  /** An object metric. */
  object?: ObjectMetricStatus;
  /** A pods metric. */
  pods?: PodsMetricStatus;
  /** A resource metric. */
  resource?: ResourceMetricStatus;
  /** ContainerResource, External, Object, Pods or Resource. */
  type: 'ContainerResource' | 'External' | 'Object' | 'Pods' | 'Resource';
}

/**
 * The value a metric should be kept at.
 *
 * Schema `io.k8s.api.autoscaling.v2.MetricTarget`.
 */
export interface MetricTarget {
  /** Target average utilization, as a percentage of the pods’ requests (resource metrics only). */
  averageUtilization?: number;
  /** Target average of the metric across the relevant pods. */
  averageValue?: string | number;
  /** Utilization, Value or AverageValue. */
  type: 'Utilization' | 'Value' | 'AverageValue';
  /** Target value of the metric. */
  value?: string | number;
}

/**
 * The current value of a metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.MetricValueStatus`.
 */
export interface MetricValueStatus {
  /** Current average utilization, as a percentage of the pods’ requests. */
  averageUtilization?: number;
  /** Current average of the metric across the relevant pods. */
  averageValue?: string | number;
  /** Current value of the metric. */
  value?: string | number;
}

/**
 * A timestamp in RFC 3339 form, to the microsecond.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime`.
 */
export type MicroTime = string;

/**
 * Progress of changing a volume’s attributes class.
 *
 * Schema `io.k8s.api.core.v1.ModifyVolumeStatus`.
 */
export interface ModifyVolumeStatus {
  /** Pending, InProgress or Infeasible. */
  status: string;
  /** The class being applied. */
  targetVolumeAttributesClassName?: string;
}

/**
 * An admission webhook that may change objects (JSONPatch) or refuse requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingWebhook`.
 */
export interface MutatingWebhook {
  /** AdmissionReview versions the webhook understands, in order of preference; must include v1 or v1beta1. */
  admissionReviewVersions: string[];
  /** How to reach the webhook. */
  clientConfig: AdmissionregistrationV1WebhookClientConfig;
  /** What an unreachable or failing webhook means: Fail (the default) or Ignore. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** CEL conditions the request must all satisfy; at most 64. */
  matchConditions?: MatchCondition[];
  /** Exact, or Equivalent (the default): also requests through another version of a rule’s resource. */
  matchPolicy?: 'Equivalent' | 'Exact';
  /** The webhook’s fully qualified name, e.g. imagepolicy.kubernetes.io. */
  name: string;
  /** Which namespaces’ objects are sent, by the namespace’s labels. */
  namespaceSelector?: LabelSelector;
  /** Which objects are sent, by their labels. */
  objectSelector?: LabelSelector;
  /** Never (the default) or IfNeeded: called again when later plugins change the object. */
  reinvocationPolicy?: 'IfNeeded' | 'Never';
  /** The operations and resources the webhook cares about. */
  rules?: RuleWithOperations[];
  /** None or NoneOnDryRun; other webhooks are not called for dry-run requests. */
  sideEffects: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  /** Seconds to wait for the webhook, 1 to 30; 10 by default. */
  timeoutSeconds?: number;
}

/**
 * The mutating admission webhooks of this space.
 *
 * Schema `io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration`.
 */
export interface MutatingWebhookConfiguration extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The webhooks, each with its rules. */
  webhooks?: MutatingWebhook[];
}

/**
 * An NFS export.
 *
 * Schema `io.k8s.api.core.v1.NFSVolumeSource`.
 */
export interface NFSVolumeSource {
  /** Exported path. */
  path: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Hostname or IP of the NFS server. */
  server: string;
}

/**
 * Operations and resources a rule matches, optionally by name.
 *
 * Schema `io.k8s.api.admissionregistration.v1.NamedRuleWithOperations`.
 */
export interface NamedRuleWithOperations {
  /** API groups; "" is the core group, * all. */
  apiGroups?: string[];
  /** API versions; * all. */
  apiVersions?: string[];
  /** CREATE, UPDATE, DELETE, CONNECT or * for all. */
  operations?: string[];
  /** Names the rule is limited to; empty means every name. */
  resourceNames?: string[];
  /** Resources, "pods/status" for a subresource, * all; "*\/*" every resource and subresource. */
  resources?: string[];
  /** Cluster, Namespaced or * (the default). */
  scope?: string;
}

/**
 * A scope for names: most objects live in a namespace.
 *
 * Schema `io.k8s.api.core.v1.Namespace`.
 */
export interface Namespace extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** What the namespace needs before it can go. */
  spec?: NamespaceSpec;
  /** The observed state of the namespace. Read-only. */
  status?: NamespaceStatus;
}

/**
 * One aspect of a namespace’s state.
 *
 * Schema `io.k8s.api.core.v1.NamespaceCondition`.
 */
export interface NamespaceCondition {
  /** When the status last changed. */
  lastTransitionTime?: Time;
  /** Details for people. */
  message?: string;
  /** Why the status is what it is, CamelCase. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** What the condition is about, e.g. NamespaceDeletionContentFailure. */
  type: string;
}

/**
 * What a namespace needs before it can go.
 *
 * Schema `io.k8s.api.core.v1.NamespaceSpec`.
 */
export interface NamespaceSpec {
  /** Components that must clean the namespace up before it is removed. */
  finalizers?: string[];
}

/**
 * The observed state of a namespace.
 *
 * Schema `io.k8s.api.core.v1.NamespaceStatus`.
 */
export interface NamespaceStatus {
  /** Current conditions. */
  conditions?: NamespaceCondition[];
  /** Active, or Terminating while the namespace is being deleted. */
  phase?: string;
}

/**
 * What network traffic is allowed for a set of pods.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicy`.
 */
export interface NetworkPolicy extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the policy. */
  spec?: NetworkPolicySpec;
}

/**
 * Traffic allowed out of the selected pods: it must match a port and a destination.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicyEgressRule`.
 */
export interface NetworkPolicyEgressRule {
  /** Ports allowed; all when empty. */
  ports?: NetworkPolicyPort[];
  /** Destinations allowed; all when empty. */
  to?: NetworkPolicyPeer[];
}

/**
 * Traffic allowed to the selected pods: it must match a port and a source.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicyIngressRule`.
 */
export interface NetworkPolicyIngressRule {
  /** Sources allowed; all when empty. */
  from?: NetworkPolicyPeer[];
  /** Ports allowed; all when empty. */
  ports?: NetworkPolicyPort[];
}

/**
 * A source or destination of traffic: pods, namespaces, or an IP block.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicyPeer`.
 */
export interface NetworkPolicyPeer {
  /** An IP range; excludes the other two fields. */
  ipBlock?: IPBlock;
  /** Namespaces whose pods (all, or those podSelector picks) are selected. */
  namespaceSelector?: LabelSelector;
  /** Pods, in the policy’s namespace or in the namespaces selected. */
  podSelector?: LabelSelector;
}

/**
 * A port traffic may use.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicyPort`.
 */
export interface NetworkPolicyPort {
  /** With a numeric port, the last port of the range port..endPort. */
  endPort?: number;
  /** A port number or a named port of the pods; every port when unset. */
  port?: number | string;
  /** TCP (the default), UDP or SCTP. */
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/**
 * Which pods the policy isolates and what traffic it allows.
 *
 * Schema `io.k8s.api.networking.v1.NetworkPolicySpec`.
 */
export interface NetworkPolicySpec {
  /** Outgoing traffic allowed; none when empty. */
  egress?: NetworkPolicyEgressRule[];
  /** Incoming traffic allowed; none when empty. */
  ingress?: NetworkPolicyIngressRule[];
  /** The pods the policy applies to; empty selects every pod of the namespace. */
  podSelector?: LabelSelector;
  /** The directions the policy governs. Defaults to Ingress, plus Egress when egress rules are given. */
  policyTypes?: Array<'Ingress' | 'Egress'>;
}

/**
 * A worker node that runs pods.
 *
 * Schema `io.k8s.api.core.v1.Node`.
 */
export interface Node extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behavior of the node. */
  spec?: NodeSpec;
  /** The most recently observed status of the node. Read-only. */
  status?: NodeStatus;
}

/**
 * One address of a node.
 *
 * Schema `io.k8s.api.core.v1.NodeAddress`.
 */
export interface NodeAddress {
  /** The address. */
  address?: string;
  /** Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS. */
  type?: string;
}

/**
 * Rules on which nodes the pod may or should run.
 *
 * Schema `io.k8s.api.core.v1.NodeAffinity`.
 */
export interface NodeAffinity {
  /** Nodes preferred, by weight. */
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
  /** Nodes the pod must run on. */
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
}

/**
 * One observed condition of a node.
 *
 * Schema `io.k8s.api.core.v1.NodeCondition`.
 */
export interface NodeCondition {
  /** Last time the condition was reported. */
  lastHeartbeatTime?: Time;
  /** Last time the status changed. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason of the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status?: string;
  /** Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable. */
  type?: string;
}

/**
 * Where a node gets its configuration.
 *
 * Schema `io.k8s.api.core.v1.NodeConfigSource`.
 */
export interface NodeConfigSource {
  /** A ConfigMap source. */
  configMap?: ConfigMapNodeConfigSource;
}

/**
 * Deprecated: status of the dynamic kubelet config.
 *
 * Schema `io.k8s.api.core.v1.NodeConfigStatus`.
 */
export interface NodeConfigStatus {
  /** The active config. */
  active?: NodeConfigSource;
  /** The assigned config. */
  assigned?: NodeConfigSource;
  /** Problems reconciling the config. */
  error?: string;
  /** The last known good config. */
  lastKnownGood?: NodeConfigSource;
}

/**
 * Ports of daemons on the node.
 *
 * Schema `io.k8s.api.core.v1.NodeDaemonEndpoints`.
 */
export interface NodeDaemonEndpoints {
  /** The kubelet port. */
  kubeletEndpoint?: DaemonEndpoint;
}

/**
 * Features the node supports.
 *
 * Schema `io.k8s.api.core.v1.NodeFeatures`.
 */
export interface NodeFeatures {
  /** Whether SupplementalGroupsPolicy is supported. */
  supplementalGroupsPolicy?: boolean;
}

/**
 * A runtime handler of the node.
 *
 * Schema `io.k8s.api.core.v1.NodeRuntimeHandler`.
 */
export interface NodeRuntimeHandler {
  /** Supported features. */
  features?: NodeRuntimeHandlerFeatures;
  /** Handler name; empty for the default. */
  name?: string;
}

/**
 * Features of a runtime handler.
 *
 * Schema `io.k8s.api.core.v1.NodeRuntimeHandlerFeatures`.
 */
export interface NodeRuntimeHandlerFeatures {
  /** Whether recursive read-only mounts are supported. */
  recursiveReadOnlyMounts?: boolean;
  /** Whether user namespaces are supported. */
  userNamespaces?: boolean;
}

/**
 * Nodes matching any of the terms.
 *
 * Schema `io.k8s.api.core.v1.NodeSelector`.
 */
export interface NodeSelector {
  /** The terms, ORed. */
  nodeSelectorTerms: NodeSelectorTerm[];
}

/**
 * A requirement on a node label or field.
 *
 * Schema `io.k8s.api.core.v1.NodeSelectorRequirement`.
 */
export interface NodeSelectorRequirement {
  /** The label key or field. */
  key: string;
  /** In, NotIn, Exists, DoesNotExist, Gt or Lt. */
  operator: string;
  /** Values; one integer for Gt and Lt, none for Exists and DoesNotExist. */
  values?: string[];
}

/**
 * Requirements a node must meet, ANDed. An empty term matches no node.
 *
 * Schema `io.k8s.api.core.v1.NodeSelectorTerm`.
 */
export interface NodeSelectorTerm {
  /** Requirements on node labels. */
  matchExpressions?: NodeSelectorRequirement[];
  /** Requirements on node fields. */
  matchFields?: NodeSelectorRequirement[];
}

/**
 * The attributes a node is created with.
 *
 * Schema `io.k8s.api.core.v1.NodeSpec`.
 */
export interface NodeSpec {
  /** Deprecated: the source of the node configuration. */
  configSource?: NodeConfigSource;
  /** Deprecated. */
  externalID?: string;
  /** The pod IP range assigned to the node. */
  podCIDR?: string;
  /** The pod IP ranges assigned to the node, at most one per IP family. */
  podCIDRs?: string[];
  /** The node ID given by the cloud provider: <ProviderName>://<ProviderSpecificNodeID>. */
  providerID?: string;
  /** The node's taints. */
  taints?: Taint[];
  /** Whether new pods may not be scheduled onto the node. */
  unschedulable?: boolean;
}

/**
 * The observed state of a node.
 *
 * Schema `io.k8s.api.core.v1.NodeStatus`.
 */
export interface NodeStatus {
  /** Addresses of the node. */
  addresses?: NodeAddress[];
  /** Resources available for scheduling. */
  allocatable?: Record<string, string | number>;
  /** Total resources of the node. */
  capacity?: Record<string, string | number>;
  /** Observed conditions. */
  conditions?: NodeCondition[];
  /** Deprecated: dynamic kubelet config status. */
  config?: NodeConfigStatus;
  /** Endpoints of daemons on the node. */
  daemonEndpoints?: NodeDaemonEndpoints;
  /** Features the node supports. */
  features?: NodeFeatures;
  /** Container images on the node. */
  images?: ContainerImage[];
  /** Identities and versions. */
  nodeInfo?: NodeSystemInfo;
  /** Deprecated and never set. */
  phase?: string;
  /** Available runtime handlers. */
  runtimeHandlers?: NodeRuntimeHandler[];
  /** Volumes attached to the node. */
  volumesAttached?: AttachedVolume[];
  /** Attachable volumes in use. */
  volumesInUse?: string[];
}

/**
 * Swap memory of the node.
 *
 * Schema `io.k8s.api.core.v1.NodeSwapStatus`.
 */
export interface NodeSwapStatus {
  /** Swap capacity in bytes. */
  capacity?: number;
}

/**
 * Identities and versions reported by the node.
 *
 * Schema `io.k8s.api.core.v1.NodeSystemInfo`.
 */
export interface NodeSystemInfo {
  /** The architecture, e.g. amd64. */
  architecture?: string;
  /** The boot ID of the node. */
  bootID?: string;
  /** Container runtime version (<runtime>://<version>). */
  containerRuntimeVersion?: string;
  /** Kernel version (uname -r). */
  kernelVersion?: string;
  /** Deprecated: kube-proxy version. */
  kubeProxyVersion?: string;
  /** Kubelet version. */
  kubeletVersion?: string;
  /** The machine-id of the node. */
  machineID?: string;
  /** The operating system, e.g. linux. */
  operatingSystem?: string;
  /** OS image, from /etc/os-release. */
  osImage?: string;
  /** Swap memory information. */
  swap?: NodeSwapStatus;
  /** The system UUID of the node. */
  systemUUID?: string;
}

/**
 * A request on a path that is not a resource.
 *
 * Schema `io.k8s.api.authorization.v1.NonResourceAttributes`.
 */
export interface NonResourceAttributes {
  /** The URL path. */
  path?: string;
  /** The HTTP verb, lower case. */
  verb?: string;
}

/**
 * Which non-resource requests a rule matches: verb and URL both must match.
 *
 * Schema `io.k8s.api.flowcontrol.v1.NonResourcePolicyRule`.
 */
export interface NonResourcePolicyRule {
  /** URL paths to match; `*` matches all, `/healthz/*` a subtree. */
  nonResourceURLs: string[];
  /** Verbs to match; `*` matches all. */
  verbs: string[];
}

/**
 * Actions allowed on non-resource paths.
 *
 * Schema `io.k8s.api.authorization.v1.NonResourceRule`.
 */
export interface NonResourceRule {
  /** Paths; a trailing * matches a prefix. */
  nonResourceURLs?: string[];
  /** Allowed verbs; * for all. */
  verbs?: string[];
}

/**
 * Selects a field of the pod, for the downward API.
 *
 * Schema `io.k8s.api.core.v1.ObjectFieldSelector`.
 */
export interface ObjectFieldSelector {
  /** Schema version the fieldPath is written in; defaults to "v1". */
  apiVersion?: string;
  /** Path of the field, e.g. metadata.name or status.podIP. */
  fieldPath: string;
}

/**
 * A metric of a single object, such as requests per second on an Ingress.
 *
 * Schema `io.k8s.api.autoscaling.v2.ObjectMetricSource`.
 */
export interface ObjectMetricSource {
  /** The object the metric describes. */
  describedObject: CrossVersionObjectReference;
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
  /** The target value of the metric. */
  target: MetricTarget;
}

/**
 * Current value of an object metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.ObjectMetricStatus`.
 */
export interface ObjectMetricStatus {
  /** The current value of the metric. */
  current: MetricValueStatus;
  /** The object the metric describes. */
  describedObject: CrossVersionObjectReference;
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
}

/**
 * A reference to any object, possibly a part of it.
 *
 * Schema `io.k8s.api.core.v1.ObjectReference`.
 */
export interface ObjectReference {
  /** API version of the referent. */
  apiVersion?: string;
  /** A part of the referent, e.g. spec.containers{name}. */
  fieldPath?: string;
  /** Kind of the referent. */
  kind?: string;
  /** Name of the referent. */
  name?: string;
  /** Namespace of the referent. */
  namespace?: string;
  /** A version of the referent, when it matters. */
  resourceVersion?: string;
  /** UID of the referent. */
  uid?: string;
}

/**
 * A reference to an object this one depends on. The owner lives in the same namespace (or is not namespaced).
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference`.
 */
export interface OwnerReference {
  /** API version of the owner. */
  apiVersion: string;
  /** If true and the owner is deleted in the foreground, the owner waits for this object to go first. */
  blockOwnerDeletion?: boolean;
  /** If true, the owner is this object’s managing controller. At most one reference may say so. */
  controller?: boolean;
  /** Kind of the owner. */
  kind: string;
  /** Name of the owner. */
  name: string;
  /** UID of the owner. */
  uid: string;
}

/**
 * The group, version and kind of the objects a policy takes as params.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ParamKind`.
 */
export interface ParamKind {
  /** The API group version of the params: "group/version" ("v1" for the core group). */
  apiVersion?: string;
  /** The kind of the params, e.g. ConfigMap. */
  kind?: string;
}

/**
 * The params a binding gives its policy.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ParamRef`.
 */
export interface ParamRef {
  /** The name of one param object; excludes selector. */
  name?: string;
  /** The namespace of namespaced params; the request's namespace when empty. */
  namespace?: string;
  /** Allow or Deny: what a request gets when no param is found. */
  parameterNotFoundAction?: string;
  /** Param objects by label; the policy runs once per match. */
  selector?: LabelSelector;
}

/**
 * A piece of storage in the cluster, provisioned by an administrator or a storage class.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolume`.
 */
export interface PersistentVolume extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The volume’s source, capacity and access modes. */
  spec?: PersistentVolumeSpec;
  /** Where the volume is in its lifecycle. Read-only. */
  status?: PersistentVolumeStatus;
}

/**
 * A user’s request for a persistent volume.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaim`.
 */
export interface PersistentVolumeClaim extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** What the claim asks for. */
  spec?: PersistentVolumeClaimSpec;
  /** What the claim got. Read-only. */
  status?: PersistentVolumeClaimStatus;
}

/**
 * One aspect of a claim’s state.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaimCondition`.
 */
export interface PersistentVolumeClaimCondition {
  /** When the condition was last checked. */
  lastProbeTime?: Time;
  /** When it last changed. */
  lastTransitionTime?: Time;
  /** Details. */
  message?: string;
  /** Why it changed. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Resizing, FileSystemResizePending, ModifyVolumeError or ModifyingVolume. */
  type: string;
}

/**
 * What a claim asks for.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaimSpec`.
 */
export interface PersistentVolumeClaimSpec {
  /** Access modes the volume must support. */
  accessModes?: string[];
  /** A VolumeSnapshot or PersistentVolumeClaim to populate the volume from. */
  dataSource?: TypedLocalObjectReference;
  /** Any populator object to fill the volume from. */
  dataSourceRef?: TypedObjectReference;
  /** The storage requested, e.g. requests.storage. */
  resources?: VolumeResourceRequirements;
  /** Labels volumes must have to be bound to this claim. */
  selector?: LabelSelector;
  /** StorageClass to provision from; "" means none. */
  storageClassName?: string;
  /** VolumeAttributesClass to apply to the volume. */
  volumeAttributesClassName?: string;
  /** Filesystem (default) or Block. */
  volumeMode?: string;
  /** The volume bound to this claim. */
  volumeName?: string;
}

/**
 * What a claim got.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaimStatus`.
 */
export interface PersistentVolumeClaimStatus {
  /** Access modes of the bound volume. */
  accessModes?: string[];
  /** State of resizes by resource. */
  allocatedResourceStatuses?: Record<string, string>;
  /** Resources allocated, including capacity being expanded to. */
  allocatedResources?: Record<string, string | number>;
  /** Actual resources of the bound volume. */
  capacity?: Record<string, string | number>;
  /** Current conditions. */
  conditions?: PersistentVolumeClaimCondition[];
  /** The VolumeAttributesClass in effect. */
  currentVolumeAttributesClassName?: string;
  /** Progress of an attributes class change. */
  modifyVolumeStatus?: ModifyVolumeStatus;
  /** Pending, Bound or Lost. */
  phase?: string;
}

/**
 * A claim created for an ephemeral volume and deleted with the pod.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaimTemplate`.
 */
export interface PersistentVolumeClaimTemplate {
  /** Labels and annotations copied to the claim. */
  metadata?: ObjectMeta;
  /** Spec of the claim. */
  spec: PersistentVolumeClaimSpec;
}

/**
 * A PersistentVolumeClaim in the pod’s namespace.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource`.
 */
export interface PersistentVolumeClaimVolumeSource {
  /** Name of the claim. */
  claimName: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
}

/**
 * A piece of storage offered to claims. Exactly one source is set.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeSpec`.
 */
export interface PersistentVolumeSpec {
  /** How the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod. */
  accessModes?: string[];
  /** An AWS EBS volume. */
  awsElasticBlockStore?: AWSElasticBlockStoreVolumeSource;
  /** An Azure data disk. */
  azureDisk?: AzureDiskVolumeSource;
  /** An Azure File share. */
  azureFile?: AzureFilePersistentVolumeSource;
  /** Size of the volume, as storage: <quantity>. */
  capacity?: Record<string, string | number>;
  /** A CephFS mount. */
  cephfs?: CephFSPersistentVolumeSource;
  /** An OpenStack Cinder volume. */
  cinder?: CinderPersistentVolumeSource;
  /** The claim bound to this volume. */
  claimRef?: ObjectReference;
  /** A CSI volume. */
  csi?: CSIPersistentVolumeSource;
  /** A Fibre Channel volume. */
  fc?: FCVolumeSource;
  /** An exec-plugin volume. */
  flexVolume?: FlexPersistentVolumeSource;
  /** A Flocker dataset. */
  flocker?: FlockerVolumeSource;
  /** A GCE persistent disk. */
  gcePersistentDisk?: GCEPersistentDiskVolumeSource;
  /** A GlusterFS volume. */
  glusterfs?: GlusterfsPersistentVolumeSource;
  /** A path on the node (single-node testing only). */
  hostPath?: HostPathVolumeSource;
  /** An iSCSI disk. */
  iscsi?: ISCSIPersistentVolumeSource;
  /** Storage attached to one node; needs nodeAffinity. */
  local?: LocalVolumeSource;
  /** Mount options, e.g. ["ro", "soft"]; not validated. */
  mountOptions?: string[];
  /** An NFS export. */
  nfs?: NFSVolumeSource;
  /** Nodes the volume can be used from. */
  nodeAffinity?: VolumeNodeAffinity;
  /** What happens when the claim goes: Retain (default for manual volumes), Delete or Recycle. */
  persistentVolumeReclaimPolicy?: string;
  /** A Photon Controller disk. */
  photonPersistentDisk?: PhotonPersistentDiskVolumeSource;
  /** A Portworx volume. */
  portworxVolume?: PortworxVolumeSource;
  /** A Quobyte volume. */
  quobyte?: QuobyteVolumeSource;
  /** A Ceph block device. */
  rbd?: RBDPersistentVolumeSource;
  /** A ScaleIO volume. */
  scaleIO?: ScaleIOPersistentVolumeSource;
  /** StorageClass the volume belongs to; none when empty. */
  storageClassName?: string;
  /** A StorageOS volume. */
  storageos?: StorageOSPersistentVolumeSource;
  /** VolumeAttributesClass of the volume. */
  volumeAttributesClassName?: string;
  /** Filesystem (default) or Block. */
  volumeMode?: string;
  /** A vSphere disk. */
  vsphereVolume?: VsphereVirtualDiskVolumeSource;
}

/**
 * Where a volume is in its lifecycle.
 *
 * Schema `io.k8s.api.core.v1.PersistentVolumeStatus`.
 */
export interface PersistentVolumeStatus {
  /** When the phase last changed. */
  lastPhaseTransitionTime?: Time;
  /** Why the volume is in this phase. */
  message?: string;
  /** Pending, Available, Bound, Released or Failed. */
  phase?: string;
  /** A CamelCase reason for failures. */
  reason?: string;
}

/**
 * A Photon Controller disk.
 *
 * Schema `io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource`.
 */
export interface PhotonPersistentDiskVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** ID of the disk. */
  pdID: string;
}

/**
 * A group of containers that run together on one node, sharing network and storage.
 *
 * Schema `io.k8s.api.core.v1.Pod`.
 */
export interface Pod extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behavior of the pod. */
  spec?: PodSpec;
  /** The observed state of the pod. Read-only. */
  status?: PodStatus;
}

/**
 * Rules to schedule the pod near other pods.
 *
 * Schema `io.k8s.api.core.v1.PodAffinity`.
 */
export interface PodAffinity {
  /** Preferences, by weight. */
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  /** Terms that must all hold. */
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
}

/**
 * Pods (by label, in some namespaces) to run near or away from, per topology domain.
 *
 * Schema `io.k8s.api.core.v1.PodAffinityTerm`.
 */
export interface PodAffinityTerm {
  /** The pods. */
  labelSelector?: LabelSelector;
  /** Label keys whose values in this pod are added to the selector (In). */
  matchLabelKeys?: string[];
  /** Label keys whose values in this pod are added to the selector (NotIn). */
  mismatchLabelKeys?: string[];
  /** Namespaces to look in, by label. */
  namespaceSelector?: LabelSelector;
  /** Namespaces to look in; the pod’s own when neither this nor namespaceSelector is set. */
  namespaces?: string[];
  /** The node label whose values define the domains. */
  topologyKey: string;
}

/**
 * Rules to schedule the pod away from other pods.
 *
 * Schema `io.k8s.api.core.v1.PodAntiAffinity`.
 */
export interface PodAntiAffinity {
  /** Preferences, by weight. */
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  /** Terms that must all hold. */
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
}

/**
 * One aspect of a pod’s state.
 *
 * Schema `io.k8s.api.core.v1.PodCondition`.
 */
export interface PodCondition {
  /** When the condition was last checked. */
  lastProbeTime?: Time;
  /** When it last changed. */
  lastTransitionTime?: Time;
  /** Details. */
  message?: string;
  /** The pod generation the condition reflects. */
  observedGeneration?: number;
  /** Why it changed. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** PodScheduled, Initialized, ContainersReady, Ready, or a custom type. */
  type: string;
}

/**
 * DNS settings merged into those DNSPolicy generates.
 *
 * Schema `io.k8s.api.core.v1.PodDNSConfig`.
 */
export interface PodDNSConfig {
  /** Name server IPs, at most 3 in total. */
  nameservers?: string[];
  /** Resolver options. */
  options?: PodDNSConfigOption[];
  /** Search domains. */
  searches?: string[];
}

/**
 * A resolver option.
 *
 * Schema `io.k8s.api.core.v1.PodDNSConfigOption`.
 */
export interface PodDNSConfigOption {
  /** Option name. */
  name?: string;
  /** Option value. */
  value?: string;
}

/**
 * The most disruption voluntary evictions may cause to a set of pods.
 *
 * Schema `io.k8s.api.policy.v1.PodDisruptionBudget`.
 */
export interface PodDisruptionBudget extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired budget. */
  spec?: PodDisruptionBudgetSpec;
  /** The most recently observed status of the budget. */
  status?: PodDisruptionBudgetStatus;
}

/**
 * The pods a budget protects and how many must stay up.
 *
 * Schema `io.k8s.api.policy.v1.PodDisruptionBudgetSpec`.
 */
export interface PodDisruptionBudgetSpec {
  /** Pods (a count or a percentage) that may be unavailable after an eviction; excludes minAvailable. */
  maxUnavailable?: number | string;
  /** Pods (a count or a percentage) that must still be available after an eviction. */
  minAvailable?: number | string;
  /** The pods the budget covers; an empty selector covers the whole namespace, an absent one no pod. */
  selector?: LabelSelector;
  /** When running but unhealthy pods may be evicted: IfHealthyBudget (the default) or AlwaysAllow. */
  unhealthyPodEvictionPolicy?: 'AlwaysAllow' | 'IfHealthyBudget';
}

/**
 * The observed state of a budget.
 *
 * Schema `io.k8s.api.policy.v1.PodDisruptionBudgetStatus`.
 */
export interface PodDisruptionBudgetStatus {
  /** Latest observations, such as DisruptionAllowed. */
  conditions?: Condition[];
  /** Healthy pods now. */
  currentHealthy: number;
  /** Healthy pods wanted at least. */
  desiredHealthy: number;
  /** Pods being evicted, not yet seen deleted by the controller. */
  disruptedPods?: Record<string, Time>;
  /** Disruptions allowed right now. */
  disruptionsAllowed: number;
  /** Pods the budget counts. */
  expectedPods: number;
  /** The generation the disruption controller last acted on. */
  observedGeneration?: number;
}

/**
 * How failed pods count towards backoffLimit.
 *
 * Schema `io.k8s.api.batch.v1.PodFailurePolicy`.
 */
export interface PodFailurePolicy {
  /** Rules tried in order; the first match decides. At most 20. */
  rules: PodFailurePolicyRule[];
}

/**
 * Matches a failed pod by the exit codes of its containers.
 *
 * Schema `io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement`.
 */
export interface PodFailurePolicyOnExitCodesRequirement {
  /** Only look at this container; all containers when unset. */
  containerName?: string;
  /** In or NotIn: how exit codes relate to values. */
  operator: 'In' | 'NotIn';
  /** Ordered, distinct exit codes; 0 is not allowed with In. 1 to 255 items. */
  values: number[];
}

/**
 * Matches a failed pod by one of its conditions.
 *
 * Schema `io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern`.
 */
export interface PodFailurePolicyOnPodConditionsPattern {
  /** The pod condition status. Defaults to True. */
  status?: string;
  /** The pod condition type. */
  type: string;
}

/**
 * What to do with a failed pod that meets the rule’s requirement (onExitCodes or onPodConditions).
 *
 * Schema `io.k8s.api.batch.v1.PodFailurePolicyRule`.
 */
export interface PodFailurePolicyRule {
  /** FailJob, FailIndex, Ignore or Count. */
  action: 'Count' | 'FailIndex' | 'FailJob' | 'Ignore';
  /** Requirement on container exit codes. */
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  /** Requirement on pod conditions: any pattern matches. At most 20. */
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

/**
 * An IP address of the pod.
 *
 * Schema `io.k8s.api.core.v1.PodIP`.
 */
export interface PodIP {
  /** The address. */
  ip: string;
}

/**
 * The operating system of the pod.
 *
 * Schema `io.k8s.api.core.v1.PodOS`.
 */
export interface PodOS {
  /** linux or windows. */
  name: string;
}

/**
 * An extra pod condition required for readiness.
 *
 * Schema `io.k8s.api.core.v1.PodReadinessGate`.
 */
export interface PodReadinessGate {
  /** The condition type. */
  conditionType: string;
}

/**
 * A ResourceClaim the pod needs, named for its containers.
 *
 * Schema `io.k8s.api.core.v1.PodResourceClaim`.
 */
export interface PodResourceClaim {
  /** Name of the entry, a DNS label. */
  name: string;
  /** An existing ResourceClaim in the pod’s namespace. */
  resourceClaimName?: string;
  /** A ResourceClaimTemplate to create a claim from. */
  resourceClaimTemplateName?: string;
}

/**
 * The claim generated for a pod’s resource claim entry.
 *
 * Schema `io.k8s.api.core.v1.PodResourceClaimStatus`.
 */
export interface PodResourceClaimStatus {
  /** The entry in spec.resourceClaims. */
  name: string;
  /** The generated claim. */
  resourceClaimName?: string;
}

/**
 * A gate that holds the pod back from scheduling.
 *
 * Schema `io.k8s.api.core.v1.PodSchedulingGate`.
 */
export interface PodSchedulingGate {
  /** Name of the gate. */
  name: string;
}

/**
 * Security settings of the whole pod; containers may override some.
 *
 * Schema `io.k8s.api.core.v1.PodSecurityContext`.
 */
export interface PodSecurityContext {
  /** AppArmor profile of all containers. */
  appArmorProfile?: AppArmorProfile;
  /** A group that owns supported volumes and is added to every container. */
  fsGroup?: number;
  /** OnRootMismatch or Always: when to change volume ownership. */
  fsGroupChangePolicy?: string;
  /** GID to run entrypoints as. */
  runAsGroup?: number;
  /** Require containers to run as a non-root user. */
  runAsNonRoot?: boolean;
  /** UID to run entrypoints as. */
  runAsUser?: number;
  /** How SELinux labels are applied to volumes: Recursive or MountOption. */
  seLinuxChangePolicy?: string;
  /** SELinux context of all containers. */
  seLinuxOptions?: SELinuxOptions;
  /** Seccomp profile of all containers. */
  seccompProfile?: SeccompProfile;
  /** Extra groups of the first process in each container. */
  supplementalGroups?: number[];
  /** Merge or Strict: whether groups from the image are added. */
  supplementalGroupsPolicy?: string;
  /** Namespaced kernel parameters. */
  sysctls?: Sysctl[];
  /** Windows-specific settings. */
  windowsOptions?: WindowsSecurityContextOptions;
}

/**
 * The desired behavior of a pod.
 *
 * Schema `io.k8s.api.core.v1.PodSpec`.
 */
export interface PodSpec {
  /** Seconds the pod may run before it is failed. */
  activeDeadlineSeconds?: number;
  /** Scheduling constraints. */
  affinity?: Affinity;
  /** Whether to mount a service account token. */
  automountServiceAccountToken?: boolean;
  /** The containers of the pod; at least one. */
  containers: Container[];
  /** Extra DNS settings. */
  dnsConfig?: PodDNSConfig;
  /** ClusterFirst (default), ClusterFirstWithHostNet, Default or None. */
  dnsPolicy?: string;
  /** Whether to inject service environment variables. Defaults to true. */
  enableServiceLinks?: boolean;
  /** Temporary containers, added through a subresource. */
  ephemeralContainers?: EphemeralContainer[];
  /** Extra /etc/hosts entries. */
  hostAliases?: HostAlias[];
  /** Use the host’s IPC namespace. */
  hostIPC?: boolean;
  /** Use the host’s network namespace. */
  hostNetwork?: boolean;
  /** Use the host’s PID namespace. */
  hostPID?: boolean;
  /** Use the host’s user namespace. Defaults to true. */
  hostUsers?: boolean;
  /** Hostname of the pod; a system value when empty. */
  hostname?: string;
  /** Secrets used to pull images. */
  imagePullSecrets?: LocalObjectReference[];
  /** Containers run in order before the others start. */
  initContainers?: Container[];
  /** The node the pod is bound to; skips the scheduler when set. */
  nodeName?: string;
  /** Labels a node must have to run the pod. */
  nodeSelector?: Record<string, string>;
  /** The operating system of the pod. */
  os?: PodOS;
  /** Resources of the pod sandbox, set from its RuntimeClass. */
  overhead?: Record<string, string | number>;
  /** PreemptLowerPriority (default) or Never. */
  preemptionPolicy?: string;
  /** Priority value, set from priorityClassName. */
  priority?: number;
  /** The PriorityClass of the pod. */
  priorityClassName?: string;
  /** Extra conditions required for readiness. */
  readinessGates?: PodReadinessGate[];
  /** ResourceClaims the pod needs. */
  resourceClaims?: PodResourceClaim[];
  /** Resources of the whole pod. */
  resources?: ResourceRequirements;
  /** Always (default), OnFailure or Never. */
  restartPolicy?: string;
  /** The RuntimeClass to run the pod with. */
  runtimeClassName?: string;
  /** The scheduler to dispatch the pod. Defaults to default-scheduler. */
  schedulerName?: string;
  /** Gates holding the pod back from scheduling. */
  schedulingGates?: PodSchedulingGate[];
  /** Pod-level security settings. */
  securityContext?: PodSecurityContext;
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  /** The ServiceAccount the pod runs as. */
  serviceAccountName?: string;
  /** Use the fully qualified name as the hostname. */
  setHostnameAsFQDN?: boolean;
  /** Share one PID namespace between the containers. */
  shareProcessNamespace?: boolean;
  /** Subdomain of the pod’s fully qualified name. */
  subdomain?: string;
  /** Seconds to terminate gracefully. Defaults to 30. */
  terminationGracePeriodSeconds?: number;
  /** Taints the pod tolerates. */
  tolerations?: Toleration[];
  /** How to spread pods across domains. */
  topologySpreadConstraints?: TopologySpreadConstraint[];
  /** Volumes the containers can mount. */
  volumes?: Volume[];
}

/**
 * The observed state of a pod. Written by the system.
 *
 * Schema `io.k8s.api.core.v1.PodStatus`.
 */
export interface PodStatus {
  /** Current conditions. */
  conditions?: PodCondition[];
  /** One entry per container. */
  containerStatuses?: ContainerStatus[];
  /** One entry per ephemeral container. */
  ephemeralContainerStatuses?: ContainerStatus[];
  /** IP of the node the pod runs on. */
  hostIP?: string;
  /** IPs of the node. */
  hostIPs?: HostIP[];
  /** One entry per init container. */
  initContainerStatuses?: ContainerStatus[];
  /** Why the pod is in this state. */
  message?: string;
  /** The node the pod preempted others on and may be scheduled to. */
  nominatedNodeName?: string;
  /** The pod generation this status reflects. */
  observedGeneration?: number;
  /** Pending, Running, Succeeded, Failed or Unknown. */
  phase?: string;
  /** IP of the pod. */
  podIP?: string;
  /** IPs of the pod, one per family. */
  podIPs?: PodIP[];
  /** BestEffort, Burstable or Guaranteed, from the resource requirements. */
  qosClass?: string;
  /** A CamelCase reason for the state, e.g. Evicted. */
  reason?: string;
  /** Progress of an in-place resize. */
  resize?: string;
  /** Claims generated for the pod. */
  resourceClaimStatuses?: PodResourceClaimStatus[];
  /** When the kubelet accepted the pod. */
  startTime?: Time;
}

/**
 * A stored template of a pod.
 *
 * Schema `io.k8s.api.core.v1.PodTemplate`.
 */
export interface PodTemplate extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The pods this template describes. */
  template?: PodTemplateSpec;
}

/**
 * A template for pods, embedded in workload kinds.
 *
 * Schema `io.k8s.api.core.v1.PodTemplateSpec`.
 */
export interface PodTemplateSpec {
  /** Metadata of the pods created from the template. */
  metadata?: ObjectMeta;
  /** Spec of the pods created from the template. */
  spec?: PodSpec;
}

/**
 * A per-pod metric averaged over the scale target’s pods.
 *
 * Schema `io.k8s.api.autoscaling.v2.PodsMetricSource`.
 */
export interface PodsMetricSource {
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
  /** The target value of the metric. */
  target: MetricTarget;
}

/**
 * Current value of a per-pod metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.PodsMetricStatus`.
 */
export interface PodsMetricStatus {
  /** The current value of the metric. */
  current: MetricValueStatus;
  /** The metric, by name and selector. */
  metric: MetricIdentifier;
}

/**
 * Actions allowed on resources or non-resource URLs (not to whom, nor where).
 *
 * Schema `io.k8s.api.rbac.v1.PolicyRule`.
 */
export interface PolicyRule {
  /** API groups of the resources; "" is the core group, "*" every group. */
  apiGroups?: string[];
  /** URL paths allowed, "*" only as the last step; cluster roles only, and never with resources. */
  nonResourceURLs?: string[];
  /** Names of the objects allowed; all when empty. */
  resourceNames?: string[];
  /** Resources the rule applies to; "*" is every resource. */
  resources?: string[];
  /** Verbs allowed; "*" is every verb. */
  verbs: string[];
}

/**
 * A request matches when one subject and one rule match it.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects`.
 */
export interface PolicyRulesWithSubjects {
  /** Non-resource requests matched. */
  nonResourceRules?: NonResourcePolicyRule[];
  /** Resource requests matched. */
  resourceRules?: ResourcePolicyRule[];
  /** Who the rule applies to; at least one. */
  subjects: FlowcontrolV1Subject[];
}

/**
 * The state of one load balancer port.
 *
 * Schema `io.k8s.api.core.v1.PortStatus`.
 */
export interface PortStatus {
  /** Why the port is failing, CamelCase; empty when it works. */
  error?: string;
  /** The port number. */
  port: number;
  /** TCP, UDP or SCTP. */
  protocol: string;
}

/**
 * A Portworx volume.
 *
 * Schema `io.k8s.api.core.v1.PortworxVolumeSource`.
 */
export interface PortworxVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** ID of the volume. */
  volumeID: string;
}

/**
 * Conditions the object must meet for the operation to go ahead.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions`.
 */
export interface Preconditions {
  /** The resourceVersion the object must have. */
  resourceVersion?: string;
  /** The UID the object must have. */
  uid?: string;
}

/**
 * A weighted node preference.
 *
 * Schema `io.k8s.api.core.v1.PreferredSchedulingTerm`.
 */
export interface PreferredSchedulingTerm {
  /** The nodes preferred. */
  preference: NodeSelectorTerm;
  /** Weight, 1-100. */
  weight: number;
}

/**
 * Maps a class name to a pod priority.
 *
 * Schema `io.k8s.api.scheduling.v1.PriorityClass`.
 */
export interface PriorityClass extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** When to use this class. */
  description?: string;
  /** Whether pods naming no class get this one; one class at most. */
  globalDefault?: boolean;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** PreemptLowerPriority (the default) or Never. Immutable. */
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  /** The priority of pods of this class; at most 1000000000 for user classes. Immutable. */
  value: number;
}

/**
 * A priority level: its share of the server and its queues.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration`.
 */
export interface PriorityLevelConfiguration extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The share and queues. */
  spec?: PriorityLevelConfigurationSpec;
  /** The current state. */
  status?: PriorityLevelConfigurationStatus;
}

/**
 * A condition of a PriorityLevelConfiguration.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition`.
 */
export interface PriorityLevelConfigurationCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Why, for humans. */
  message?: string;
  /** Why, in one CamelCase word. */
  reason?: string;
  /** True, False or Unknown. */
  status?: string;
  /** The condition type. */
  type?: string;
}

/**
 * A priority level by name.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference`.
 */
export interface PriorityLevelConfigurationReference {
  /** The name of the priority level. */
  name: string;
}

/**
 * How much the server runs of a priority level at once.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec`.
 */
export interface PriorityLevelConfigurationSpec {
  /** Settings of an Exempt level. */
  exempt?: ExemptPriorityLevelConfiguration;
  /** The share and queues, when type is Limited. */
  limited?: LimitedPriorityLevelConfiguration;
  /** `Exempt` or `Limited`. */
  type: 'Exempt' | 'Limited';
}

/**
 * The observed state of a PriorityLevelConfiguration.
 *
 * Schema `io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus`.
 */
export interface PriorityLevelConfigurationStatus {
  /** The current state. */
  conditions?: PriorityLevelConfigurationCondition[];
}

/**
 * A periodic health check of a container.
 *
 * Schema `io.k8s.api.core.v1.Probe`.
 */
export interface Probe {
  /** Run a command. */
  exec?: ExecAction;
  /** Consecutive failures that count as failed. Defaults to 3. */
  failureThreshold?: number;
  /** Call a gRPC health check. */
  grpc?: GRPCAction;
  /** Send an HTTP request. */
  httpGet?: HTTPGetAction;
  /** Seconds after the container starts before the first probe. */
  initialDelaySeconds?: number;
  /** Seconds between probes. Defaults to 10. */
  periodSeconds?: number;
  /** Consecutive successes that count as passing after a failure. Defaults to 1. */
  successThreshold?: number;
  /** Open a TCP connection. */
  tcpSocket?: TCPSocketAction;
  /** Grace period when the probe fails; overrides the pod’s. */
  terminationGracePeriodSeconds?: number;
  /** Seconds before a probe times out. Defaults to 1. */
  timeoutSeconds?: number;
}

/**
 * Several sources combined in one directory.
 *
 * Schema `io.k8s.api.core.v1.ProjectedVolumeSource`.
 */
export interface ProjectedVolumeSource {
  /** Permission bits for files by default, 0000-0777 (octal in YAML, decimal in JSON). */
  defaultMode?: number;
  /** The sources. */
  sources?: VolumeProjection[];
}

/**
 * The queues of a priority level.
 *
 * Schema `io.k8s.api.flowcontrol.v1.QueuingConfiguration`.
 */
export interface QueuingConfiguration {
  /** Queues each flow is dealt (shuffle sharding); default 8. */
  handSize?: number;
  /** Requests one queue may hold; default 50. */
  queueLengthLimit?: number;
  /** Number of queues; default 64. */
  queues?: number;
}

/**
 * A Quobyte volume.
 *
 * Schema `io.k8s.api.core.v1.QuobyteVolumeSource`.
 */
export interface QuobyteVolumeSource {
  /** Group to map access to. */
  group?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Quobyte registry services, host:port, comma separated. */
  registry: string;
  /** Quobyte tenant owning the volume. */
  tenant?: string;
  /** User to map access to. */
  user?: string;
  /** Name of the Quobyte volume. */
  volume: string;
}

/**
 * A Ceph RADOS block device.
 *
 * Schema `io.k8s.api.core.v1.RBDPersistentVolumeSource`.
 */
export interface RBDPersistentVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** The RADOS image. */
  image: string;
  /** Path to the keyring. Defaults to /etc/ceph/keyring. */
  keyring?: string;
  /** Ceph monitors. */
  monitors: string[];
  /** The RADOS pool. Defaults to rbd. */
  pool?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials, in any namespace. */
  secretRef?: SecretReference;
  /** The RADOS user. Defaults to admin. */
  user?: string;
}

/**
 * A Ceph RADOS block device.
 *
 * Schema `io.k8s.api.core.v1.RBDVolumeSource`.
 */
export interface RBDVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** The RADOS image. */
  image: string;
  /** Path to the keyring. Defaults to /etc/ceph/keyring. */
  keyring?: string;
  /** Ceph monitors. */
  monitors: string[];
  /** The RADOS pool. Defaults to rbd. */
  pool?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
  /** The RADOS user. Defaults to admin. */
  user?: string;
}

/**
 * Who a binding grants its role to: a user, a group or a service account.
 *
 * Schema `io.k8s.api.rbac.v1.Subject`.
 */
export interface RbacV1Subject {
  /** "" for service accounts; rbac.authorization.k8s.io for users and groups (the defaults). */
  apiGroup?: string;
  /** User, Group or ServiceAccount. */
  kind: string;
  /** Name of the subject. */
  name: string;
  /** Namespace of a service account. */
  namespace?: string;
}

/**
 * Keeps a stable set of identical pods running.
 *
 * Schema `io.k8s.api.apps.v1.ReplicaSet`.
 */
export interface ReplicaSet extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired behaviour of the replica set. */
  spec?: ReplicaSetSpec;
  /** The most recently observed status of the replica set. */
  status?: ReplicaSetStatus;
}

/**
 * One observation of a replica set’s state.
 *
 * Schema `io.k8s.api.apps.v1.ReplicaSetCondition`.
 */
export interface ReplicaSetCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type, such as ReplicaFailure. */
  type: string;
}

/**
 * The desired state of a replica set.
 *
 * Schema `io.k8s.api.apps.v1.ReplicaSetSpec`.
 */
export interface ReplicaSetSpec {
  /** Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0. */
  minReadySeconds?: number;
  /** Desired number of pods. Defaults to 1. */
  replicas?: number;
  /** Label query over the pods counted as replicas; must match the template’s labels. Immutable. */
  selector: LabelSelector;
  /** The pods to create when too few exist. */
  template?: PodTemplateSpec;
}

/**
 * The observed state of a replica set.
 *
 * Schema `io.k8s.api.apps.v1.ReplicaSetStatus`.
 */
export interface ReplicaSetStatus {
  /** Pods ready for at least minReadySeconds. */
  availableReplicas?: number;
  /** Latest observations of the replica set’s state. */
  conditions?: ReplicaSetCondition[];
  /** Pods whose labels match the template’s labels. */
  fullyLabeledReplicas?: number;
  /** The generation the controller last acted on. */
  observedGeneration?: number;
  /** Pods with a Ready condition. */
  readyReplicas?: number;
  /** Most recently observed number of pods. */
  replicas: number;
}

/**
 * Keeps a number of copies of a pod running.
 *
 * Schema `io.k8s.api.core.v1.ReplicationController`.
 */
export interface ReplicationController extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** What the controller keeps running. */
  spec?: ReplicationControllerSpec;
  /** What the controller last observed. Read-only. */
  status?: ReplicationControllerStatus;
}

/**
 * One aspect of a replication controller’s state.
 *
 * Schema `io.k8s.api.core.v1.ReplicationControllerCondition`.
 */
export interface ReplicationControllerCondition {
  /** When the status last changed. */
  lastTransitionTime?: Time;
  /** Details for people. */
  message?: string;
  /** Why the status is what it is, CamelCase. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** What the condition is about, e.g. ReplicaFailure. */
  type: string;
}

/**
 * What a replication controller keeps running.
 *
 * Schema `io.k8s.api.core.v1.ReplicationControllerSpec`.
 */
export interface ReplicationControllerSpec {
  /** How long a new pod must be ready, without crashing, to count as available. Defaults to 0. */
  minReadySeconds?: number;
  /** How many pods to keep running. Defaults to 1. */
  replicas?: number;
  /** Labels of the pods the controller counts; defaults to the template’s labels. */
  selector?: Record<string, string>;
  /** The pods to create when there are too few. */
  template?: PodTemplateSpec;
}

/**
 * The observed state of a replication controller.
 *
 * Schema `io.k8s.api.core.v1.ReplicationControllerStatus`.
 */
export interface ReplicationControllerStatus {
  /** Pods ready for at least minReadySeconds. */
  availableReplicas?: number;
  /** Current conditions. */
  conditions?: ReplicationControllerCondition[];
  /** Pods whose labels match the template’s. */
  fullyLabeledReplicas?: number;
  /** The generation the controller last acted on. */
  observedGeneration?: number;
  /** Pods that are ready. */
  readyReplicas?: number;
  /** Pods the controller currently counts. */
  replicas: number;
}

/**
 * A request on a resource.
 *
 * Schema `io.k8s.api.authorization.v1.ResourceAttributes`.
 */
export interface ResourceAttributes {
  /** The API group; * for all. */
  group?: string;
  /** The object name; empty for every object. */
  name?: string;
  /** The namespace; empty for cluster-wide requests and for every namespace. */
  namespace?: string;
  /** The resource; * for all. */
  resource?: string;
  /** The subresource, if any. */
  subresource?: string;
  /** get, list, watch, create, update, patch, delete, deletecollection or a custom verb; * for all. */
  verb?: string;
  /** The API version; * for all. */
  version?: string;
}

/**
 * One dynamically allocated resource a container uses.
 *
 * Schema `io.k8s.api.core.v1.ResourceClaim`.
 */
export interface ResourceClaim {
  /** Name of an entry of the pod’s spec.resourceClaims. */
  name: string;
  /** One request of the claim; all requests when empty. */
  request?: string;
}

/**
 * Selects a resource limit or request of a container, for the downward API.
 *
 * Schema `io.k8s.api.core.v1.ResourceFieldSelector`.
 */
export interface ResourceFieldSelector {
  /** The container; required in volumes, optional in env vars. */
  containerName?: string;
  /** Unit of the exposed value; defaults to 1. */
  divisor?: string | number;
  /** The resource, e.g. limits.cpu or requests.memory. */
  resource: string;
}

/**
 * Health of one allocated device.
 *
 * Schema `io.k8s.api.core.v1.ResourceHealth`.
 */
export interface ResourceHealth {
  /** Healthy, Unhealthy or Unknown. */
  health?: string;
  /** The device. */
  resourceID: string;
}

/**
 * A resource (cpu, memory) of each pod.
 *
 * Schema `io.k8s.api.autoscaling.v2.ResourceMetricSource`.
 */
export interface ResourceMetricSource {
  /** Name of the resource, such as cpu or memory. */
  name: string;
  /** The target value of the metric. */
  target: MetricTarget;
}

/**
 * Current value of a resource metric.
 *
 * Schema `io.k8s.api.autoscaling.v2.ResourceMetricStatus`.
 */
export interface ResourceMetricStatus {
  /** The current value of the metric. */
  current: MetricValueStatus;
  /** Name of the resource, such as cpu or memory. */
  name: string;
}

/**
 * Which resource requests a rule matches: verb, API group, resource and namespace all must match.
 *
 * Schema `io.k8s.api.flowcontrol.v1.ResourcePolicyRule`.
 */
export interface ResourcePolicyRule {
  /** API groups to match; `*` matches all. */
  apiGroups: string[];
  /** Whether requests with no namespace (cluster-scoped resources) match. */
  clusterScope?: boolean;
  /** Namespaces to match; `*` matches every namespace, not requests without one. */
  namespaces?: string[];
  /** Resources (`pods`, `pods/status`) to match; `*` matches all. */
  resources: string[];
  /** Verbs to match; `*` matches all. */
  verbs: string[];
}

/**
 * Limits on the resources a namespace may consume.
 *
 * Schema `io.k8s.api.core.v1.ResourceQuota`.
 */
export interface ResourceQuota extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The limits the quota sets. */
  spec?: ResourceQuotaSpec;
  /** What the quota enforces and what is used. Read-only. */
  status?: ResourceQuotaStatus;
}

/**
 * The limits a quota sets.
 *
 * Schema `io.k8s.api.core.v1.ResourceQuotaSpec`.
 */
export interface ResourceQuotaSpec {
  /** The most of each resource the namespace may use. */
  hard?: Record<string, string | number>;
  /** Limits the quota to objects in these scopes, as requirements. */
  scopeSelector?: ScopeSelector;
  /** Limits the quota to objects in all of these scopes. */
  scopes?: string[];
}

/**
 * What the quota enforces and what is used.
 *
 * Schema `io.k8s.api.core.v1.ResourceQuotaStatus`.
 */
export interface ResourceQuotaStatus {
  /** The limits in force. */
  hard?: Record<string, string | number>;
  /** What the namespace uses now. */
  used?: Record<string, string | number>;
}

/**
 * Compute resources a container (or pod) requests and may use at most.
 *
 * Schema `io.k8s.api.core.v1.ResourceRequirements`.
 */
export interface ResourceRequirements {
  /** Dynamically allocated resources used by this container. */
  claims?: ResourceClaim[];
  /** The most of each resource the container may use. */
  limits?: Record<string, string | number>;
  /** The least of each resource the container needs; defaults to the limits when only those are set. */
  requests?: Record<string, string | number>;
}

/**
 * Actions allowed on resources.
 *
 * Schema `io.k8s.api.authorization.v1.ResourceRule`.
 */
export interface ResourceRule {
  /** API groups; * for all. */
  apiGroups?: string[];
  /** Object names; empty for all. */
  resourceNames?: string[];
  /** Resources; * for all. */
  resources?: string[];
  /** Allowed verbs; * for all. */
  verbs?: string[];
}

/**
 * Health of the devices allocated for one resource.
 *
 * Schema `io.k8s.api.core.v1.ResourceStatus`.
 */
export interface ResourceStatus {
  /** The resource. */
  name: string;
  /** The devices. */
  resources?: ResourceHealth[];
}

/**
 * A set of rules granted within one namespace by RoleBindings.
 *
 * Schema `io.k8s.api.rbac.v1.Role`.
 */
export interface Role extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The rules of the role. */
  rules?: PolicyRule[];
}

/**
 * Grants a role to subjects within one namespace.
 *
 * Schema `io.k8s.api.rbac.v1.RoleBinding`.
 */
export interface RoleBinding extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** A Role of the namespace, or a ClusterRole. Immutable. */
  roleRef: RoleRef;
  /** Who the role is granted to. */
  subjects?: RbacV1Subject[];
}

/**
 * The role a binding grants.
 *
 * Schema `io.k8s.api.rbac.v1.RoleRef`.
 */
export interface RoleRef {
  /** Group of the role: rbac.authorization.k8s.io. */
  apiGroup: string;
  /** Role or ClusterRole. */
  kind: string;
  /** Name of the role. */
  name: string;
}

/**
 * How fast a rolling update replaces daemon pods.
 *
 * Schema `io.k8s.api.apps.v1.RollingUpdateDaemonSet`.
 */
export interface RollingUpdateDaemonSet {
  /** Nodes that may run an updated pod next to the old one: a count or a percentage (rounded up). Defaults to 0. */
  maxSurge?: number | string;
  /** Nodes whose daemon pod may be down during the update: a count or a percentage (rounded up). Defaults to 1. */
  maxUnavailable?: number | string;
}

/**
 * How fast a rolling update replaces pods.
 *
 * Schema `io.k8s.api.apps.v1.RollingUpdateDeployment`.
 */
export interface RollingUpdateDeployment {
  /** Pods that may exist above the desired count during the update: a count or a percentage (rounded up). Defaults to 25%. */
  maxSurge?: number | string;
  /** Pods that may be unavailable during the update: a count or a percentage of desired pods (rounded down). Defaults to 25%. */
  maxUnavailable?: number | string;
}

/**
 * Parameters of a RollingUpdate strategy.
 *
 * Schema `io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy`.
 */
export interface RollingUpdateStatefulSetStrategy {
  /** Pods that may be unavailable during the update: a count or a percentage (rounded up), never 0. */
  maxUnavailable?: number | string;
  /** Ordinal from which pods are updated; lower ordinals keep the old revision. Defaults to 0. */
  partition?: number;
}

/**
 * Operations and resources an admission webhook or policy matches.
 *
 * Schema `io.k8s.api.admissionregistration.v1.RuleWithOperations`.
 */
export interface RuleWithOperations {
  /** API groups; '*' for all, '' for the core group. */
  apiGroups?: string[];
  /** API versions; '*' for all. */
  apiVersions?: string[];
  /** CREATE, UPDATE, DELETE, CONNECT or '*' for all. */
  operations?: string[];
  /** Resources, `pods/status` for a subresource, `*` for all resources, `*\/*` for all with subresources. */
  resources?: string[];
  /** Cluster, Namespaced or '*' (the default). */
  scope?: '*' | 'Cluster' | 'Namespaced';
}

/**
 * SELinux labels for a container.
 *
 * Schema `io.k8s.api.core.v1.SELinuxOptions`.
 */
export interface SELinuxOptions {
  /** SELinux level label. */
  level?: string;
  /** SELinux role label. */
  role?: string;
  /** SELinux type label. */
  type?: string;
  /** SELinux user label. */
  user?: string;
}

/**
 * The replica count of a scalable object.
 *
 * Schema `io.k8s.api.autoscaling.v1.Scale`.
 */
export interface Scale extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Metadata of the scaled object. */
  metadata: ObjectMeta;
  /** The desired size. */
  spec?: ScaleSpec;
  /** The current size; read-only. */
  status?: ScaleStatus;
}

/**
 * A ScaleIO volume.
 *
 * Schema `io.k8s.api.core.v1.ScaleIOPersistentVolumeSource`.
 */
export interface ScaleIOPersistentVolumeSource {
  /**
   * Filesystem type to mount, e.g. ext4 or xfs.
   * @defaultValue `"xfs"`
   */
  fsType?: string;
  /** Host of the ScaleIO API gateway. */
  gateway: string;
  /** Protection domain. */
  protectionDomain?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials, in any namespace. */
  secretRef: SecretReference;
  /** Use SSL to talk to the gateway. */
  sslEnabled?: boolean;
  /**
   * ThickProvisioned or ThinProvisioned.
   * @defaultValue `"ThinProvisioned"`
   */
  storageMode?: string;
  /** Storage pool. */
  storagePool?: string;
  /** Name of the storage system. */
  system: string;
  /** Name of an existing volume. */
  volumeName?: string;
}

/**
 * A ScaleIO volume.
 *
 * Schema `io.k8s.api.core.v1.ScaleIOVolumeSource`.
 */
export interface ScaleIOVolumeSource {
  /**
   * Filesystem type to mount, e.g. ext4 or xfs.
   * @defaultValue `"xfs"`
   */
  fsType?: string;
  /** Host of the ScaleIO API gateway. */
  gateway: string;
  /** Protection domain. */
  protectionDomain?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef: LocalObjectReference;
  /** Use SSL to talk to the gateway. */
  sslEnabled?: boolean;
  /**
   * ThickProvisioned or ThinProvisioned.
   * @defaultValue `"ThinProvisioned"`
   */
  storageMode?: string;
  /** Storage pool. */
  storagePool?: string;
  /** Name of the storage system. */
  system: string;
  /** Name of an existing volume. */
  volumeName?: string;
}

/**
 * The desired size of the scaled object.
 *
 * Schema `io.k8s.api.autoscaling.v1.ScaleSpec`.
 */
export interface ScaleSpec {
  /** Desired number of replicas. */
  replicas?: number;
}

/**
 * The observed size of the scaled object.
 *
 * Schema `io.k8s.api.autoscaling.v1.ScaleStatus`.
 */
export interface ScaleStatus {
  /** Observed number of replicas. */
  replicas: number;
  /** Label query over the pods counted as replicas, in string form (`app=web`). */
  selector?: string;
}

/**
 * Scopes as selector requirements, ANDed.
 *
 * Schema `io.k8s.api.core.v1.ScopeSelector`.
 */
export interface ScopeSelector {
  /** The requirements. */
  matchExpressions?: ScopedResourceSelectorRequirement[];
}

/**
 * A requirement on a scope: the scope, an operator and values.
 *
 * Schema `io.k8s.api.core.v1.ScopedResourceSelectorRequirement`.
 */
export interface ScopedResourceSelectorRequirement {
  /** In, NotIn, Exists or DoesNotExist. */
  operator: string;
  /** The scope the requirement is about, e.g. PriorityClass. */
  scopeName: string;
  /** Values for In and NotIn; empty for Exists and DoesNotExist. */
  values?: string[];
}

/**
 * The seccomp profile to apply.
 *
 * Schema `io.k8s.api.core.v1.SeccompProfile`.
 */
export interface SeccompProfile {
  /** Path of a profile file on the node; only for type Localhost. */
  localhostProfile?: string;
  /** Localhost, RuntimeDefault or Unconfined. */
  type: string;
}

/**
 * Sensitive data such as passwords, tokens or keys, for pods to read.
 *
 * Schema `io.k8s.api.core.v1.Secret`.
 */
export interface Secret extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** Secret values by key, base64-encoded. */
  data?: Record<string, string>;
  /** When true, the data can no longer change (the object can only be deleted). */
  immutable?: boolean;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Write-only plain-text values, merged into data (winning over it) when written. */
  stringData?: Record<string, string>;
  /** What the secret holds, which decides its required keys. Defaults to Opaque. */
  type?: string;
}

/**
 * A Secret whose keys become environment variables.
 *
 * Schema `io.k8s.api.core.v1.SecretEnvSource`.
 */
export interface SecretEnvSource {
  /** Name of the Secret. */
  name?: string;
  /** Whether the Secret may be missing. */
  optional?: boolean;
}

/**
 * Selects one key of a Secret in the pod’s namespace.
 *
 * Schema `io.k8s.api.core.v1.SecretKeySelector`.
 */
export interface SecretKeySelector {
  /** The key to select. */
  key: string;
  /** Name of the Secret. */
  name?: string;
  /** Whether the Secret or key may be missing. */
  optional?: boolean;
}

/**
 * A Secret projected into a volume.
 *
 * Schema `io.k8s.api.core.v1.SecretProjection`.
 */
export interface SecretProjection {
  /** Keys to project and where; all keys when empty. */
  items?: KeyToPath[];
  /** Name of the Secret. */
  name?: string;
  /** Whether the Secret or its keys may be missing. */
  optional?: boolean;
}

/**
 * A Secret in any namespace.
 *
 * Schema `io.k8s.api.core.v1.SecretReference`.
 */
export interface SecretReference {
  /** Name of the Secret. */
  name?: string;
  /** Namespace of the Secret. */
  namespace?: string;
}

/**
 * A Secret presented as files.
 *
 * Schema `io.k8s.api.core.v1.SecretVolumeSource`.
 */
export interface SecretVolumeSource {
  /** Permission bits for files by default, 0000-0777 (octal in YAML, decimal in JSON). */
  defaultMode?: number;
  /** Keys to project and where; all keys when empty. */
  items?: KeyToPath[];
  /** Whether the Secret or its keys may be missing. */
  optional?: boolean;
  /** Name of the Secret in the pod’s namespace. */
  secretName?: string;
}

/**
 * Security settings of one container; they override the pod’s.
 *
 * Schema `io.k8s.api.core.v1.SecurityContext`.
 */
export interface SecurityContext {
  /** Whether a process may gain more privileges than its parent. */
  allowPrivilegeEscalation?: boolean;
  /** AppArmor profile of the container. */
  appArmorProfile?: AppArmorProfile;
  /** Capabilities to add or drop. */
  capabilities?: Capabilities;
  /** Run in privileged mode. Defaults to false. */
  privileged?: boolean;
  /** Default or Unmasked /proc. */
  procMount?: string;
  /** Mount the root filesystem read-only. */
  readOnlyRootFilesystem?: boolean;
  /** GID to run the entrypoint as. */
  runAsGroup?: number;
  /** Require the container to run as a non-root user. */
  runAsNonRoot?: boolean;
  /** UID to run the entrypoint as. */
  runAsUser?: number;
  /** SELinux context of the container. */
  seLinuxOptions?: SELinuxOptions;
  /** Seccomp profile of the container. */
  seccompProfile?: SeccompProfile;
  /** Windows-specific settings. */
  windowsOptions?: WindowsSecurityContextOptions;
}

/**
 * A field usable in field selectors.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.SelectableField`.
 */
export interface SelectableField {
  /** The simple JSON path of the field. */
  jsonPath: string;
}

/**
 * Asks whether the caller may perform an action.
 *
 * Schema `io.k8s.api.authorization.v1.SelfSubjectAccessReview`.
 */
export interface SelfSubjectAccessReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The action asked about. */
  spec?: SelfSubjectAccessReviewSpec;
  /** The answer, filled in by the server. */
  status?: SubjectAccessReviewStatus;
}

/**
 * The action asked about: exactly one of resourceAttributes and nonResourceAttributes.
 *
 * Schema `io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec`.
 */
export interface SelfSubjectAccessReviewSpec {
  /** An action on a non-resource path. */
  nonResourceAttributes?: NonResourceAttributes;
  /** An action on a resource. */
  resourceAttributes?: ResourceAttributes;
}

/**
 * Lists what the caller may do in a namespace.
 *
 * Schema `io.k8s.api.authorization.v1.SelfSubjectRulesReview`.
 */
export interface SelfSubjectRulesReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The namespace asked about. */
  spec?: SelfSubjectRulesReviewSpec;
  /** The rules, filled in by the server. */
  status?: SubjectRulesReviewStatus;
}

/**
 * The namespace asked about.
 *
 * Schema `io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec`.
 */
export interface SelfSubjectRulesReviewSpec {
  /** The namespace. Required. */
  namespace?: string;
}

/**
 * A stable name and virtual IP in front of a set of pods (or an alias of an outside name).
 *
 * Schema `io.k8s.api.core.v1.Service`.
 */
export interface Service extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** What the service exposes. */
  spec?: ServiceSpec;
  /** The observed state of the service. Read-only. */
  status?: ServiceStatus;
}

/**
 * An identity for processes that run in pods.
 *
 * Schema `io.k8s.api.core.v1.ServiceAccount`.
 */
export interface ServiceAccount extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** Whether pods using this account get an API token mounted; a pod may override it. */
  automountServiceAccountToken?: boolean;
  /** Image pull secrets added to pods that use this account. */
  imagePullSecrets?: LocalObjectReference[];
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Legacy: secrets holding tokens of this account. */
  secrets?: ObjectReference[];
}

/**
 * A service account.
 *
 * Schema `io.k8s.api.flowcontrol.v1.ServiceAccountSubject`.
 */
export interface ServiceAccountSubject {
  /** Its name; `*` matches every one of the namespace. */
  name: string;
  /** Its namespace. */
  namespace: string;
}

/**
 * A service account token projected into a volume and rotated by the kubelet.
 *
 * Schema `io.k8s.api.core.v1.ServiceAccountTokenProjection`.
 */
export interface ServiceAccountTokenProjection {
  /** Intended audience of the token. Defaults to the API server. */
  audience?: string;
  /** Requested validity. Defaults to 1 hour; at least 10 minutes. */
  expirationSeconds?: number;
  /** Path of the token file. */
  path: string;
}

/**
 * A service port, by name or by number.
 *
 * Schema `io.k8s.api.networking.v1.ServiceBackendPort`.
 */
export interface ServiceBackendPort {
  /** The port’s name in the service. */
  name?: string;
  /** The port’s number. */
  number?: number;
}

/**
 * A port the service exposes.
 *
 * Schema `io.k8s.api.core.v1.ServicePort`.
 */
export interface ServicePort {
  /** Application protocol hint: an IANA service name or a prefixed name like example.com/proto. */
  appProtocol?: string;
  /** Name of the port, unique in the service; required when there are several ports. */
  name?: string;
  /** Port on every node, for NodePort and LoadBalancer services; allocated when not given. */
  nodePort?: number;
  /** Port the service listens on. */
  port: number;
  /**
   * TCP, UDP or SCTP. Defaults to TCP.
   * @defaultValue `"TCP"`
   */
  protocol?: string;
  /** Port on the pods traffic goes to; defaults to `port`. */
  targetPort?: number | string;
}

/**
 * What a service exposes and how.
 *
 * Schema `io.k8s.api.core.v1.ServiceSpec`.
 */
export interface ServiceSpec {
  /** Whether a LoadBalancer service gets node ports. Defaults to true. */
  allocateLoadBalancerNodePorts?: boolean;
  /** The service’s virtual IP: allocated when empty, "None" for a headless service. Immutable. */
  clusterIP?: string;
  /** The service’s virtual IPs, one per IP family; the first equals clusterIP. */
  clusterIPs?: string[];
  /** Outside IPs nodes accept traffic for, not managed by Kubernetes. */
  externalIPs?: string[];
  /** The DNS name an ExternalName service is an alias (CNAME) for. */
  externalName?: string;
  /** Cluster or Local: whether outside traffic may be sent to endpoints on other nodes. */
  externalTrafficPolicy?: string;
  /** Node port of the health check, for LoadBalancer services with the Local policy. */
  healthCheckNodePort?: number;
  /** Cluster or Local: whether in-cluster traffic may go to endpoints on other nodes. */
  internalTrafficPolicy?: string;
  /** IPv4 and/or IPv6: the families of the cluster IPs, in order. */
  ipFamilies?: string[];
  /** SingleStack, PreferDualStack or RequireDualStack. */
  ipFamilyPolicy?: string;
  /** The load balancer implementation to use; immutable once set. */
  loadBalancerClass?: string;
  /** Deprecated: a load balancer IP to ask the provider for. */
  loadBalancerIP?: string;
  /** Client CIDRs a provider load balancer admits. */
  loadBalancerSourceRanges?: string[];
  /** The ports the service exposes. */
  ports?: ServicePort[];
  /** Publish endpoints of pods that are not ready too. */
  publishNotReadyAddresses?: boolean;
  /** Pods with these labels receive the traffic; none means endpoints are managed by hand. */
  selector?: Record<string, string>;
  /** None or ClientIP. Defaults to None. */
  sessionAffinity?: string;
  /** Session affinity settings. */
  sessionAffinityConfig?: SessionAffinityConfig;
  /** A preference for how traffic is spread over endpoints, e.g. PreferClose. */
  trafficDistribution?: string;
  /** ClusterIP, NodePort, LoadBalancer or ExternalName. Defaults to ClusterIP. */
  type?: string;
}

/**
 * The observed state of a service.
 *
 * Schema `io.k8s.api.core.v1.ServiceStatus`.
 */
export interface ServiceStatus {
  /** Current conditions. */
  conditions?: Condition[];
  /** The load balancer, if any. */
  loadBalancer?: LoadBalancerStatus;
}

/**
 * Session affinity settings.
 *
 * Schema `io.k8s.api.core.v1.SessionAffinityConfig`.
 */
export interface SessionAffinityConfig {
  /** Settings for ClientIP affinity. */
  clientIP?: ClientIPConfig;
}

/**
 * Waits for a while.
 *
 * Schema `io.k8s.api.core.v1.SleepAction`.
 */
export interface SleepAction {
  /** Seconds to sleep. */
  seconds: number;
}

/**
 * Pods with stable network identities and per-pod storage.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSet`.
 */
export interface StatefulSet extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The desired identities of the pods in this set. */
  spec?: StatefulSetSpec;
  /** The most recently observed status of the stateful set. */
  status?: StatefulSetStatus;
}

/**
 * One observation of a stateful set’s state.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetCondition`.
 */
export interface StatefulSetCondition {
  /** When the condition last changed status. */
  lastTransitionTime?: Time;
  /** Human-readable details of the last transition. */
  message?: string;
  /** Machine-readable reason for the last transition. */
  reason?: string;
  /** True, False or Unknown. */
  status: string;
  /** Condition type. */
  type: string;
}

/**
 * How replica indices are numbered.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetOrdinals`.
 */
export interface StatefulSetOrdinals {
  /** Index of the first replica. Defaults to 0. */
  start?: number;
}

/**
 * What happens to claims made from volumeClaimTemplates.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy`.
 */
export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  /** Retain (the default) or Delete the claims when the stateful set is deleted. */
  whenDeleted?: 'Retain' | 'Delete';
  /** Retain (the default) or Delete the claims of pods removed by a scale-down. */
  whenScaled?: 'Retain' | 'Delete';
}

/**
 * The desired state of a stateful set.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetSpec`.
 */
export interface StatefulSetSpec {
  /** Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0. */
  minReadySeconds?: number;
  /** How replica indices are numbered. */
  ordinals?: StatefulSetOrdinals;
  /** Lifecycle of the claims made from volumeClaimTemplates. */
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  /** OrderedReady (the default: one pod at a time, in order) or Parallel. */
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  /** Desired number of pods. Defaults to 1. */
  replicas?: number;
  /** Old revisions kept. Defaults to 10. */
  revisionHistoryLimit?: number;
  /** Label query over the pods of this set; must match the template’s labels. */
  selector: LabelSelector;
  /** The headless service that gives the pods their network identity. */
  serviceName?: string;
  /** The pods to create; each gets a stable name <set>-<ordinal>. Only restartPolicy Always is allowed. */
  template: PodTemplateSpec;
  /** How pods are updated when the template changes. */
  updateStrategy?: StatefulSetUpdateStrategy;
  /** Claims each pod gets, matched to volume mounts by name. */
  volumeClaimTemplates?: PersistentVolumeClaim[];
}

/**
 * The observed state of a stateful set.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetStatus`.
 */
export interface StatefulSetStatus {
  /** Pods ready for at least minReadySeconds. */
  availableReplicas?: number;
  /** Hash collisions met while naming the newest ControllerRevision. */
  collisionCount?: number;
  /** Latest observations of the stateful set’s state. */
  conditions?: StatefulSetCondition[];
  /** Pods at currentRevision. */
  currentReplicas?: number;
  /** Revision of the pods in [0, currentReplicas). */
  currentRevision?: string;
  /** The generation the controller last acted on. */
  observedGeneration?: number;
  /** Pods with a Ready condition. */
  readyReplicas?: number;
  /** Pods created by the controller. */
  replicas: number;
  /** Revision of the pods in [replicas-updatedReplicas, replicas). */
  updateRevision?: string;
  /** Pods at updateRevision. */
  updatedReplicas?: number;
}

/**
 * How pods are replaced when the template changes.
 *
 * Schema `io.k8s.api.apps.v1.StatefulSetUpdateStrategy`.
 */
export interface StatefulSetUpdateStrategy {
  /** Parameters for type RollingUpdate. */
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
  /** RollingUpdate (the default) or OnDelete. */
  type?: 'RollingUpdate' | 'OnDelete';
}

/**
 * The outcome of a call that returns no object, and every error.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.Status`.
 */
export interface Status {
  /** Versioned schema of this representation. */
  apiVersion?: string;
  /** The HTTP status code. */
  code?: number;
  /** Extra data depending on the reason. */
  details?: StatusDetails;
  /** The kind, "Status". */
  kind?: string;
  /** A human-readable description. */
  message?: string;
  /** List metadata. */
  metadata?: ListMeta;
  /** A machine-readable reason, such as NotFound or Invalid. */
  reason?: string;
  /** "Success" or "Failure". */
  status?: string;
}

/**
 * One cause of an error, often one invalid field.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause`.
 */
export interface StatusCause {
  /** The field at fault, as a path like `spec.containers[0].name`. */
  field?: string;
  /** What is wrong with it. */
  message?: string;
  /** A machine-readable cause, such as FieldValueRequired. */
  reason?: string;
}

/**
 * More about an error: the object it concerns and its causes.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails`.
 */
export interface StatusDetails {
  /** The individual causes. */
  causes?: StatusCause[];
  /** API group of the object. */
  group?: string;
  /** Kind of the object. */
  kind?: string;
  /** Name of the object. */
  name?: string;
  /** Seconds to wait before retrying, when that helps. */
  retryAfterSeconds?: number;
  /** UID of the object. */
  uid?: string;
}

/**
 * A class of storage that claims can ask for and a provisioner can create.
 *
 * Schema `io.k8s.api.storage.v1.StorageClass`.
 */
export interface StorageClass extends KubeObject {
  /** Whether volumes of this class may be expanded. */
  allowVolumeExpansion?: boolean;
  /** Where volumes of this class may be provisioned; anywhere when empty. */
  allowedTopologies?: TopologySelectorTerm[];
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** Mount options of the volumes of this class; not validated. */
  mountOptions?: string[];
  /** Provisioner parameters; at most 512, 256 KiB in all. Immutable. */
  parameters?: Record<string, string>;
  /** The volume plugin or CSI driver that provisions volumes of this class. Immutable. */
  provisioner: string;
  /** What happens to volumes of this class when released: Delete (the default) or Retain. Immutable. */
  reclaimPolicy?: 'Delete' | 'Retain';
  /** When claims are bound and volumes provisioned: Immediate (the default) or WaitForFirstConsumer. */
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
}

/**
 * A StorageOS volume.
 *
 * Schema `io.k8s.api.core.v1.StorageOSPersistentVolumeSource`.
 */
export interface StorageOSPersistentVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding the API credentials. */
  secretRef?: ObjectReference;
  /** Name of the volume. */
  volumeName?: string;
  /** StorageOS namespace of the volume. */
  volumeNamespace?: string;
}

/**
 * A StorageOS volume.
 *
 * Schema `io.k8s.api.core.v1.StorageOSVolumeSource`.
 */
export interface StorageOSVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Force the mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** A Secret holding credentials. */
  secretRef?: LocalObjectReference;
  /** Name of the volume. */
  volumeName?: string;
  /** StorageOS namespace of the volume. */
  volumeNamespace?: string;
}

/**
 * Asks whether a user or group may perform an action.
 *
 * Schema `io.k8s.api.authorization.v1.SubjectAccessReview`.
 */
export interface SubjectAccessReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The action and the subject asked about. */
  spec?: SubjectAccessReviewSpec;
  /** The answer, filled in by the server. */
  status?: SubjectAccessReviewStatus;
}

/**
 * The action asked about (exactly one of resourceAttributes and nonResourceAttributes) and who would take it (a user, groups, or both).
 *
 * Schema `io.k8s.api.authorization.v1.SubjectAccessReviewSpec`.
 */
export interface SubjectAccessReviewSpec {
  /** More attributes of the user, as an authenticator would report them. */
  extra?: Record<string, string[]>;
  /** The groups asked about. */
  groups?: string[];
  /** An action on a non-resource path. */
  nonResourceAttributes?: NonResourceAttributes;
  /** An action on a resource. */
  resourceAttributes?: ResourceAttributes;
  /** The uid of the user asked about. */
  uid?: string;
  /** The user name asked about. Without groups, the user is taken to belong to none. */
  user?: string;
}

/**
 * The answer.
 *
 * Schema `io.k8s.api.authorization.v1.SubjectAccessReviewStatus`.
 */
export interface SubjectAccessReviewStatus {
  /** Whether the action is allowed. */
  allowed: boolean;
  /** Whether the action is explicitly denied. */
  denied?: boolean;
  /** What went wrong while deciding, if anything. */
  evaluationError?: string;
  /** Why. */
  reason?: string;
}

/**
 * The rules that apply.
 *
 * Schema `io.k8s.api.authorization.v1.SubjectRulesReviewStatus`.
 */
export interface SubjectRulesReviewStatus {
  /** What went wrong while evaluating, if anything. */
  evaluationError?: string;
  /** Whether some rules could not be evaluated. */
  incomplete?: boolean;
  /** Rules on non-resource paths. */
  nonResourceRules?: NonResourceRule[];
  /** Rules on resources. */
  resourceRules?: ResourceRule[];
}

/**
 * When an indexed job may be declared succeeded before all completions.
 *
 * Schema `io.k8s.api.batch.v1.SuccessPolicy`.
 */
export interface SuccessPolicy {
  /** Alternative rules; the first one met decides. At most 20. */
  rules: SuccessPolicyRule[];
}

/**
 * When an indexed job counts as succeeded; set succeededIndexes, succeededCount or both.
 *
 * Schema `io.k8s.api.batch.v1.SuccessPolicyRule`.
 */
export interface SuccessPolicyRule {
  /** How many of the succeeded indexes are enough. */
  succeededCount?: number;
  /** Indexes that must succeed, as intervals such as "1,3-5,7". */
  succeededIndexes?: string;
}

/**
 * A kernel parameter.
 *
 * Schema `io.k8s.api.core.v1.Sysctl`.
 */
export interface Sysctl {
  /** Name of the parameter. */
  name: string;
  /** Its value. */
  value: string;
}

/**
 * Opens a TCP connection.
 *
 * Schema `io.k8s.api.core.v1.TCPSocketAction`.
 */
export interface TCPSocketAction {
  /** Host to connect to; defaults to the pod IP. */
  host?: string;
  /** Port number or name to connect to. */
  port: number | string;
}

/**
 * A mark on a node that repels pods which do not tolerate it.
 *
 * Schema `io.k8s.api.core.v1.Taint`.
 */
export interface Taint {
  /** NoSchedule, PreferNoSchedule or NoExecute. */
  effect?: string;
  /** The taint key. */
  key?: string;
  /** When a NoExecute taint was added. */
  timeAdded?: Time;
  /** The taint value. */
  value?: string;
}

/**
 * A tenant: the owner of one space of namespaces, cluster-wide objects and RBAC.
 *
 * Schema `io.k8s.api.core.v1.Tenant`.
 */
export interface Tenant extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** What the tenant needs before it can go. */
  spec?: TenantSpec;
  /** The observed state of the tenant. Read-only. */
  status?: TenantStatus;
}

/**
 * What a tenant needs before it can go.
 *
 * Schema `io.k8s.api.core.v1.TenantSpec`.
 */
export interface TenantSpec {
  /** Components that must empty the space before the tenant is removed. */
  finalizers?: string[];
  /** The most the space may hold: count/<resource>[.<group>] per kind, count/* for all objects together, storage/bytes for the bytes they take in storage. */
  hard?: Record<string, string | number>;
  /** The storage cluster (--storage-cluster) holding the space; unset: the default store. Immutable. */
  storageClusterId?: string;
}

/**
 * The observed state of a tenant.
 *
 * Schema `io.k8s.api.core.v1.TenantStatus`.
 */
export interface TenantStatus {
  /** The limits in force (spec.hard once the space has been counted against it). */
  hard?: Record<string, string | number>;
  /** Active while the space is usable; Terminating while it is being emptied. */
  phase?: 'Active' | 'Terminating';
  /** What the space holds now, for each limit in force. */
  used?: Record<string, string | number>;
}

/**
 * A timestamp in RFC 3339 form, to the second.
 *
 * Schema `io.k8s.apimachinery.pkg.apis.meta.v1.Time`.
 */
export type Time = string;

/**
 * Asks who a bearer token belongs to.
 *
 * Schema `io.k8s.api.authentication.v1.TokenReview`.
 */
export interface TokenReview extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The token asked about. */
  spec?: TokenReviewSpec;
  /** The answer, filled in by the server. */
  status?: TokenReviewStatus;
}

/**
 * The token asked about.
 *
 * Schema `io.k8s.api.authentication.v1.TokenReviewSpec`.
 */
export interface TokenReviewSpec {
  /** Audiences the token must be meant for, at least one of them; the API server’s own audience when empty. */
  audiences?: string[];
  /** The opaque bearer token. */
  token?: string;
}

/**
 * The answer.
 *
 * Schema `io.k8s.api.authentication.v1.TokenReviewStatus`.
 */
export interface TokenReviewStatus {
  /** The audiences, among those asked for, the token is valid for. */
  audiences?: string[];
  /** Whether the token belongs to a known identity. */
  authenticated?: boolean;
  /** Why the token could not be authenticated, if it could not. */
  error?: string;
  /** The identity the token belongs to. */
  user?: AuthenticationV1UserInfo;
}

/**
 * Lets the pod run on nodes with a matching taint.
 *
 * Schema `io.k8s.api.core.v1.Toleration`.
 */
export interface Toleration {
  /** Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; all when empty. */
  effect?: string;
  /** Taint key to match; all keys when empty (operator must be Exists). */
  key?: string;
  /** Exists or Equal. Defaults to Equal. */
  operator?: string;
  /** For NoExecute: how long the pod stays bound after the taint appears; forever when unset. */
  tolerationSeconds?: number;
  /** Taint value to match; empty for Exists. */
  value?: string;
}

/**
 * A label that must have one of the values.
 *
 * Schema `io.k8s.api.core.v1.TopologySelectorLabelRequirement`.
 */
export interface TopologySelectorLabelRequirement {
  /** The label key. */
  key: string;
  /** Allowed values, ORed. */
  values: string[];
}

/**
 * A topology domain, by labels. An empty term matches nothing.
 *
 * Schema `io.k8s.api.core.v1.TopologySelectorTerm`.
 */
export interface TopologySelectorTerm {
  /** Label requirements, ANDed. */
  matchLabelExpressions?: TopologySelectorLabelRequirement[];
}

/**
 * How to spread matching pods across topology domains.
 *
 * Schema `io.k8s.api.core.v1.TopologySpreadConstraint`.
 */
export interface TopologySpreadConstraint {
  /** The pods counted. */
  labelSelector?: LabelSelector;
  /** Label keys whose values in this pod are added to the selector. */
  matchLabelKeys?: string[];
  /** The largest allowed difference in matching pods between domains. */
  maxSkew: number;
  /** Minimum number of eligible domains. */
  minDomains?: number;
  /** Honor or Ignore the pod’s node affinity when counting. Defaults to Honor. */
  nodeAffinityPolicy?: string;
  /** Honor or Ignore node taints when counting. Defaults to Ignore. */
  nodeTaintsPolicy?: string;
  /** The node label whose values define the domains. */
  topologyKey: string;
  /** DoNotSchedule or ScheduleAnyway. */
  whenUnsatisfiable: string;
}

/**
 * The results of type checking each expression.
 *
 * Schema `io.k8s.api.admissionregistration.v1.TypeChecking`.
 */
export interface TypeChecking {
  /** The type warnings of each expression. */
  expressionWarnings?: ExpressionWarning[];
}

/**
 * A typed reference to an object in the same namespace.
 *
 * Schema `io.k8s.api.core.v1.TypedLocalObjectReference`.
 */
export interface TypedLocalObjectReference {
  /** API group of the referent; empty for the core group. */
  apiGroup?: string;
  /** Kind of the referent. */
  kind: string;
  /** Name of the referent. */
  name: string;
}

/**
 * A typed reference to an object, possibly in another namespace.
 *
 * Schema `io.k8s.api.core.v1.TypedObjectReference`.
 */
export interface TypedObjectReference {
  /** API group of the referent; empty for the core group. */
  apiGroup?: string;
  /** Kind of the referent. */
  kind: string;
  /** Name of the referent. */
  name: string;
  /** Namespace of the referent; needs a ReferenceGrant there. */
  namespace?: string;
}

/**
 * Finished pods the controller has not yet counted.
 *
 * Schema `io.k8s.api.batch.v1.UncountedTerminatedPods`.
 */
export interface UncountedTerminatedPods {
  /** Uids of failed pods. */
  failed?: string[];
  /** Uids of succeeded pods. */
  succeeded?: string[];
}

/**
 * A user.
 *
 * Schema `io.k8s.api.flowcontrol.v1.UserSubject`.
 */
export interface UserSubject {
  /** The user name; `*` matches every user. */
  name: string;
}

/**
 * Validates requests with CEL expressions, once bound by a ValidatingAdmissionPolicyBinding.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy`.
 */
export interface ValidatingAdmissionPolicy extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The policy. */
  spec?: ValidatingAdmissionPolicySpec;
  /** The observed state of the policy. */
  status?: ValidatingAdmissionPolicyStatus;
}

/**
 * Binds a ValidatingAdmissionPolicy to requests, with params and validation actions.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding`.
 */
export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  /** The versioned schema of this representation, e.g. "v1" or "apps/v1". */
  apiVersion?: string;
  /** The kind of object this is, in CamelCase. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The binding. */
  spec?: ValidatingAdmissionPolicyBindingSpec;
}

/**
 * Which policy applies, with which params, to which requests, and what a failed validation does.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec`.
 */
export interface ValidatingAdmissionPolicyBindingSpec {
  /** Further limits the requests the policy applies to. */
  matchResources?: MatchResources;
  /** The params of the policy. */
  paramRef?: ParamRef;
  /** The ValidatingAdmissionPolicy bound. */
  policyName?: string;
  /** Deny, Warn and/or Audit: what a failed validation does. */
  validationActions?: string[];
}

/**
 * What a ValidatingAdmissionPolicy checks, and of which requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec`.
 */
export interface ValidatingAdmissionPolicySpec {
  /** Audit annotations added to the request's audit event. */
  auditAnnotations?: AuditAnnotation[];
  /** Fail (the default) or Ignore: what an error in the policy does to the request. */
  failurePolicy?: string;
  /** Conditions every one of which must hold for the policy to apply (at most 64). */
  matchConditions?: MatchCondition[];
  /** The requests the policy may apply to; required. */
  matchConstraints?: MatchResources;
  /** The kind of the params; without it the policy takes none. */
  paramKind?: ParamKind;
  /** The CEL validations a request must pass. */
  validations?: Validation[];
  /** Variables, evaluated in order, for the other expressions. */
  variables?: Variable[];
}

/**
 * The observed state of a ValidatingAdmissionPolicy.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus`.
 */
export interface ValidatingAdmissionPolicyStatus {
  /** The latest observations of the policy's state. */
  conditions?: Condition[];
  /** The generation the status was computed for. */
  observedGeneration?: number;
  /** The results of type checking each expression. */
  typeChecking?: TypeChecking;
}

/**
 * An admission webhook that may refuse requests.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingWebhook`.
 */
export interface ValidatingWebhook {
  /** AdmissionReview versions the webhook understands, in order of preference; must include v1 or v1beta1. */
  admissionReviewVersions: string[];
  /** How to reach the webhook. */
  clientConfig: AdmissionregistrationV1WebhookClientConfig;
  /** What an unreachable or failing webhook means: Fail (the default) or Ignore. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** CEL conditions the request must all satisfy; at most 64. */
  matchConditions?: MatchCondition[];
  /** Exact, or Equivalent (the default): also requests through another version of a rule’s resource. */
  matchPolicy?: 'Equivalent' | 'Exact';
  /** The webhook’s fully qualified name, e.g. imagepolicy.kubernetes.io. */
  name: string;
  /** Which namespaces’ objects are sent, by the namespace’s labels. */
  namespaceSelector?: LabelSelector;
  /** Which objects are sent, by their labels. */
  objectSelector?: LabelSelector;
  /** The operations and resources the webhook cares about. */
  rules?: RuleWithOperations[];
  /** None or NoneOnDryRun; other webhooks are not called for dry-run requests. */
  sideEffects: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  /** Seconds to wait for the webhook, 1 to 30; 10 by default. */
  timeoutSeconds?: number;
}

/**
 * The validating admission webhooks of this space.
 *
 * Schema `io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration`.
 */
export interface ValidatingWebhookConfiguration extends KubeObject {
  /** Versioned schema of this representation of the object. */
  apiVersion?: string;
  /** REST resource this object represents. */
  kind?: string;
  /** Standard object metadata. */
  metadata: ObjectMeta;
  /** The webhooks, each with its rules. */
  webhooks?: ValidatingWebhook[];
}

/**
 * A CEL expression a request must satisfy.
 *
 * Schema `io.k8s.api.admissionregistration.v1.Validation`.
 */
export interface Validation {
  /** A CEL expression returning bool; false fails the validation. */
  expression: string;
  /** The message of a failed validation. */
  message?: string;
  /** A CEL expression returning the message of a failed validation. */
  messageExpression?: string;
  /** The Status reason of a denial: Unauthorized, Forbidden, Invalid (the default) or RequestEntityTooLarge. */
  reason?: string;
}

/**
 * A CEL rule the values of a schema must satisfy.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule`.
 */
export interface ValidationRule {
  /** The field reported when the rule fails, relative to the schema. */
  fieldPath?: string;
  /** What is reported when the rule fails. */
  message?: string;
  /** A CEL expression whose value is reported when the rule fails. */
  messageExpression?: string;
  /** Whether the rule also runs on create, with oldSelf absent. */
  optionalOldSelf?: boolean;
  /** The machine-readable reason reported when the rule fails. */
  reason?: string;
  /** The CEL expression. */
  rule: string;
}

/**
 * A named CEL expression, available to later expressions as variables.<name>.
 *
 * Schema `io.k8s.api.admissionregistration.v1.Variable`.
 */
export interface Variable {
  /** The CEL expression computing the value. */
  expression: string;
  /** The variable's name, a CEL identifier. */
  name: string;
}

/**
 * A named volume of a pod, mountable by its containers. Exactly one source is set.
 *
 * Schema `io.k8s.api.core.v1.Volume`.
 */
export interface Volume {
  /** An AWS EBS volume. */
  awsElasticBlockStore?: AWSElasticBlockStoreVolumeSource;
  /** An Azure data disk. */
  azureDisk?: AzureDiskVolumeSource;
  /** An Azure File share. */
  azureFile?: AzureFileVolumeSource;
  /** A CephFS mount. */
  cephfs?: CephFSVolumeSource;
  /** An OpenStack Cinder volume. */
  cinder?: CinderVolumeSource;
  /** A ConfigMap as files. */
  configMap?: ConfigMapVolumeSource;
  /** An ephemeral CSI volume. */
  csi?: CSIVolumeSource;
  /** Pod information as files. */
  downwardAPI?: DownwardAPIVolumeSource;
  /** A temporary directory. */
  emptyDir?: EmptyDirVolumeSource;
  /** A claim-backed volume living as long as the pod. */
  ephemeral?: EphemeralVolumeSource;
  /** A Fibre Channel volume. */
  fc?: FCVolumeSource;
  /** An exec-plugin volume. */
  flexVolume?: FlexVolumeSource;
  /** A Flocker dataset. */
  flocker?: FlockerVolumeSource;
  /** A GCE persistent disk. */
  gcePersistentDisk?: GCEPersistentDiskVolumeSource;
  /** Deprecated: a cloned git repository. */
  gitRepo?: GitRepoVolumeSource;
  /** A GlusterFS volume. */
  glusterfs?: GlusterfsVolumeSource;
  /** A path on the node. */
  hostPath?: HostPathVolumeSource;
  /** An OCI image or artifact. */
  image?: ImageVolumeSource;
  /** An iSCSI disk. */
  iscsi?: ISCSIVolumeSource;
  /** Name of the volume, a DNS label unique in the pod. */
  name: string;
  /** An NFS export. */
  nfs?: NFSVolumeSource;
  /** A PersistentVolumeClaim. */
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
  /** A Photon Controller disk. */
  photonPersistentDisk?: PhotonPersistentDiskVolumeSource;
  /** A Portworx volume. */
  portworxVolume?: PortworxVolumeSource;
  /** Several sources in one directory. */
  projected?: ProjectedVolumeSource;
  /** A Quobyte volume. */
  quobyte?: QuobyteVolumeSource;
  /** A Ceph block device. */
  rbd?: RBDVolumeSource;
  /** A ScaleIO volume. */
  scaleIO?: ScaleIOVolumeSource;
  /** A Secret as files. */
  secret?: SecretVolumeSource;
  /** A StorageOS volume. */
  storageos?: StorageOSVolumeSource;
  /** A vSphere disk. */
  vsphereVolume?: VsphereVirtualDiskVolumeSource;
}

/**
 * Maps a raw block volume into a container.
 *
 * Schema `io.k8s.api.core.v1.VolumeDevice`.
 */
export interface VolumeDevice {
  /** Path of the device inside the container. */
  devicePath: string;
  /** Name of a persistentVolumeClaim volume of the pod. */
  name: string;
}

/**
 * Mounts a pod volume into a container.
 *
 * Schema `io.k8s.api.core.v1.VolumeMount`.
 */
export interface VolumeMount {
  /** Where in the container to mount; must not contain ":". */
  mountPath: string;
  /** How mounts propagate between host and container: None, HostToContainer or Bidirectional. */
  mountPropagation?: string;
  /** Name of the pod volume. */
  name: string;
  /** Mount read-only. Defaults to false. */
  readOnly?: boolean;
  /** Whether a read-only mount is read-only recursively: Disabled, IfPossible or Enabled. */
  recursiveReadOnly?: string;
  /** A path within the volume to mount instead of its root. */
  subPath?: string;
  /** Like subPath, with $(VAR) references expanded from the container’s environment. */
  subPathExpr?: string;
}

/**
 * The state of one mount.
 *
 * Schema `io.k8s.api.core.v1.VolumeMountStatus`.
 */
export interface VolumeMountStatus {
  /** Where it is mounted. */
  mountPath: string;
  /** The volume. */
  name: string;
  /** Whether it is read-only. */
  readOnly?: boolean;
  /** Whether read-only applies recursively. */
  recursiveReadOnly?: string;
}

/**
 * Nodes a volume can be used from.
 *
 * Schema `io.k8s.api.core.v1.VolumeNodeAffinity`.
 */
export interface VolumeNodeAffinity {
  /** Node constraints that must hold. */
  required?: NodeSelector;
}

/**
 * One source of a projected volume.
 *
 * Schema `io.k8s.api.core.v1.VolumeProjection`.
 */
export interface VolumeProjection {
  /** Trust bundles. */
  clusterTrustBundle?: ClusterTrustBundleProjection;
  /** A ConfigMap. */
  configMap?: ConfigMapProjection;
  /** Pod information. */
  downwardAPI?: DownwardAPIProjection;
  /** A Secret. */
  secret?: SecretProjection;
  /** A service account token. */
  serviceAccountToken?: ServiceAccountTokenProjection;
}

/**
 * Storage a volume requests.
 *
 * Schema `io.k8s.api.core.v1.VolumeResourceRequirements`.
 */
export interface VolumeResourceRequirements {
  /** The most of each resource allowed. */
  limits?: Record<string, string | number>;
  /** The least of each resource required, e.g. storage: 1Gi. */
  requests?: Record<string, string | number>;
}

/**
 * A vSphere virtual disk.
 *
 * Schema `io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource`.
 */
export interface VsphereVirtualDiskVolumeSource {
  /** Filesystem type to mount, e.g. ext4 or xfs. */
  fsType?: string;
  /** Storage policy ID. */
  storagePolicyID?: string;
  /** Storage policy name. */
  storagePolicyName?: string;
  /** Path of the vmdk. */
  volumePath: string;
}

/**
 * Conversion through a webhook.
 *
 * Schema `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion`.
 */
export interface WebhookConversion {
  /** How to reach the webhook. */
  clientConfig?: ApiextensionsV1WebhookClientConfig;
  /** ConversionReview versions the webhook accepts, preferred first. */
  conversionReviewVersions: string[];
}

/**
 * A weighted pod (anti-)affinity preference.
 *
 * Schema `io.k8s.api.core.v1.WeightedPodAffinityTerm`.
 */
export interface WeightedPodAffinityTerm {
  /** The term. */
  podAffinityTerm: PodAffinityTerm;
  /** Weight, 1-100. */
  weight: number;
}

/**
 * Windows-specific security settings.
 *
 * Schema `io.k8s.api.core.v1.WindowsSecurityContextOptions`.
 */
export interface WindowsSecurityContextOptions {
  /** The contents of the GMSA credential spec. */
  gmsaCredentialSpec?: string;
  /** Name of the GMSA credential spec to use. */
  gmsaCredentialSpecName?: string;
  /** Run as a Windows host process container. */
  hostProcess?: boolean;
  /** Windows user to run the entrypoint as. */
  runAsUserName?: string;
}

/** The type of each kind above, by `apiVersion/kind` (`v1/Pod`, `apps/v1/Deployment`). */
export interface BuiltinKindTypes {
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicy': AdmissionregistrationV1MutatingAdmissionPolicy;
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding': AdmissionregistrationV1MutatingAdmissionPolicyBinding;
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': MutatingWebhookConfiguration;
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': ValidatingAdmissionPolicy;
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': ValidatingAdmissionPolicyBinding;
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': ValidatingWebhookConfiguration;
  'admissionregistration.k8s.io/v1alpha1/MutatingAdmissionPolicy': AdmissionregistrationV1alpha1MutatingAdmissionPolicy;
  'admissionregistration.k8s.io/v1alpha1/MutatingAdmissionPolicyBinding': AdmissionregistrationV1alpha1MutatingAdmissionPolicyBinding;
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy': AdmissionregistrationV1beta1MutatingAdmissionPolicy;
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding': AdmissionregistrationV1beta1MutatingAdmissionPolicyBinding;
  'apiextensions.k8s.io/v1/CustomResourceDefinition': CustomResourceDefinition;
  'apiregistration.k8s.io/v1/APIService': APIService;
  'apps/v1/ControllerRevision': ControllerRevision;
  'apps/v1/DaemonSet': DaemonSet;
  'apps/v1/Deployment': Deployment;
  'apps/v1/ReplicaSet': ReplicaSet;
  'apps/v1/StatefulSet': StatefulSet;
  'authentication.k8s.io/v1/SelfSubjectReview': AuthenticationV1SelfSubjectReview;
  'authentication.k8s.io/v1/TokenReview': TokenReview;
  'authentication.k8s.io/v1beta1/SelfSubjectReview': AuthenticationV1beta1SelfSubjectReview;
  'authorization.k8s.io/v1/LocalSubjectAccessReview': LocalSubjectAccessReview;
  'authorization.k8s.io/v1/SelfSubjectAccessReview': SelfSubjectAccessReview;
  'authorization.k8s.io/v1/SelfSubjectRulesReview': SelfSubjectRulesReview;
  'authorization.k8s.io/v1/SubjectAccessReview': SubjectAccessReview;
  'autoscaling/v1/Scale': Scale;
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler;
  'batch/v1/CronJob': CronJob;
  'batch/v1/Job': Job;
  'certificates.k8s.io/v1/CertificateSigningRequest': CertificateSigningRequest;
  'coordination.k8s.io/v1/Lease': Lease;
  'discovery.k8s.io/v1/EndpointSlice': EndpointSlice;
  'events.k8s.io/v1/Event': EventsV1Event;
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': FlowSchema;
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': PriorityLevelConfiguration;
  'networking.k8s.io/v1/Ingress': Ingress;
  'networking.k8s.io/v1/IngressClass': IngressClass;
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy;
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget;
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole;
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding;
  'rbac.authorization.k8s.io/v1/Role': Role;
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding;
  'scheduling.k8s.io/v1/PriorityClass': PriorityClass;
  'storage.k8s.io/v1/StorageClass': StorageClass;
  'v1/ConfigMap': ConfigMap;
  'v1/Endpoints': Endpoints;
  'v1/Event': CoreV1Event;
  'v1/LimitRange': LimitRange;
  'v1/Namespace': Namespace;
  'v1/Node': Node;
  'v1/PersistentVolume': PersistentVolume;
  'v1/PersistentVolumeClaim': PersistentVolumeClaim;
  'v1/Pod': Pod;
  'v1/PodTemplate': PodTemplate;
  'v1/ReplicationController': ReplicationController;
  'v1/ResourceQuota': ResourceQuota;
  'v1/Secret': Secret;
  'v1/Service': Service;
  'v1/ServiceAccount': ServiceAccount;
  'v1/Tenant': Tenant;
}
