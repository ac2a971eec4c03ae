import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../registry/object.js';
import { ResourceRegistry } from '../registry/registry.js';
import { checkObject } from '../schema/check-object.js';
import '../schema/core-types.js'; import '../schema/meta.js'; import { definitions, refName, resolve, type Schema } from '../schema/schema.js';
import { create } from './apps/testing.js';
import { opensslCertificateRequest } from './certificates/testing.js';
import { groupKinds } from './groups.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] } };
const selector = { matchLabels: { app: 'web' } };

/** A small valid object of every kind, as a user would write it. */
const samples: Record<string, KubeObject> = {
  deployments: { metadata: { name: 'web' }, spec: { selector, template } },
  replicasets: { metadata: { name: 'web-5d4f8' }, spec: { selector, template } },
  statefulsets: {
    metadata: { name: 'db' },
    spec: { serviceName: 'db', selector, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] },
  },
  daemonsets: { metadata: { name: 'agent' }, spec: { selector, template } },
  controllerrevisions: { metadata: { name: 'db-7c9f' }, data: { spec: {} }, revision: 1 },
  jobs: { metadata: { name: 'pi' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } } } },
  cronjobs: {
    metadata: { name: 'hello' },
    spec: { schedule: '0 * * * *', timeZone: 'Etc/UTC', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  },
  certificatesigningrequests: {
    metadata: { name: 'alice' },
    spec: { request: Buffer.from(opensslCertificateRequest('/CN=alice/O=dev').csr).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400 },
  },
  horizontalpodautoscalers: { metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, behavior: { scaleUp: {} } } },
  leases: { metadata: { name: 'node-1' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2024-05-01T10:00:00.000000Z' } },
  endpointslices: { metadata: { name: 'web-x1' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.5'], conditions: { ready: true }, targetRef: { kind: 'Pod', name: 'web-1' } }], ports: [{ name: 'http', port: 80 }] },
  events: {
    metadata: { name: 'web.1', namespace: 'default' },
    eventTime: '2024-05-01T10:00:00.000000Z',
    reportingController: 'kubernetes.io/kubelet',
    reportingInstance: 'node-1',
    action: 'Started',
    reason: 'Started',
    regarding: { kind: 'Pod', namespace: 'default', name: 'web-1' },
    note: 'Started container web',
    type: 'Normal',
  },
  networkpolicies: { metadata: { name: 'deny' }, spec: { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }], ports: [{ port: 80 }] }] } },
  ingresses: { metadata: { name: 'web' }, spec: { rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } },
  ingressclasses: { metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'ConfigMap', name: 'nginx' } } },
  poddisruptionbudgets: { metadata: { name: 'web' }, spec: { minAvailable: '50%', selector } },
  roles: { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  rolebindings: { metadata: { name: 'read' }, roleRef: { kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', name: 'jane' }] },
  clusterroles: { metadata: { name: 'view-all' }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
  clusterrolebindings: { metadata: { name: 'view-all' }, roleRef: { kind: 'ClusterRole', name: 'view-all' }, subjects: [{ kind: 'Group', name: 'devs' }] },
  storageclasses: { metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com', parameters: { type: 'gp3' }, allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a'] }] }] },
  priorityclasses: { metadata: { name: 'high' }, value: 1000, description: 'important' },
  validatingadmissionpolicies: {
    metadata: { name: 'replica-limit' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max" }],
    },
  },
  mutatingadmissionpolicies: {
    metadata: { name: 'team-label' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'team': 'shop'}}}" } }],
    },
  },
  mutatingadmissionpolicybindings: { metadata: { name: 'team-label' }, spec: { policyName: 'team-label' } },
  validatingadmissionpolicybindings: {
    metadata: { name: 'replica-limit' },
    spec: { policyName: 'replica-limit', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] },
  },
  apiservices: { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server' }, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true } },
  validatingwebhookconfigurations: {
    metadata: { name: 'deny' },
    webhooks: [{ name: 'deny.example.com', clientConfig: { url: 'https://127.0.0.1:8443/validate' }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  },
  mutatingwebhookconfigurations: {
    metadata: { name: 'label' },
    webhooks: [{ name: 'label.example.com', clientConfig: { service: { namespace: 'hooks', name: 'webhook' } }, sideEffects: 'NoneOnDryRun', admissionReviewVersions: ['v1'], matchConditions: [{ name: 'c', expression: 'object != null' }] }],
  },
  customresourcedefinitions: {
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string', pattern: '^\\d+$' }, replicas: { type: 'integer', minimum: 1 } } } } } },
          additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }],
        },
      ],
    },
  },
  flowschemas: {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name: 'tenants' },
    spec: {
      priorityLevelConfiguration: { name: 'tenants' },
      matchingPrecedence: 1000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'], namespaces: ['*'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api/*'] }] }],
    },
  },
  prioritylevelconfigurations: {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'tenants' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 20, lendablePercent: 50, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } },
  },
};

