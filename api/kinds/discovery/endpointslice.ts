/**
 * discovery.k8s.io/v1 EndpointSlice: a slice of the endpoints behind a service. Kubernetes'
 * behaviour: `pkg/apis/discovery/v1/defaults.go`, `pkg/apis/discovery/validation`,
 * `pkg/registry/discovery/endpointslice`.
 */
import { isIP } from 'node:net';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { boolean, define, described, enumOf, integer, list, map, object, ref, string } from '../../schema/schema.js';
import { validateNonSpecialIP } from '../../validation/ip.js';
import { validateLabels, validateQualifiedName } from '../../validation/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { isRecord, validateImmutable } from '../apps/workload.js';

export interface Endpoint {
  addresses?: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  nodeName?: string;
  zone?: string;
  deprecatedTopology?: Record<string, string>;
  hints?: { forZones?: Array<{ name?: string }>; forNodes?: Array<{ name?: string }> };
  [field: string]: unknown;
}

export interface EndpointPort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType?: string;
  endpoints?: Endpoint[];
  ports?: EndpointPort[];
}

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_HINTS = 8;

const zoneHint = define('io.k8s.api.discovery.v1.ForZone', object('A zone that should consume an endpoint.', { name: string('Name of the zone.') }, { required: ['name'] }));
const nodeHint = define('io.k8s.api.discovery.v1.ForNode', object('A node that should consume an endpoint.', { name: string('Name of the node.') }, { required: ['name'] }));

const endpoint = define(
  'io.k8s.api.discovery.v1.Endpoint',
  object(
    'One backend of a service.',
    {
      addresses: list(string('An address, of the slice’s address type.'), 'Addresses of the endpoint: 1 to 100.', { listType: 'set' }),
      conditions: described(
        define(
          'io.k8s.api.discovery.v1.EndpointConditions',
          object('The current condition of an endpoint.', {
            ready: boolean('Whether the endpoint should receive traffic; unknown when unset.'),
            serving: boolean('Like ready, but also set while the endpoint terminates.'),
            terminating: boolean('Whether the endpoint is terminating.'),
          }),
        ),
        'The current condition of the endpoint.',
      ),
      hostname: string('Hostname of the endpoint (a DNS label).'),
      targetRef: described(ref('io.k8s.api.core.v1.ObjectReference'), 'The object behind the endpoint, usually a pod.'),
      deprecatedTopology: map(string('A topology value.'), 'Topology labels from the v1beta1 API; not writable in v1.'),
      nodeName: string('The node hosting the endpoint.'),
      zone: string('The zone the endpoint is in.'),
      hints: described(
        define(
          'io.k8s.api.discovery.v1.EndpointHints',
          object('How the endpoint should be consumed.', {
            forZones: list(zoneHint, 'Zones that should consume the endpoint, for topology-aware routing.', { listType: 'atomic' }),
            forNodes: list(nodeHint, 'Nodes that should consume the endpoint.', { listType: 'atomic' }),
          }),
        ),
        'Hints for consumers.',
      ),
    },
    { required: ['addresses'] },
  ),
);

