/**
 * coordination.k8s.io/v1 Lease: a lease for leader election and node heartbeats. Kubernetes'
 * behaviour: `pkg/apis/coordination/validation`, `pkg/registry/coordination/lease`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { microTimeField } from '../../schema/meta.js';
import { define, described, integer, object, ref, string } from '../../schema/schema.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { validateNonNegative } from '../apps/workload.js';

export interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
    strategy?: string;
    preferredHolder?: string;
  };
}

/** Strategies Kubernetes defines itself; others must be domain-qualified (`example.com/mine`). */
const LEASE_STRATEGIES = ['OldestEmulationVersion'];

const spec = define(
  'io.k8s.api.coordination.v1.LeaseSpec',
  object('The state of a lease.', {
    holderIdentity: string('Who holds the lease.'),
    leaseDurationSeconds: integer('Seconds candidates wait for a renewal before they may take the lease.'),
    acquireTime: microTimeField('When the current holder acquired the lease (microsecond precision).'),
    renewTime: microTimeField('When the holder last renewed the lease (microsecond precision).'),
    leaseTransitions: integer('How many times the lease changed holders.'),
    strategy: string('How a leader is chosen among candidates in coordinated leader election.'),
    preferredHolder: string('A holder the lease should move to; only with a strategy.'),
  }),
);

export const leaseSchema = define(
  'io.k8s.api.coordination.v1.Lease',
  object(
    'A lease, for leader election and heartbeats.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The lease.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }] },
  ),
);

export function validateLease(obj: Lease): FieldError[] {
  const s = obj.spec ?? {};
  const errors: FieldError[] = [];
  if (s.leaseDurationSeconds != null && s.leaseDurationSeconds <= 0) {
    errors.push(fieldErrors.invalid('spec.leaseDurationSeconds', s.leaseDurationSeconds, 'must be greater than 0'));
  }
  errors.push(...validateNonNegative(s.leaseTransitions, 'spec.leaseTransitions'));
  if (s.strategy != null) {
    if (!s.strategy.includes('/')) {
      if (!LEASE_STRATEGIES.includes(s.strategy)) errors.push(fieldErrors.notSupported('spec.strategy', s.strategy, LEASE_STRATEGIES));
    } else {
      errors.push(...validateQualifiedName(s.strategy, 'spec.strategy'));
    }
  }
  if (s.preferredHolder && !s.strategy) errors.push(fieldErrors.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return errors;
}

export const leases = defineKind<Lease>({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  scope: 'namespace',
  schema: leaseSchema,
  validate: validateLease,
  // Lease holders write with PUT whether or not the lease exists yet, but an existing lease is
  // only ever replaced knowingly: a PUT of one needs its resourceVersion (as in Kubernetes).
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  columns: [
    nameColumn,
    { name: 'Holder', type: 'string', description: 'Who holds the lease.', priority: 0, cell: (obj) => obj.spec?.holderIdentity ?? '' },
    ageColumn,
  ],
});
