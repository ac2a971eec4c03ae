/**
 * apiregistration.k8s.io/v1 APIService, above every space (cluster scope): a group version served
 * either by this server itself (local: no `spec.service`) or by an aggregated API server behind a
 * Service. Requests are not proxied to aggregated servers yet; the objects are stored so client
 * libraries and charts that register APIServices work, and `kubectl get apiservices` lists the
 * local ones as on a real cluster (see `local-apiservices.ts`). Spaces read the local ones only
 * (`src/server/handlers/above-spaces.ts`). Kubernetes' behaviour: kube-aggregator's
 * `pkg/apis/apiregistration/validation` and `pkg/registry/apiservice`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { nowTimestamp } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { defineKindSchema, timeField } from '../../schema/meta.js';
import { boolean, bytes, define, described, integer, list, object, string } from '../../schema/schema.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/names.js';
import { isValidPortNum } from '../../validation/ports.js';
import { column } from '../core/table-cells.js';

const PACKAGE = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';

export interface APIServiceCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIService extends KubeObject {
  spec?: {
    service?: { namespace?: string; name?: string; port?: number } | null;
    group?: string;
    version?: string;
    insecureSkipTLSVerify?: boolean;
    caBundle?: string;
    groupPriorityMinimum?: number;
    versionPriority?: number;
  };
  status?: { conditions?: APIServiceCondition[] };
}

const serviceReference = define(
  `${PACKAGE}ServiceReference`,
  object('The Service in front of an aggregated API server.', {
    namespace: string('Namespace of the service.'),
    name: string('Name of the service.'),
    port: integer('Port of the service that hosts the API. Defaults to 443.'),
  }),
);

const spec = define(
  `${PACKAGE}APIServiceSpec`,
  object('Where a group version is served and how it ranks in discovery.', {
    service: described(serviceReference, 'The Service of the aggregated server; absent for a group version this server serves itself.'),
    group: string('The API group name.'),
    version: string('The API version.'),
    insecureSkipTLSVerify: boolean('Skip TLS verification of the aggregated server. Strongly discouraged.'),
    caBundle: bytes("PEM CA bundle that validates the aggregated server's serving certificate."),
    groupPriorityMinimum: integer('Least priority of the group in discovery; the highest of its APIServices orders the group.'),
    versionPriority: integer('Order of this version within its group.'),
  }),
);

const condition = define(
  `${PACKAGE}APIServiceCondition`,
  object('One observed condition of an APIService.', {
    type: string('Type of the condition, e.g. Available.'),
    status: string('True, False or Unknown.'),
    lastTransitionTime: timeField('Last time the status changed.'),
    reason: string('Machine-readable reason of the last transition.'),
    message: string('Human-readable details of the last transition.'),
  }),
);

const status = define(
  `${PACKAGE}APIServiceStatus`,
  object('The observed state of an APIService.', {
    conditions: list(described(condition, 'One condition.'), 'Current service state.', { mergeKey: 'type', strategy: 'merge' }),
  }),
);

const apiServiceSchema = defineKindSchema(
  `${PACKAGE}APIService`,
  { group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService' },
  'A server for one API group version.',
  {
    spec: described(spec, 'Where the group version is served.'),
    status: described(status, 'The observed state of the APIService.'),
  },
);

const isLocal = (obj: APIService): boolean => !obj.spec?.service;

/** The condition every local APIService has: this server always serves its own groups. */
export function localAvailable(since = nowTimestamp()): APIServiceCondition {
  return { type: 'Available', status: 'True', lastTransitionTime: since, reason: 'Local', message: 'Local APIServices are always available' };
}

function validateAPIService(obj: APIService): FieldError[] {
  const s = obj.spec ?? {};
  const errs: FieldError[] = [];
  const required = `${s.version ?? ''}.${s.group ?? ''}`;
  if (obj.metadata.name !== undefined && obj.metadata.name !== required) {
    errs.push(fieldErrors.invalid('metadata.name', obj.metadata.name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`));
  }
  if (!s.group && s.version !== 'v1') errs.push(fieldErrors.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (s.group) errs.push(...isDNS1123Subdomain(s.group).map((m) => fieldErrors.invalid('spec.group', s.group, m)));
  errs.push(...isDNS1035Label(s.version ?? '').map((m) => fieldErrors.invalid('spec.version', s.version ?? '', m)));
  const groupPriority = s.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(fieldErrors.invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  const versionPriority = s.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(fieldErrors.invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  const caBytes = s.caBundle ? Buffer.from(s.caBundle, 'base64').length : 0;
  if (!s.service) {
    if (caBytes > 0) errs.push(fieldErrors.invalid('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (s.insecureSkipTLSVerify) errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (!s.service.namespace) errs.push(fieldErrors.required('spec.service.namespace'));
  if (!s.service.name) errs.push(fieldErrors.required('spec.service.name'));
  const port = s.service.port ?? 443;
  errs.push(...isValidPortNum(port).map((m) => fieldErrors.invalid('spec.service.port', port, m)));
  if (s.insecureSkipTLSVerify && caBytes > 0) errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** `True`, `False (Reason)` or `Unknown`, as kube-aggregator's table shows availability. */
function availability(obj: APIService): string {
  const available = (obj.status?.conditions ?? []).find((c) => c.type === 'Available');
  if (!available) return 'Unknown';
  if (available.status === 'True' || !available.reason) return available.status ?? '';
  return `${available.status} (${available.reason})`;
}

const columns: PrinterColumn<APIService>[] = [
  nameColumn as PrinterColumn<APIService>,
  column('Service', 'string', 'The reference to the service that hosts this API endpoint.', (a) => (a.spec?.service ? `${a.spec.service.namespace ?? ''}/${a.spec.service.name ?? ''}` : 'Local')),
  column('Available', 'string', 'Whether this service is available.', availability),
  ageColumn as PrinterColumn<APIService>,
];

export const apiServices = defineKind<APIService>({
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  resource: 'apiservices',
  scope: 'cluster',
  readableFromSpaces: true,
  categories: ['api-extensions'],
  schema: apiServiceSchema,
  nameRule: 'path-segment',
  status: true,
  defaults: (obj) => {
    if (obj.spec?.service && obj.spec.service.port === undefined) obj.spec.service.port = 443;
  },
  // Local group versions are always available; an aggregated one's availability is its controller's to report.
  prepareForCreate: (obj) => {
    obj.status = isLocal(obj) ? { conditions: [localAvailable()] } : {};
  },
  validate: validateAPIService,
  columns,
});
