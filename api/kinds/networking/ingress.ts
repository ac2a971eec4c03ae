/**
 * networking.k8s.io/v1 Ingress: HTTP routing from hosts and paths to services. Kubernetes'
 * behaviour: `pkg/apis/networking/validation`, `pkg/registry/networking/ingress`.
 */
import { isIP } from 'node:net';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { define, described, enumOf, integer, list, object, ref, string } from '../../schema/schema.js';
import {
  byteLength,
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  maxLenError,
  regexError,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
} from '../../validation/names.js';
import { isValidPortName, isValidPortNum } from '../../validation/ports.js';

interface TypedReference {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

export interface IngressBackend {
  service?: { name?: string; port?: { name?: string; number?: number } };
  resource?: TypedReference;
}

export interface Ingress extends KubeObject {
  spec?: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    tls?: Array<{ hosts?: string[]; secretName?: string }>;
    rules?: Array<{ host?: string; http?: { paths?: Array<{ path?: string; pathType?: string; backend?: IngressBackend }> } }>;
  };
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

const serviceBackendPort = define(
  'io.k8s.api.networking.v1.ServiceBackendPort',
  object(
    'A service port, by name or by number.',
    {
      name: string('The port’s name in the service.'),
      number: integer('The port’s number.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

const backend = define(
  'io.k8s.api.networking.v1.IngressBackend',
  object('Where matching requests go: a service port, or another resource.', {
    service: described(
      define(
        'io.k8s.api.networking.v1.IngressServiceBackend',
        object(
          'A service and one of its ports.',
          {
            name: string('The service, in the ingress’s namespace.'),
            port: described(serviceBackendPort, 'The service port.'),
          },
          { required: ['name'] },
        ),
      ),
      'A service backend; excludes resource.',
    ),
    resource: described(ref('io.k8s.api.core.v1.TypedLocalObjectReference'), 'Another object of the ingress’s namespace; excludes service.'),
  }),
);

const httpPath = define(
  'io.k8s.api.networking.v1.HTTPIngressPath',
  object(
    'A path and the backend its requests go to.',
    {
      path: string('The path requests are matched against; absolute for Exact and Prefix.'),
      pathType: enumOf('How the path matches: Exact, Prefix or ImplementationSpecific.', PATH_TYPES),
      backend: described(backend, 'Where matching requests go.'),
    },
    { required: ['pathType', 'backend'] },
  ),
);

const rule = define(
  'io.k8s.api.networking.v1.IngressRule',
  object('Paths under one host and where they go.', {
    host: string('The host requests must name (a DNS name, a leading "*." allowed); every host when empty.'),
    http: described(
      define(
        'io.k8s.api.networking.v1.HTTPIngressRuleValue',
        object('HTTP paths and their backends.', { paths: list(httpPath, 'Paths and their backends.', { listType: 'atomic' }) }, { required: ['paths'] }),
      ),
      'HTTP routing for the host.',
    ),
  }),
);

const tls = define(
  'io.k8s.api.networking.v1.IngressTLS',
  object('TLS for some hosts.', {
    hosts: list(string('A host.'), 'Hosts the certificate covers.', { listType: 'atomic' }),
    secretName: string('The secret holding the certificate and key.'),
  }),
);

const portStatus = define(
  'io.k8s.api.networking.v1.IngressPortStatus',
  object(
    'The state of one load-balancer port.',
    {
      port: integer('The port number.'),
      protocol: string('TCP, UDP or SCTP.'),
      error: string('Why the port is not working, if it is not.'),
    },
    { required: ['port', 'protocol'] },
  ),
);

const loadBalancerIngress = define(
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress',
  object('One entry point of the load balancer.', {
    ip: string('IP address of the entry point.'),
    hostname: string('Hostname of the entry point.'),
    ports: list(portStatus, 'Ports of the entry point.', { listType: 'atomic' }),
  }),
);

const spec = define(
  'io.k8s.api.networking.v1.IngressSpec',
  object('The routing an ingress asks for.', {
    ingressClassName: string('The IngressClass whose controller implements this ingress.'),
    defaultBackend: described(backend, 'Where requests that match no rule go.'),
    tls: list(tls, 'TLS configuration, on port 443.', { listType: 'atomic' }),
    rules: list(rule, 'Host rules; requests that match none go to the default backend.', { listType: 'atomic' }),
  }),
);

const status = define(
  'io.k8s.api.networking.v1.IngressStatus',
  object('The observed state of an ingress.', {
    loadBalancer: described(
      define(
        'io.k8s.api.networking.v1.IngressLoadBalancerStatus',
        object('The load balancer’s entry points.', { ingress: list(loadBalancerIngress, 'The entry points.', { listType: 'atomic' }) }),
      ),
      'The state of the load balancer.',
    ),
  }),
);

export const ingressSchema = define(
  'io.k8s.api.networking.v1.Ingress',
  object(
    'Rules that route inbound HTTP traffic to services.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired routing.'),
      status: described(status, 'The current state of the ingress.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' }] },
  ),
);

const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/** apimachinery `IsWildcardDNS1123Subdomain`. */
function isWildcardSubdomain(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!WILDCARD_RE.test(value)) errors.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'));
  return errors;
}

/** A host name, possibly a wildcard (`*.example.com`). */
function hostErrors(host: string): string[] {
  return host.includes('*') ? isWildcardSubdomain(host) : isDNS1123Subdomain(host);
}

function invalidEach(field: string, value: unknown, messages: string[]): FieldError[] {
  return messages.map((msg) => fieldErrors.invalid(field, value, msg));
}

export function validateTypedReference(ref: TypedReference, path: string): FieldError[] {
  const errors = ref.apiGroup != null ? invalidEach(`${path}.apiGroup`, ref.apiGroup, isDNS1123Subdomain(ref.apiGroup)) : [];
  for (const key of ['kind', 'name'] as const) {
    const value = ref[key] ?? '';
    if (value === '') errors.push(fieldErrors.required(`${path}.${key}`, `${key} is required`));
    else errors.push(...invalidEach(`${path}.${key}`, value, isValidPathSegmentName(value)));
  }
  return errors;
}

export function validateBackend(b: IngressBackend, path: string): FieldError[] {
  if (b.resource && b.service) return [fieldErrors.invalid(path, '', 'cannot set both resource and service backends')];
  if (b.resource) return validateTypedReference(b.resource, `${path}.resource`);
  if (!b.service) return [fieldErrors.invalid(path, '', 'resource or service backend is required')];
  const name = b.service.name ?? '';
  const errors = name === '' ? [fieldErrors.required(`${path}.service.name`)] : invalidEach(`${path}.service.name`, name, isDNS1035Label(name));
  const portName = b.service.port?.name ?? '';
  const portNumber = b.service.port?.number ?? 0;
  if (portName && portNumber) errors.push(fieldErrors.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) errors.push(...invalidEach(`${path}.service.port.name`, portName, isValidPortName(portName)));
  else if (portNumber) errors.push(...invalidEach(`${path}.service.port.number`, portNumber, isValidPortNum(portNumber)));
  else errors.push(fieldErrors.required(path, 'port name or number is required'));
  return errors;
}

function validatePath(p: { path?: string; pathType?: string; backend?: IngressBackend }, field: string): FieldError[] {
  if (p.pathType == null) return [fieldErrors.required(`${field}.pathType`, 'pathType must be specified')];
  const path = p.path ?? '';
  const errors: FieldError[] = [];
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!path.startsWith('/')) errors.push(fieldErrors.invalid(`${field}.path`, path, 'must be an absolute path'));
    for (const seq of INVALID_PATH_SEQUENCES) if (path.includes(seq)) errors.push(fieldErrors.invalid(`${field}.path`, path, `must not contain '${seq}'`));
    for (const suffix of INVALID_PATH_SUFFIXES) if (path.endsWith(suffix)) errors.push(fieldErrors.invalid(`${field}.path`, path, `cannot end with '${suffix}'`));
  } else if (p.pathType === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/')) errors.push(fieldErrors.invalid(`${field}.path`, path, 'must be an absolute path'));
  } else {
    errors.push(fieldErrors.notSupported(`${field}.pathType`, p.pathType, PATH_TYPES));
  }
  return [...errors, ...validateBackend(p.backend ?? {}, `${field}.backend`)];
}