const endpointPort = define(
  'io.k8s.api.discovery.v1.EndpointPort',
  object(
    'A port of the endpoints of a slice.',
    {
      name: string('Name of the port, unique in the slice; a DNS label or empty.'),
      protocol: enumOf('TCP (the default), UDP or SCTP.', PROTOCOLS),
      port: integer('Port number; every port when unset.'),
      appProtocol: string('Application protocol, in label-key syntax.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const endpointSliceSchema = define(
  'io.k8s.api.discovery.v1.EndpointSlice',
  object(
    'A subset of the endpoints that implement a service.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      addressType: enumOf('IPv4, IPv6 or FQDN: the type of every address in the slice. Immutable.', ADDRESS_TYPES),
      endpoints: list(endpoint, 'The endpoints, at most 1000.', { listType: 'atomic' }),
      ports: list(endpointPort, 'The ports every endpoint exposes.', { listType: 'atomic' }),
    },
    { required: ['addressType', 'endpoints'], 'x-kubernetes-group-version-kind': [{ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' }] },
  ),
);

export function defaultEndpointSlice(obj: EndpointSlice): void {
  for (const port of obj.ports ?? []) {
    if (!isRecord(port)) continue;
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

function invalidEach(field: string, value: string, messages: string[]): FieldError[] {
  return messages.map((msg) => fieldErrors.invalid(field, value, msg));
}

/** `IsFullyQualifiedDomainName`: a subdomain of at least two labels, optionally ending in a dot. */
function validateFQDN(address: string, field: string): FieldError[] {
  if (address === '') return [fieldErrors.required(field)];
  const name = address.endsWith('.') ? address.slice(0, -1) : address;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [fieldErrors.invalid(field, name, subdomain.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [fieldErrors.invalid(field, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const problems = isDNS1123Label(label);
    if (problems.length > 0) return [fieldErrors.invalid(field, label, problems.join(','))];
  }
  return [];
}

function validateAddress(address: string, type: string | undefined, field: string): FieldError[] {
  switch (type) {
    case 'IPv4':
      return isIP(address) === 4 ? validateNonSpecialIP(address, field) : [fieldErrors.invalid(field, address, 'must be a valid IPv4 address')];
    case 'IPv6':
      return isIP(address) === 6 ? validateNonSpecialIP(address, field) : [fieldErrors.invalid(field, address, 'must be a valid IPv6 address')];
    case 'FQDN':
      return validateFQDN(address, field);
    default:
      return [];
  }
}

function validateHints(hints: Endpoint['hints'], path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['forZones', 'forNodes'] as const) {
    const entries = hints?.[key] ?? [];
    if (entries.length > MAX_HINTS) errors.push(fieldErrors.invalid(`${path}.${key}`, entries.length, `must have at most ${MAX_HINTS} items`));
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const name = entry.name ?? '';
      if (seen.has(name)) errors.push(fieldErrors.duplicate(`${path}.${key}[${i}].name`, name));
      seen.add(name);
    });
  }
  return errors;
}

function validateEndpoints(obj: EndpointSlice): FieldError[] {
  const endpoints = obj.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) return [fieldErrors.invalid('endpoints', endpoints.length, `must have at most ${MAX_ENDPOINTS} items`)];
  return endpoints.flatMap((ep, i) => {
    const path = `endpoints[${i}]`;
    const addresses = ep.addresses ?? [];
    const errors: FieldError[] = [];
    if (addresses.length === 0) errors.push(fieldErrors.required(`${path}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errors.push(fieldErrors.invalid(`${path}.addresses`, addresses.length, `must have at most ${MAX_ADDRESSES} items`));
    addresses.forEach((address, j) => errors.push(...validateAddress(address, obj.addressType, `${path}.addresses[${j}]`)));
    if (ep.nodeName != null) errors.push(...invalidEach(`${path}.nodeName`, ep.nodeName, isDNS1123Subdomain(ep.nodeName)));
    const topology = ep.deprecatedTopology ?? {};
    if (Object.keys(topology).length > MAX_TOPOLOGY_LABELS) {
      errors.push(fieldErrors.invalid(`${path}.deprecatedTopology`, Object.keys(topology).length, `must have at most ${MAX_TOPOLOGY_LABELS} items`));
    }
    errors.push(...validateLabels(topology, `${path}.deprecatedTopology`));
    if (ep.zone != null) errors.push(...validateQualifiedName(ep.zone, `${path}.zone`));
    if (ep.hostname != null) errors.push(...invalidEach(`${path}.hostname`, ep.hostname, isDNS1123Label(ep.hostname)));
    if (ep.hints) errors.push(...validateHints(ep.hints, `${path}.hints`));
    return errors;
  });
}

function validatePorts(ports: EndpointPort[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [fieldErrors.invalid('ports', ports.length, `must have at most ${MAX_PORTS} items`)];
  const names = new Set<string>();
  return ports.flatMap((port, i) => {
    const path = `ports[${i}]`;
    const name = port.name ?? '';
    const errors = name === '' ? [] : invalidEach(`${path}.name`, name, isDNS1123Label(name));
    if (names.has(name)) errors.push(fieldErrors.duplicate(`${path}.name`, name));
    names.add(name);
    if (port.protocol == null) errors.push(fieldErrors.required(`${path}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol)) errors.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
    if (port.appProtocol != null) errors.push(...validateQualifiedName(port.appProtocol, `${path}.appProtocol`));
    return errors;
  });
}

export function validateEndpointSlice(obj: EndpointSlice): FieldError[] {
  const errors: FieldError[] = [];
  if (!obj.addressType) errors.push(fieldErrors.required('addressType'));
  else if (!ADDRESS_TYPES.includes(obj.addressType)) errors.push(fieldErrors.notSupported('addressType', obj.addressType, ADDRESS_TYPES));
  return [...errors, ...validateEndpoints(obj), ...validatePorts(obj.ports ?? [])];
}

/** The first three items joined, then a count of the rest; `<unset>` for none. */
function listWithMore(items: string[]): string {
  if (items.length === 0) return '<unset>';
  const shown = items.slice(0, 3).join(',');
  return items.length > 3 ? `${shown} + ${items.length - 3} more...` : shown;
}

export function formatSlicePorts(obj: EndpointSlice): string {
  return listWithMore((obj.ports ?? []).map((p) => (p.port != null ? String(p.port) : (p.name ?? '*'))));
}

export function formatSliceEndpoints(obj: EndpointSlice): string {
  return listWithMore((obj.endpoints ?? []).flatMap((ep) => ep.addresses ?? []));
}

export const endpointSlices = defineKind<EndpointSlice>({
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  scope: 'namespace',
  schema: endpointSliceSchema,
  tracksGeneration: true,
  defaults: defaultEndpointSlice,
  validate: validateEndpointSlice,
  validateUpdate: (obj, old) => validateImmutable(obj.addressType, old.addressType, 'addressType'),
  columns: [
    nameColumn,
    { name: 'AddressType', type: 'string', description: 'The type of the addresses in the slice.', priority: 0, cell: (obj) => obj.addressType ?? '' },
    { name: 'Ports', type: 'string', description: 'The ports of the endpoints.', priority: 0, cell: formatSlicePorts },
    { name: 'Endpoints', type: 'string', description: 'The addresses of the endpoints.', priority: 0, cell: formatSliceEndpoints },
    ageColumn,
  ],
});
