/**
 * TypeScript shapes of the core/v1 objects the strategies read and write. They cover the fields
 * our code touches; the schemas (`api/schema/core-types*.ts`) describe every field, and objects
 * travel as plain JSON, so anything not listed here is still carried along untouched.
 */
import type { KubeObject, ObjectMeta } from '../../registry/object.js';

/** A quantity as clients send it: `"500m"`, `"1Gi"` or a bare number. */
export type QuantityValue = string | number;
export type ResourceList = Record<string, QuantityValue>;
/** Kubernetes' IntOrString. */
export type IntOrString = number | string;

export interface LocalObjectReference {
  name?: string;
}

export interface ObjectReference {
  apiVersion?: string;
  fieldPath?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
}

export interface KeyToPath {
  key?: string;
  mode?: number;
  path?: string;
}

export interface ContainerPort {
  containerPort?: number;
  hostIP?: string;
  hostPort?: number;
  name?: string;
  protocol?: string;
}

export interface KeySelector {
  key?: string;
  name?: string;
  optional?: boolean;
}

export interface EnvVar {
  name?: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: KeySelector;
    fieldRef?: { apiVersion?: string; fieldPath?: string };
    resourceFieldRef?: { containerName?: string; divisor?: QuantityValue; resource?: string };
    secretKeyRef?: KeySelector;
  };
}

export interface EnvFromSource {
  configMapRef?: { name?: string; optional?: boolean };
  prefix?: string;
  secretRef?: { name?: string; optional?: boolean };
}

export interface VolumeMount {
  mountPath?: string;
  mountPropagation?: string;
  name?: string;
  readOnly?: boolean;
  subPath?: string;
  subPathExpr?: string;
}

export interface VolumeDevice {
  devicePath?: string;
  name?: string;
}

export interface ResourceRequirements {
  claims?: Array<{ name?: string; request?: string }>;
  limits?: ResourceList;
  requests?: ResourceList;
}

export interface ProbeHandler {
  exec?: { command?: string[] };
  grpc?: { port?: number; service?: string };
  httpGet?: { host?: string; httpHeaders?: Array<{ name?: string; value?: string }>; path?: string; port?: IntOrString; scheme?: string };
  sleep?: { seconds?: number };
  tcpSocket?: { host?: string; port?: IntOrString };
}

export interface Probe extends ProbeHandler {
  failureThreshold?: number;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  terminationGracePeriodSeconds?: number;
  timeoutSeconds?: number;
}

export interface Lifecycle {
  postStart?: ProbeHandler;
  preStop?: ProbeHandler;
  stopSignal?: string;
}

export interface SecurityContext {
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  privileged?: boolean;
  procMount?: string;
  runAsGroup?: number;
  runAsUser?: number;
  seccompProfile?: { localhostProfile?: string; type?: string };
}

export interface Container {
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  image?: string;
  imagePullPolicy?: string;
  lifecycle?: Lifecycle;
  livenessProbe?: Probe;
  name?: string;
  ports?: ContainerPort[];
  readinessProbe?: Probe;
  resizePolicy?: Array<{ resourceName?: string; restartPolicy?: string }>;
  resources?: ResourceRequirements;
  restartPolicy?: string;
  securityContext?: SecurityContext;
  startupProbe?: Probe;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  volumeDevices?: VolumeDevice[];
  volumeMounts?: VolumeMount[];
  workingDir?: string;
}

export interface EphemeralContainer extends Container {
  targetContainerName?: string;
}

/** A pod volume: a name and exactly one source, kept loosely typed since sources are many. */
export interface Volume {
  name?: string;
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  downwardAPI?: { items?: Array<{ path?: string }>; defaultMode?: number };
  emptyDir?: { medium?: string; sizeLimit?: QuantityValue };
  ephemeral?: { volumeClaimTemplate?: unknown };
  hostPath?: { path?: string; type?: string };
  persistentVolumeClaim?: { claimName?: string; readOnly?: boolean };
  projected?: { sources?: unknown[]; defaultMode?: number };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  [source: string]: unknown;
}

export interface Toleration {
  effect?: string;
  key?: string;
  operator?: string;
  tolerationSeconds?: number;
  value?: string;
}

export interface PodSecurityContext {
  fsGroup?: number;
  fsGroupChangePolicy?: string;
  runAsGroup?: number;
  runAsUser?: number;
  seccompProfile?: { localhostProfile?: string; type?: string };
  supplementalGroups?: number[];
  sysctls?: Array<{ name?: string; value?: string }>;
}

