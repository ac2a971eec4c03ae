/**
 * The message of a pod no node fits, as kube-scheduler writes it (FitError.Error and the default
 * preemption's PostFilter message, 1.29 – 1.33): the count of each reason over the nodes, sorted as
 * strings, then what preemption found — for each node whose refusal preemption cannot resolve
 * "Preemption is not helpful for scheduling", for the others "No preemption victims found for
 * incoming pod" (we never preempt: see docs/architecture.md).
 *
 * @example
 *   fitErrorMessage(3, [{ reasons: ['node(s) had untolerated taint {key: value}'], unresolvable: true }, cpu, cpu])
 *   // '0/3 nodes are available: 1 node(s) had untolerated taint {key: value}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.'
 */
import type { FilterStatus } from './filters.js';

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';
const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';
/** The longest event note kube-scheduler writes (its truncateMessage). */
const MAX_MESSAGE = 1024;

/** "0/N nodes are available: <count reason, …>" (no final period). */
function histogram(nodes: number, reasons: string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `0/${nodes} nodes are available: ${parts.join(', ')}`;
}

/** The FailedScheduling message for the nodes' refusals; `preemptionNever`: the pod's preemptionPolicy is Never. */
export function fitErrorMessage(nodes: number, statuses: readonly FilterStatus[], preemptionNever = false): string {
  const filters = histogram(nodes, statuses.flatMap((s) => s.reasons));
  const preemption = preemptionNever
    ? 'not eligible due to preemptionPolicy=Never'
    : histogram(
        nodes,
        statuses.map((s) => (s.unresolvable ? PREEMPTION_NOT_HELPFUL : NO_VICTIMS)),
      );
  return `${filters}. preemption: ${preemption}.`;
}

/** kube-scheduler's truncateMessage: notes are at most 1 kB. */
export function truncateMessage(message: string): string {
  const suffix = ' ...';
  return message.length <= MAX_MESSAGE ? message : message.slice(0, MAX_MESSAGE - suffix.length) + suffix;
}
