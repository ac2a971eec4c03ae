/**
 * Small manifests of the kinds the kubectl tests use, as a user would write them (no server-set
 * fields), plus the YAML stream `kubectl create -f -` reads.
 *
 * @example
 *   await kubectl.run(['create', '-f', '-'], { stdin: toYamlStream([configMap('ns1', 'cm1', { a: '1' })]) });
 */
import { stringify } from 'yaml';

export type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown }; [key: string]: unknown };

function meta(namespace: string | undefined, name: string, labels?: Record<string, string>): Manifest['metadata'] {
  return { name, ...(namespace !== undefined ? { namespace } : {}), ...(labels ? { labels } : {}) };
}

export function namespace(name: string, labels?: Record<string, string>): Manifest {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: meta(undefined, name, labels) };
}

export function configMap(ns: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): Manifest {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(ns, name, labels), data };
}

/** A namespaced CRD of one version `v1` whose objects may hold any fields, e.g. `customResourceDefinition('example.com', 'Widget', 'widgets')`. */
export function customResourceDefinition(group: string, kind: string, plural: string, labels?: Record<string, string>): Manifest {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: meta(undefined, `${plural}.${group}`, labels),
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

export function secret(ns: string, name: string, stringData: Record<string, string>, labels?: Record<string, string>): Manifest {
  return { apiVersion: 'v1', kind: 'Secret', metadata: meta(ns, name, labels), type: 'Opaque', stringData };
}

export function pod(ns: string, name: string, labels: Record<string, string> = { app: name }, image = 'nginx:1.27'): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(ns, name, labels),
    spec: { containers: [{ name: 'main', image, ports: [{ containerPort: 80 }] }] },
  };
}

export function deployment(ns: string, name: string, replicas = 2, image = 'nginx:1.27'): Manifest {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(ns, name, labels),
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'main', image }] } },
    },
  };
}

export function service(ns: string, name: string, selector: Record<string, string> = { app: name }): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(ns, name, { app: name }),
    spec: { selector, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
  };
}

/** A multi-document YAML stream, as `kubectl create -f -` reads it. */
export function toYamlStream(manifests: Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}

/** The collection path of a manifest's kind in its namespace, for setting up fixtures over HTTPS. */
export function collectionPath(m: Manifest): string {
  const plural: Record<string, string> = {
    Namespace: 'namespaces',
    ConfigMap: 'configmaps',
    Secret: 'secrets',
    Pod: 'pods',
    Service: 'services',
    Deployment: 'deployments',
    ReplicaSet: 'replicasets',
    ReplicationController: 'replicationcontrollers',
    PodDisruptionBudget: 'poddisruptionbudgets',
    Role: 'roles',
    RoleBinding: 'rolebindings',
    ClusterRole: 'clusterroles',
    ClusterRoleBinding: 'clusterrolebindings',
  };
  const resource = plural[m.kind];
  if (!resource) throw new Error(`no path known for kind ${m.kind}`);
  const base = m.apiVersion === 'v1' ? '/api/v1' : `/apis/${m.apiVersion}`;
  return m.metadata.namespace !== undefined ? `${base}/namespaces/${m.metadata.namespace}/${resource}` : `${base}/${resource}`;
}
