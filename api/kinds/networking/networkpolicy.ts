/**
 * networking.k8s.io/v1 NetworkPolicy: which traffic may reach, and leave, a set of pods.
 * Kubernetes' behaviour: `pkg/apis/networking/v1/defaults.go`, `pkg/apis/networking/validation`.
 */
import { BlockList, isIP } from 'node:net';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { define, described, enumOf, integer, intOrString, list, object, ref, string } from '../../schema/schema.js';
import { validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { isValidPortName, isValidPortNum } from '../../validation/ports.js';
import { formatLabelSelector, isRecord } from '../apps/workload.js';

export interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr?: string; except?: string[] };
}

export interface NetworkPolicy extends KubeObject {
  spec?: {
    podSelector?: LabelSelector;
    ingress?: Array<{ ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }>;
    egress?: Array<{ ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }>;
    policyTypes?: string[];
  };
}

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

const port = define(
  'io.k8s.api.networking.v1.NetworkPolicyPort',
  object('A port traffic may use.', {
    protocol: enumOf('TCP (the default), UDP or SCTP.', PROTOCOLS),
    port: intOrString('A port number or a named port of the pods; every port when unset.'),
    endPort: integer('With a numeric port, the last port of the range port..endPort.'),
  }),
);

const ipBlock = define(
  'io.k8s.api.networking.v1.IPBlock',
  object(
    'A range of IP addresses, minus some sub-ranges.',
    {
      cidr: string('The range, e.g. "192.168.1.0/24" or "2001:db8::/64".'),
      except: list(string('A CIDR inside cidr.'), 'Sub-ranges excluded from cidr.', { listType: 'atomic' }),
    },
    { required: ['cidr'] },
  ),
);

const peer = define(
  'io.k8s.api.networking.v1.NetworkPolicyPeer',
  object('A source or destination of traffic: pods, namespaces, or an IP block.', {
    podSelector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Pods, in the policy’s namespace or in the namespaces selected.'),
    namespaceSelector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Namespaces whose pods (all, or those podSelector picks) are selected.'),
    ipBlock: described(ipBlock, 'An IP range; excludes the other two fields.'),
  }),
);

const ingressRule = define(
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule',
  object('Traffic allowed to the selected pods: it must match a port and a source.', {
    ports: list(port, 'Ports allowed; all when empty.', { listType: 'atomic' }),
    from: list(peer, 'Sources allowed; all when empty.', { listType: 'atomic' }),
  }),
);

const egressRule = define(
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule',
  object('Traffic allowed out of the selected pods: it must match a port and a destination.', {
    ports: list(port, 'Ports allowed; all when empty.', { listType: 'atomic' }),
    to: list(peer, 'Destinations allowed; all when empty.', { listType: 'atomic' }),
  }),
);

const spec = define(
  'io.k8s.api.networking.v1.NetworkPolicySpec',
  object('Which pods the policy isolates and what traffic it allows.', {
    podSelector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'The pods the policy applies to; empty selects every pod of the namespace.'),
    ingress: list(ingressRule, 'Incoming traffic allowed; none when empty.', { listType: 'atomic' }),
    egress: list(egressRule, 'Outgoing traffic allowed; none when empty.', { listType: 'atomic' }),
    policyTypes: list(enumOf('Ingress or Egress.', POLICY_TYPES), 'The directions the policy governs. Defaults to Ingress, plus Egress when egress rules are given.', {
      listType: 'atomic',
    }),
  }),
);

export const networkPolicySchema = define(
  'io.k8s.api.networking.v1.NetworkPolicy',
  object(
    'What network traffic is allowed for a set of pods.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the policy.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy' }] },
  ),
);

export function defaultNetworkPolicy(obj: NetworkPolicy): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  for (const rule of [...(s.ingress ?? []), ...(s.egress ?? [])]) {
    for (const p of rule.ports ?? []) {
      if (isRecord(p)) p.protocol ??= 'TCP';
    }
  }
  // Every policy governs ingress; one with egress rules governs egress too.
  if (!s.policyTypes || s.policyTypes.length === 0) s.policyTypes = (s.egress ?? []).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

