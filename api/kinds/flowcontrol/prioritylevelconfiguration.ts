/**
 * flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: a share of the server's seats and
 * the queues requests wait in for them. Above every space (cluster scope, as in Kubernetes), like
 * FlowSchemas. Kubernetes' behaviour: `pkg/apis/flowcontrol/v1/defaults.go`,
 * `pkg/apis/flowcontrol/validation/validation.go`, the printer of `pkg/printers/internalversion`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { described } from '../../schema/schema.js';
import { column } from '../core/table-cells.js';
import { priorityLevelSpec, priorityLevelStatus } from './schema.js';

interface Queuing {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface PriorityLevelConfiguration extends KubeObject {
  spec?: {
    type?: string;
    limited?: { nominalConcurrencyShares?: number; lendablePercent?: number; borrowingLimitPercent?: number; limitResponse?: { type?: string; queuing?: Queuing | null } } | null;
    exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number } | null;
  };
  status?: { conditions?: Array<{ type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string }> };
}

const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];
/** kube's limit on the entropy a hand needs (shufflesharding.MaxHashBits). */
const MAX_HASH_BITS = 60;

const priorityLevelSchema = defineKindSchema(
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration',
  { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'PriorityLevelConfiguration' },
  'A priority level: its share of the server and its queues.',
  {
    spec: described(priorityLevelSpec, 'The share and queues.'),
    status: described(priorityLevelStatus, 'The current state.'),
  },
);

/** Bits of entropy a hand of `handSize` out of `deckSize` needs: log2 of deckSize × (deckSize-1) × …. */
function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateQueuing(q: Queuing, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  const length = q.queueLengthLimit ?? 0;
  if (length <= 0) errs.push(fieldErrors.invalid(`${path}.queueLengthLimit`, length, 'must be positive'));
  if (queues <= 0) errs.push(fieldErrors.invalid(`${path}.queues`, queues, 'must be positive'));
  if (handSize <= 0) errs.push(fieldErrors.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues && queues > 0) errs.push(fieldErrors.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (queues > 0 && requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(fieldErrors.invalid(`${path}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

export function validatePriorityLevel(obj: PriorityLevelConfiguration): FieldError[] {
  const spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  if (!TYPES.includes(spec.type ?? '')) return [fieldErrors.notSupported('spec.type', spec.type ?? '', TYPES)];
  if (spec.type === 'Exempt') {
    if (spec.limited) errs.push(fieldErrors.forbidden('spec.limited', 'must be nil if the type is not Limited'));
    const lendable = spec.exempt?.lendablePercent ?? 0;
    if (lendable < 0 || lendable > 100) errs.push(fieldErrors.invalid('spec.exempt.lendablePercent', lendable, 'must be between 0 and 100, inclusive'));
    return errs;
  }
  if (spec.exempt) errs.push(fieldErrors.forbidden('spec.exempt', 'must be nil if the type is Limited'));
  const limited = spec.limited;
  if (!limited) return [...errs, fieldErrors.required('spec.limited', 'must not be empty when type is Limited')];
  const shares = limited.nominalConcurrencyShares ?? 0;
  if (shares < 0) errs.push(fieldErrors.invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
  const lendable = limited.lendablePercent ?? 0;
  if (lendable < 0 || lendable > 100) errs.push(fieldErrors.invalid('spec.limited.lendablePercent', lendable, 'must be between 0 and 100, inclusive'));
  const response = limited.limitResponse ?? {};
  if (!LIMIT_RESPONSE_TYPES.includes(response.type ?? '')) errs.push(fieldErrors.notSupported('spec.limited.limitResponse.type', response.type ?? '', LIMIT_RESPONSE_TYPES));
  else if (response.type === 'Reject' && response.queuing) errs.push(fieldErrors.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
  else if (response.type === 'Queue' && !response.queuing) errs.push(fieldErrors.required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Limited'));
  else if (response.type === 'Queue') errs.push(...validateQueuing(response.queuing!, 'spec.limited.limitResponse.queuing'));
  return errs;
}

function queuingCell(field: keyof Queuing): (p: PriorityLevelConfiguration) => string | number {
  return (p) => {
    const queuing = p.spec?.limited?.limitResponse?.queuing;
    return queuing ? (queuing[field] ?? 0) : '<none>';
  };
}

const columns: PrinterColumn<PriorityLevelConfiguration>[] = [
  nameColumn as PrinterColumn<PriorityLevelConfiguration>,
  column('Type', 'string', 'Exempt or Limited.', (p) => p.spec?.type ?? ''),
  column('NominalConcurrencyShares', 'string', "The level's share of the server's seats.", (p) => (p.spec?.limited ? (p.spec.limited.nominalConcurrencyShares ?? 0) : '<none>')),
  column('Queues', 'string', 'Number of queues.', queuingCell('queues')),
  column('HandSize', 'string', 'Queues each flow is dealt.', queuingCell('handSize')),
  column('QueueLengthLimit', 'string', 'Requests one queue may hold.', queuingCell('queueLengthLimit')),
  ageColumn as PrinterColumn<PriorityLevelConfiguration>,
];

export const priorityLevelConfigurations = defineKind<PriorityLevelConfiguration>({
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  resource: 'prioritylevelconfigurations',
  scope: 'cluster',
  schema: priorityLevelSchema,
  nameRule: 'path-segment',
  status: true,
  // kube's v1 defaults: 30 shares for a Limited level, 0 for Exempt; queues 64, hand 8, length 50.
  defaults: (obj) => {
    const spec = obj.spec;
    if (spec?.type === 'Limited' && spec.limited) {
      spec.limited.nominalConcurrencyShares ??= 30;
      spec.limited.lendablePercent ??= 0;
      const queuing = spec.limited.limitResponse?.type === 'Queue' ? spec.limited.limitResponse.queuing : undefined;
      if (queuing) {
        queuing.queues ??= 64;
        queuing.handSize ??= 8;
        queuing.queueLengthLimit ??= 50;
      }
    }
    if (spec?.type === 'Exempt') {
      spec.exempt ??= {};
      spec.exempt.nominalConcurrencyShares ??= 0;
      spec.exempt.lendablePercent ??= 0;
    }
  },
  validate: validatePriorityLevel,
  columns,
});
