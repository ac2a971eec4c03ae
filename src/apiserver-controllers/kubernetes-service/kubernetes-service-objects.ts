/**
 * What kube-apiserver keeps in every cluster's `default` namespace so that workloads find it: the
 * `kubernetes` Service on the range's first IP (`pkg/controlplane/controller/kubernetesservice`),
 * its Endpoints with the advertised address (`pkg/controlplane/reconcilers`, marked so the
 * EndpointSlice mirroring controller leaves it alone) and the EndpointSlice mirroring those
 * Endpoints (`reconcilers/endpointsadapter.go`). Each space is its own cluster and gets all three.
 */
import { isIP } from 'node:net';
import type { KubeObject } from '../../../api/registry/object.js';
import { semanticEqual } from '../../../api/validation/equality.js';

export const KUBERNETES_SERVICE = 'kubernetes';
export const KUBERNETES_SERVICE_NAMESPACE = 'default';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const PORT_NAME = 'https';
const SERVICE_PORT = 443;

/**
 * Where clients reach the API server: its secure port, and the address kube-apiserver would
 * advertise (undefined when the host has none an Endpoints may hold; the Service is still made).
 */
export interface AdvertisedEndpoint {
  address?: string;
  port: number;
}

type Labels = Record<string, string>;

const labelsOf = (obj: KubeObject): Labels => (obj.metadata.labels ?? {}) as Labels;

/** The Service as kube-apiserver creates it: selectorless, `https` 443 to the secure port. */
export function kubernetesService(clusterIP: string, endpoint: AdvertisedEndpoint): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: KUBERNETES_SERVICE, namespace: KUBERNETES_SERVICE_NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP, sessionAffinity: 'None', ports: servicePorts(endpoint) },
  };
}

function servicePorts(endpoint: AdvertisedEndpoint) {
  return [{ name: PORT_NAME, port: SERVICE_PORT, protocol: 'TCP', targetPort: endpoint.port }];
}

interface PortLike {
  name?: string;
  port?: number;
  protocol?: string;
  targetPort?: number | string;
}

/** Whether the Service still has kube-apiserver's type and ports (`checkServiceFormat`); other fields are the user's. */
export function serviceFormatCorrect(svc: KubeObject, endpoint: AdvertisedEndpoint): boolean {
  const spec = (svc.spec ?? {}) as { type?: string; ports?: PortLike[] };
  const want = servicePorts(endpoint);
  const ports = spec.ports ?? [];
  return (
    spec.type === 'ClusterIP' &&
    ports.length === want.length &&
    ports.every((p, i) => p.name === want[i]!.name && p.port === want[i]!.port && p.protocol === want[i]!.protocol && p.targetPort === want[i]!.targetPort)
  );
}

/** Puts kube-apiserver's type and ports back, keeping everything else. */
export function withServiceFormat(svc: KubeObject, endpoint: AdvertisedEndpoint): KubeObject {
  return { ...svc, spec: { ...(svc.spec as object), type: 'ClusterIP', ports: servicePorts(endpoint) } };
}

function endpointsSubsets(address: string, endpoint: AdvertisedEndpoint) {
  return [{ addresses: [{ ip: address }], ports: [{ name: PORT_NAME, port: endpoint.port, protocol: 'TCP' }] }];
}

/** The Endpoints: the advertised address and port; other labels a user added stay. */
export function kubernetesEndpoints(current: KubeObject | undefined, address: string, endpoint: AdvertisedEndpoint): KubeObject {
  const base: KubeObject = current ?? { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: KUBERNETES_SERVICE, namespace: KUBERNETES_SERVICE_NAMESPACE } };
  return { ...base, metadata: { ...base.metadata, labels: { ...labelsOf(base), [SKIP_MIRROR_LABEL]: 'true' } }, subsets: endpointsSubsets(address, endpoint) };
}

export function endpointsCorrect(current: KubeObject, address: string, endpoint: AdvertisedEndpoint): boolean {
  return labelsOf(current)[SKIP_MIRROR_LABEL] === 'true' && semanticEqual(current.subsets, endpointsSubsets(address, endpoint));
}

/** The EndpointSlice mirroring the Endpoints; its labels are exactly the service-name label, as upstream writes them. */
export function kubernetesEndpointSlice(address: string, endpoint: AdvertisedEndpoint): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: KUBERNETES_SERVICE, namespace: KUBERNETES_SERVICE_NAMESPACE, labels: { [SERVICE_NAME_LABEL]: KUBERNETES_SERVICE } },
    addressType: isIP(address) === 6 ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: [{ name: PORT_NAME, port: endpoint.port, protocol: 'TCP' }],
  };
}

/** Whether a slice matches the desired one in what upstream compares: endpoints, ports, labels (and the address type). */
export function endpointSliceCorrect(current: KubeObject, desired: KubeObject): boolean {
  return (
    current.addressType === desired.addressType &&
    semanticEqual(current.endpoints, desired.endpoints) &&
    semanticEqual(current.ports, desired.ports) &&
    semanticEqual(labelsOf(current), labelsOf(desired))
  );
}
