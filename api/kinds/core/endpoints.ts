/**
 * Endpoints (core/v1): the addresses and ports behind a service, grouped in subsets. Written by
 * the endpoints controller for services with a selector, by hand otherwise; a PUT may create them.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore } from '../../schema/core-types-ref.js';
import '../../schema/core-types.js';
import { defineKindSchema } from '../../schema/meta.js';
import { integer, list, object, string } from '../../schema/schema.js';
import { child, index } from '../../validation/field-path.js';
import { validateIP, validateNonSpecialIP } from '../../validation/ip.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { isValidPortNum } from '../../validation/ports.js';
import { PROTOCOLS } from './container-validation.js';
import { column } from './table-cells.js';
import type { EndpointAddress, EndpointPort, Endpoints } from './types.js';

/** The ENDPOINTS cell lists this many addresses, then counts the rest. */
const SHOWN_ENDPOINTS = 3;

defineCore(
  'EndpointAddress',
  object(
    'One address of an endpoint.',
    {
      hostname: string('Hostname of the endpoint.'),
      ip: string('IP of the endpoint; not loopback, link-local or unspecified.'),
      nodeName: string('Node hosting the endpoint.'),
      targetRef: coreField('ObjectReference', 'The object behind the endpoint, usually a pod.'),
    },
    { required: ['ip'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'EndpointPort',
  object(
    'One port of an endpoint.',
    {
      appProtocol: string('Application protocol hint: an IANA service name or a prefixed name.'),
      name: string('Name of the port, matching the service port’s; required when there are several.'),
      port: integer('Port number.'),
      protocol: { ...string('TCP, UDP or SCTP. Defaults to TCP.'), default: 'TCP' },
    },
    { required: ['port'], 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'EndpointSubset',
  object('Addresses that all serve the same ports.', {
    addresses: list(coreField('EndpointAddress', 'One address.'), 'Addresses ready to receive traffic.', { listType: 'atomic' }),
    notReadyAddresses: list(coreField('EndpointAddress', 'One address.'), 'Addresses not ready yet, or failing their readiness probes.', { listType: 'atomic' }),
    ports: list(coreField('EndpointPort', 'One port.'), 'Ports served on every address.', { listType: 'atomic' }),
  }),
);

const endpointsSchema = defineKindSchema(
  `${CORE_V1}Endpoints`,
  { group: '', version: 'v1', kind: 'Endpoints' },
  'The network endpoints behind a service.',
  {
    subsets: list(coreField('EndpointSubset', 'One subset.'), 'Groups of addresses with their ports.', { listType: 'atomic' }),
  },
);

function defaultEndpoints(ep: Endpoints): void {
  for (const subset of ep.subsets ?? []) for (const port of subset.ports ?? []) port.protocol ||= 'TCP';
}

function validateEndpointAddress(address: EndpointAddress, path: string): FieldError[] {
  const ipPath = child(path, 'ip');
  const ip = address.ip ?? '';
  const ipErrs = validateIP(ip, ipPath);
  const errs = ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, ipPath);
  if (address.hostname) errs.push(...isDNS1123Label(address.hostname).map((m) => fieldErrors.invalid(child(path, 'hostname'), address.hostname, m)));
  if (address.nodeName !== undefined) {
    errs.push(...isDNS1123Subdomain(address.nodeName).map((m) => fieldErrors.invalid(child(path, 'nodeName'), address.nodeName, m)));
  }
  return errs;
}

function validateEndpointPort(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !port.name) errs.push(fieldErrors.required(child(path, 'name')));
  else if (port.name) errs.push(...isDNS1123Label(port.name).map((m) => fieldErrors.invalid(child(path, 'name'), port.name, m)));
  errs.push(...isValidPortNum(port.port ?? 0).map((m) => fieldErrors.invalid(child(path, 'port'), port.port ?? 0, m)));
  if (!port.protocol) errs.push(fieldErrors.required(child(path, 'protocol')));
  else if (!PROTOCOLS.includes(port.protocol)) errs.push(fieldErrors.notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, child(path, 'appProtocol')));
  return errs;
}

export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((subset, i) => {
    const path = index('subsets', i);
    const ready = subset.addresses ?? [];
    const notReady = subset.notReadyAddresses ?? [];
    if (ready.length === 0 && notReady.length === 0) errs.push(fieldErrors.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(path, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(child(path, 'notReadyAddresses'), j))));
    const ports = subset.ports ?? [];
    ports.forEach((p, j) => errs.push(...validateEndpointPort(p, ports.length > 1, index(child(path, 'ports'), j))));
  });
  return errs;
}

/** `ip:port` with IPv6 addresses in brackets, as Go's JoinHostPort writes it. */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** The ENDPOINTS cell: the first three ready `ip:port` pairs and `+ N more...`, or `<none>`. */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const all: string[] = [];
  for (const subset of subsets) {
    const ips = (subset.addresses ?? []).map((a) => a.ip ?? '');
    const ports = subset.ports ?? [];
    // A headless service may have no ports: its endpoints are bare IPs.
    if (ports.length === 0) all.push(...ips);
    for (const port of ports) all.push(...ips.map((ip) => hostPort(ip, port.port ?? 0)));
  }
  if (all.length > SHOWN_ENDPOINTS) return `${all.slice(0, SHOWN_ENDPOINTS).join(',')} + ${all.length - SHOWN_ENDPOINTS} more...`;
  return all.length > 0 ? all.join(',') : '<none>';
}

const endpointsColumns: PrinterColumn<Endpoints>[] = [
  nameColumn as PrinterColumn<Endpoints>,
  column('Endpoints', 'string', 'Ready addresses with their ports (ip:port).', formatEndpoints),
  ageColumn as PrinterColumn<Endpoints>,
];

export const endpoints = defineKind<Endpoints>({
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  scope: 'namespace',
  shortNames: ['ep'],
  schema: endpointsSchema,
  allowCreateOnUpdate: true,
  defaults: defaultEndpoints,
  validate: validateEndpoints,
  columns: endpointsColumns,
});