export function validateIngress(obj: Ingress): FieldError[] {
  const s = obj.spec ?? {};
  const rules = s.rules ?? [];
  const errors: FieldError[] = [];
  if (rules.length === 0 && !s.defaultBackend) errors.push(fieldErrors.invalid('spec', s.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (s.defaultBackend) errors.push(...validateBackend(s.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((r, i) => {
    const host = r.host ?? '';
    if (host !== '') {
      if (isIP(host) !== 0) errors.push(fieldErrors.invalid(`spec.rules[${i}].host`, host, 'must be a DNS name, not an IP address'));
      errors.push(...invalidEach(`spec.rules[${i}].host`, host, hostErrors(host)));
    }
    if (r.http) {
      const paths = r.http.paths ?? [];
      if (paths.length === 0) errors.push(fieldErrors.required(`spec.rules[${i}].http.paths`));
      paths.forEach((p, j) => errors.push(...validatePath(p, `spec.rules[${i}].http.paths[${j}]`)));
    }
  });
  (s.tls ?? []).forEach((t, i) => {
    (t.hosts ?? []).forEach((host, j) => errors.push(...invalidEach(`spec.tls[${i}].hosts[${j}]`, host, hostErrors(host))));
    if (t.secretName) errors.push(...invalidEach(`spec.tls[${i}].secretName`, t.secretName, isDNS1123Subdomain(t.secretName)));
  });
  if (s.ingressClassName != null) errors.push(...invalidEach('spec.ingressClassName', s.ingressClassName, isDNS1123Subdomain(s.ingressClassName)));
  return errors;
}

/** The HOSTS column: the first three hosts of the rules, `*` when no rule names one. */
export function formatHosts(obj: Ingress): string {
  const rules = obj.spec?.rules ?? [];
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    // Once three hosts are listed, any further rule only counts as "more".
    if (hosts.length === 3) more = true;
    if (!more && r.host) hosts.push(r.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

/** The ADDRESS column: load-balancer IPs (or hostnames), sorted and distinct. */
export function formatAddress(obj: Ingress): string {
  const entries = (obj.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '');
  return [...new Set(entries)].sort().join(',');
}

export const ingresses = defineKind<Ingress>({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  resource: 'ingresses',
  scope: 'namespace',
  shortNames: ['ing'],
  schema: ingressSchema,
  status: true,
  tracksGeneration: true,
  prepareForCreate: (obj) => {
    obj.status = { loadBalancer: {} };
  },
  validate: validateIngress,
  columns: [
    nameColumn,
    { name: 'Class', type: 'string', description: 'The IngressClass that implements the ingress.', priority: 0, cell: (obj) => obj.spec?.ingressClassName ?? '<none>' },
    { name: 'Hosts', type: 'string', description: 'Hosts the rules match.', priority: 0, cell: formatHosts },
    { name: 'Address', type: 'string', description: 'Entry points of the load balancer.', priority: 0, cell: formatAddress },
    { name: 'Ports', type: 'string', description: 'Ports the ingress serves.', priority: 0, cell: (obj) => ((obj.spec?.tls ?? []).length > 0 ? '80, 443' : '80') },
    ageColumn,
  ],
});
