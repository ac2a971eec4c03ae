/**
 * Where a webhook's service reference answers, within the configuration's own space. A Service's
 * cluster IP routes nowhere here (no kube-proxy), so the reference is resolved as kube-apiserver
 * does with `--enable-aggregator-routing`: through the Service's Endpoints, to the first ready
 * address and the port the service port leads to. The TLS certificate must still be for
 * `<service>.<namespace>.svc`, the name kube-apiserver would dial.
 *
 * @example
 *   const resolve = serviceResolver({ service: (t, ns, n) => …, endpoints: (t, ns, n) => … });
 *   await resolve('t1', { namespace: 'hooks', name: 'webhook', port: 443 }); // { host: '10.0.0.7', port: 8443 }
 */
import type { KubeObject } from '../../registry/object.js';
import type { ServiceReference } from '../../kinds/admissionregistration/webhook-types.js';

interface ServicePort {
  name?: string;
  port?: number;
  targetPort?: number | string;
}

interface EndpointSubset {
  addresses?: Array<{ ip?: string }>;
  ports?: Array<{ name?: string; port?: number }>;
}

export interface ServiceLookups {
  service(tenant: string, namespace: string, name: string): Promise<KubeObject | undefined>;
  endpoints(tenant: string, namespace: string, name: string): Promise<KubeObject | undefined>;
}

export function serviceResolver(lookups: ServiceLookups) {
  return async (tenant: string, ref: ServiceReference): Promise<{ host: string; port: number } | { error: string }> => {
    const namespace = ref.namespace ?? '';
    const name = ref.name ?? '';
    const wanted = ref.port ?? 443;
    // Go's words when the name kube-apiserver would dial does not resolve.
    const noHost = { error: `dial tcp: lookup ${name}.${namespace}.svc: no such host` };
    const service = await lookups.service(tenant, namespace, name);
    if (!service) return noHost;
    const ports = ((service['spec'] as { ports?: ServicePort[] } | undefined)?.ports ?? []) as ServicePort[];
    const servicePort = ports.find((p) => p.port === wanted);
    if (!servicePort) return { error: `dial tcp: service ${namespace}/${name} has no port ${wanted}` };
    const endpoints = await lookups.endpoints(tenant, namespace, name);
    for (const subset of ((endpoints?.['subsets'] as EndpointSubset[] | undefined) ?? [])) {
      const address = subset.addresses?.find((a) => a.ip)?.ip;
      if (!address) continue;
      const port = (subset.ports ?? []).find((p) => (p.name ?? '') === (servicePort.name ?? '')) ?? (subset.ports?.length === 1 ? subset.ports[0] : undefined);
      if (port?.port) return { host: address, port: port.port };
    }
    return { error: `dial tcp ${name}.${namespace}.svc:${wanted}: connect: connection refused (service ${namespace}/${name} has no ready endpoints)` };
  };
}