/** Every component name a schema refers to, directly or through other components. */
function referencedNames(root: Schema): Set<string> {
  const seen = new Set<string>();
  const visit = (s: Schema | undefined): void => {
    if (!s) return;
    const name = refName(s);
    if (name !== undefined) {
      if (seen.has(name)) return;
      seen.add(name);
      visit(definitions.get(name));
      return;
    }
    Object.values(s.properties ?? {}).forEach(visit);
    visit(s.items);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    [...(s.allOf ?? []), ...(s.anyOf ?? [])].forEach(visit);
  };
  visit(root);
  return seen;
}

describe('groupKinds', () => {
  it('registers every non-core kind once', () => {
    expect(() => new ResourceRegistry(groupKinds)).not.toThrow();
    expect(groupKinds.map((d) => `${d.apiVersion}/${d.resource}`)).toEqual([
      'apiregistration.k8s.io/v1/apiservices',
      'apps/v1/deployments',
      'apps/v1/replicasets',
      'apps/v1/statefulsets',
      'apps/v1/daemonsets',
      'apps/v1/controllerrevisions',
      'events.k8s.io/v1/events',
      'autoscaling/v2/horizontalpodautoscalers',
      'batch/v1/jobs',
      'batch/v1/cronjobs',
      'certificates.k8s.io/v1/certificatesigningrequests',
      'networking.k8s.io/v1/networkpolicies',
      'networking.k8s.io/v1/ingresses',
      'networking.k8s.io/v1/ingressclasses',
      'policy/v1/poddisruptionbudgets',
      'rbac.authorization.k8s.io/v1/roles',
      'rbac.authorization.k8s.io/v1/rolebindings',
      'rbac.authorization.k8s.io/v1/clusterroles',
      'rbac.authorization.k8s.io/v1/clusterrolebindings',
      'storage.k8s.io/v1/storageclasses',
      'admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
      'admissionregistration.k8s.io/v1/validatingadmissionpolicies',
      'admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
      'admissionregistration.k8s.io/v1/mutatingadmissionpolicies',
      'admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings',
      'admissionregistration.k8s.io/v1beta1/mutatingadmissionpolicies',
      'admissionregistration.k8s.io/v1beta1/mutatingadmissionpolicybindings',
      'admissionregistration.k8s.io/v1alpha1/mutatingadmissionpolicies',
      'admissionregistration.k8s.io/v1alpha1/mutatingadmissionpolicybindings',
      'apiextensions.k8s.io/v1/customresourcedefinitions',
      'scheduling.k8s.io/v1/priorityclasses',
      'coordination.k8s.io/v1/leases',
      'discovery.k8s.io/v1/endpointslices',
      'flowcontrol.apiserver.k8s.io/v1/flowschemas',
      'flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations',
    ]);
  });

  it('puts what Kubernetes calls cluster-scoped in the space, and the workloads in category all', () => {
    const names = (pick: (d: (typeof groupKinds)[number]) => boolean): string[] => groupKinds.filter(pick).map((d) => d.resource);
    expect(names((d) => d.scope === 'space')).toEqual([
      'certificatesigningrequests',
      'ingressclasses',
      'clusterroles',
      'clusterrolebindings',
      'storageclasses',
      'validatingwebhookconfigurations',
      'mutatingwebhookconfigurations',
      'validatingadmissionpolicies',
      'validatingadmissionpolicybindings',
      'mutatingadmissionpolicies',
      'mutatingadmissionpolicybindings',
      'mutatingadmissionpolicies',
      'mutatingadmissionpolicybindings',
      'mutatingadmissionpolicies',
      'mutatingadmissionpolicybindings',
      'customresourcedefinitions',
      'priorityclasses',
    ]);
    expect(names((d) => d.categories.includes('all'))).toEqual(['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'horizontalpodautoscalers', 'jobs', 'cronjobs']);
    expect(names((d) => d.scale !== undefined)).toEqual(['deployments', 'replicasets', 'statefulsets']);
  });

  it('gives every kind a named schema tagged with its group, version and kind', () => {
    for (const def of groupKinds) {
      const schema = resolve(def.schema);
      expect(schema?.['x-kubernetes-group-version-kind'], def.resource).toEqual([{ group: def.group, version: def.version, kind: def.kind }]);
    }
    expect(resolve({ $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale' })?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'autoscaling', version: 'v1', kind: 'Scale' }]);
  });

  it('refers only to schemas that exist', () => {
    for (const def of groupKinds) {
      const missing = [...referencedNames(def.schema)].filter((name) => !definitions.has(name));
      expect(missing, def.resource).toEqual([]);
    }
  });

  it.each(groupKinds.map((def) => [def.resource, def] as const))('accepts a typical %s, defaulted, with no field its schema lacks', async (resource, def) => {
    const { object, errors } = await create(def, samples[resource]!);
    expect(errors).toEqual([]);
    const check = checkObject(object, def.schema);
    expect(check.typeError).toBeUndefined();
    expect(check.unknownFields).toEqual([]);
    expect(def.columns.map((c) => typeof c.cell(object, Date.now()))).not.toContain('undefined');
  });
});