function validatePort(p: NetworkPolicyPort, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (p.protocol != null && !PROTOCOLS.includes(p.protocol)) errors.push(fieldErrors.notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  if (typeof p.port === 'number') {
    errors.push(...isValidPortNum(p.port).map((msg) => fieldErrors.invalid(`${path}.port`, p.port, msg)));
    if (p.endPort != null) {
      if (p.endPort < p.port) errors.push(fieldErrors.invalid(`${path}.endPort`, p.port, 'must be greater than or equal to `port`'));
      errors.push(...isValidPortNum(p.endPort).map((msg) => fieldErrors.invalid(`${path}.endPort`, p.endPort, msg)));
    }
  } else if (typeof p.port === 'string') {
    if (p.endPort != null) errors.push(fieldErrors.invalid(`${path}.endPort`, p.endPort, 'may not be specified when `port` is non-numeric'));
    errors.push(...isValidPortName(p.port).map((msg) => fieldErrors.invalid(`${path}.port`, p.port, msg)));
  } else if (p.endPort != null) {
    errors.push(fieldErrors.invalid(`${path}.endPort`, p.endPort, 'may not be specified when `port` is not specified'));
  }
  return errors;
}

interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText = '', ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || !/^\d+$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' } : undefined;
}

const CIDR_MESSAGE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function validateIPBlock(block: NonNullable<NetworkPolicyPeer['ipBlock']>, path: string): FieldError[] {
  if (!block.cidr) return [fieldErrors.required(`${path}.cidr`)];
  const outer = parseCidr(block.cidr);
  if (!outer) return [fieldErrors.invalid(`${path}.cidr`, block.cidr, CIDR_MESSAGE)];
  const range = new BlockList();
  range.addSubnet(outer.address, outer.prefix, outer.family);
  return (block.except ?? []).flatMap((text, i) => {
    const field = `${path}.except[${i}]`;
    const inner = parseCidr(text);
    if (!inner) return [fieldErrors.invalid(field, text, CIDR_MESSAGE)];
    const inside = inner.family === outer.family && range.check(inner.address, inner.family) && outer.prefix < inner.prefix;
    return inside ? [] : [fieldErrors.invalid(field, text, 'must be a strict subset of `cidr`')];
  });
}

function validatePeer(p: NetworkPolicyPeer, path: string): FieldError[] {
  const errors = [...validateLabelSelector(p.podSelector, `${path}.podSelector`), ...validateLabelSelector(p.namespaceSelector, `${path}.namespaceSelector`)];
  if (p.ipBlock) errors.push(...validateIPBlock(p.ipBlock, `${path}.ipBlock`));
  const peers = [p.podSelector, p.namespaceSelector, p.ipBlock].filter((x) => x != null).length;
  if (peers === 0) errors.push(fieldErrors.required(path, 'must specify a peer'));
  else if (peers > 1 && p.ipBlock) errors.push(fieldErrors.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errors;
}

export function validateNetworkPolicy(obj: NetworkPolicy): FieldError[] {
  const s = obj.spec ?? {};
  const errors = validateLabelSelector(s.podSelector, 'spec.podSelector');
  (s.ingress ?? []).forEach((rule, i) => {
    (rule.ports ?? []).forEach((p, j) => errors.push(...validatePort(p, `spec.ingress[${i}].ports[${j}]`)));
    (rule.from ?? []).forEach((p, j) => errors.push(...validatePeer(p, `spec.ingress[${i}].from[${j}]`)));
  });
  (s.egress ?? []).forEach((rule, i) => {
    (rule.ports ?? []).forEach((p, j) => errors.push(...validatePort(p, `spec.egress[${i}].ports[${j}]`)));
    (rule.to ?? []).forEach((p, j) => errors.push(...validatePeer(p, `spec.egress[${i}].to[${j}]`)));
  });
  const types = s.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) return [...errors, fieldErrors.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((type, i) => {
    if (!POLICY_TYPES.includes(type)) errors.push(fieldErrors.notSupported(`spec.policyTypes[${i}]`, type, POLICY_TYPES));
  });
  return errors;
}

export const networkPolicies = defineKind<NetworkPolicy>({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  resource: 'networkpolicies',
  scope: 'namespace',
  shortNames: ['netpol'],
  schema: networkPolicySchema,
  tracksGeneration: true,
  defaults: defaultNetworkPolicy,
  validate: validateNetworkPolicy,
  columns: [
    nameColumn,
    { name: 'Pod-Selector', type: 'string', description: 'The pods the policy applies to.', priority: 0, cell: (obj) => formatLabelSelector(obj.spec?.podSelector) },
    ageColumn,
  ],
});