export interface PodSpec {
  activeDeadlineSeconds?: number;
  affinity?: Record<string, unknown>;
  containers?: Container[];
  dnsConfig?: { nameservers?: string[]; options?: Array<{ name?: string; value?: string }>; searches?: string[] };
  dnsPolicy?: string;
  enableServiceLinks?: boolean;
  ephemeralContainers?: EphemeralContainer[];
  hostAliases?: Array<{ ip?: string; hostnames?: string[] }>;
  hostIPC?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostname?: string;
  imagePullSecrets?: LocalObjectReference[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  os?: { name?: string };
  preemptionPolicy?: string;
  priority?: number;
  priorityClassName?: string;
  readinessGates?: Array<{ conditionType?: string }>;
  restartPolicy?: string;
  schedulerName?: string;
  schedulingGates?: Array<{ name?: string }>;
  securityContext?: PodSecurityContext;
  serviceAccount?: string;
  serviceAccountName?: string;
  shareProcessNamespace?: boolean;
  subdomain?: string;
  terminationGracePeriodSeconds?: number;
  tolerations?: Toleration[];
  topologySpreadConstraints?: unknown[];
  volumes?: Volume[];
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface ContainerState {
  running?: { startedAt?: string };
  terminated?: { exitCode?: number; finishedAt?: string; reason?: string; signal?: number; startedAt?: string; containerID?: string; message?: string };
  waiting?: { message?: string; reason?: string };
}

export interface ContainerStatus {
  containerID?: string;
  image?: string;
  imageID?: string;
  lastState?: ContainerState;
  name?: string;
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  state?: ContainerState;
}

export interface PodCondition {
  lastTransitionTime?: string;
  message?: string;
  reason?: string;
  status?: string;
  type?: string;
}

export interface PodStatus {
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  nominatedNodeName?: string;
  phase?: string;
  hostIP?: string;
  hostIPs?: Array<{ ip?: string }>;
  podIP?: string;
  podIPs?: Array<{ ip?: string }>;
  qosClass?: string;
  reason?: string;
  startTime?: string;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodTemplate extends KubeObject {
  template?: PodTemplateSpec;
}

export interface ServicePort {
  appProtocol?: string;
  name?: string;
  nodePort?: number;
  port?: number;
  protocol?: string;
  targetPort?: IntOrString;
}

export interface ServiceSpec {
  allocateLoadBalancerNodePorts?: boolean;
  clusterIP?: string;
  clusterIPs?: string[];
  externalIPs?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  internalTrafficPolicy?: string;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  loadBalancerClass?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  ports?: ServicePort[];
  publishNotReadyAddresses?: boolean;
  selector?: Record<string, string>;
  sessionAffinity?: string;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  trafficDistribution?: string;
  type?: string;
}

export interface LoadBalancerIngress {
  hostname?: string;
  ip?: string;
  ipMode?: string;
  ports?: Array<{ error?: string; port?: number; protocol?: string }>;
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] }; conditions?: unknown[] };
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: unknown[] };
}

export interface ConfigMap extends KubeObject {
  binaryData?: Record<string, string>;
  data?: Record<string, string>;
  immutable?: boolean;
}

export interface Secret extends KubeObject {
  data?: Record<string, string>;
  immutable?: boolean;
  stringData?: Record<string, string>;
  type?: string;
}

export interface ServiceAccount extends KubeObject {
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: LocalObjectReference[];
  secrets?: ObjectReference[];
}

export interface EndpointAddress {
  hostname?: string;
  ip?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  appProtocol?: string;
  name?: string;
  port?: number;
  protocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

export interface Event extends KubeObject {
  action?: string;
  count?: number;
  eventTime?: string;
  firstTimestamp?: string;
  involvedObject?: ObjectReference;
  lastTimestamp?: string;
  message?: string;
  reason?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string; host?: string };
  type?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  resources?: { limits?: ResourceList; requests?: ResourceList };
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key?: string; operator?: string; values?: string[] }> };
  storageClassName?: string;
  volumeAttributesClassName?: string;
  volumeMode?: string;
  volumeName?: string;
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: { accessModes?: string[]; capacity?: ResourceList; phase?: string };
}

export interface PersistentVolumeSpec {
  accessModes?: string[];
  capacity?: ResourceList;
  claimRef?: ObjectReference;
  nodeAffinity?: { required?: unknown };
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  volumeAttributesClassName?: string;
  volumeMode?: string;
  [source: string]: unknown;
}

export interface PersistentVolume extends KubeObject {
  spec?: PersistentVolumeSpec;
  status?: { lastPhaseTransitionTime?: string; message?: string; phase?: string; reason?: string };
}

export interface ScopedResourceSelectorRequirement {
  operator?: string;
  scopeName?: string;
  values?: string[];
}

export interface ResourceQuota extends KubeObject {
  spec?: { hard?: ResourceList; scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] }; scopes?: string[] };
  status?: { hard?: ResourceList; used?: ResourceList };
}

export interface LimitRangeItem {
  default?: ResourceList;
  defaultRequest?: ResourceList;
  max?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
  min?: ResourceList;
  type?: string;
}

export interface LimitRange extends KubeObject {
  spec?: { limits?: LimitRangeItem[] };
}

export interface ReplicationController extends KubeObject {
  spec?: { minReadySeconds?: number; replicas?: number; selector?: Record<string, string>; template?: PodTemplateSpec };
  status?: { availableReplicas?: number; fullyLabeledReplicas?: number; observedGeneration?: number; readyReplicas?: number; replicas?: number };
}
