/**
 * What a pod asks of a node, as kube-scheduler computes it (`resourcehelper.PodRequests`): the
 * sum of its containers' requests, or an init container's if larger (they run one at a time, before
 * the others), plus the pod overhead. CPU is counted in millicores, everything else in units
 * (bytes, counts), rounded up as Quantity's Value() does. A request left out takes its limit, as
 * kube-apiserver's defaulting writes it.
 */
import type { Container, Pod } from '../../api/kinds/core/types.js';
import { quantityNanos } from '../../api/validation/quantity.js';

export type Resources = Map<string, number>;

export const CPU = 'cpu';
export const MEMORY = 'memory';
export const PODS = 'pods';
export const EPHEMERAL_STORAGE = 'ephemeral-storage';

/** kube-scheduler's defaults for a container without requests, when scoring (`schedutil.DefaultMilliCPURequest`, `DefaultMemoryRequest`). */
const DEFAULT_MILLI_CPU = 100;
const DEFAULT_MEMORY = 200 * 1024 * 1024;

const NANOS_PER_MILLI = 1_000_000n;
const NANOS_PER_UNIT = 1_000_000_000n;

/** A quantity as kube-scheduler counts it: millicores for cpu, units for the rest (rounded up). */
export function resourceAmount(resource: string, quantity: string | number | undefined): number {
  const nanos = quantityNanos(quantity);
  const per = resource === CPU ? NANOS_PER_MILLI : NANOS_PER_UNIT;
  return Number((nanos + per - 1n) / per);
}

/** A resource list (`status.allocatable`, `spec.overhead`) as amounts. */
export function resourceList(list: Record<string, string | number> | undefined): Resources {
  const out: Resources = new Map();
  for (const [name, value] of Object.entries(list ?? {})) out.set(name, resourceAmount(name, value));
  return out;
}

function containerRequests(container: Container): Resources {
  const { requests = {}, limits = {} } = (container.resources ?? {}) as { requests?: Record<string, string>; limits?: Record<string, string> };
  return resourceList({ ...limits, ...requests });
}

/** Adds (sign 1) or takes away (sign -1) `from`'s amounts to `into`'s. */
export function add(into: Resources, from: Resources, sign: 1 | -1 = 1): void {
  for (const [name, amount] of from) into.set(name, (into.get(name) ?? 0) + sign * amount);
}

/** The pod's requests; `nonZero` gives containers without cpu or memory requests kube-scheduler's defaults (for scoring). */
export function podRequests(pod: Pod, nonZero = false): Resources {
  const spec = pod.spec ?? {};
  const total: Resources = new Map();
  for (const container of spec.containers ?? []) {
    const requests = containerRequests(container);
    if (nonZero) {
      if (!requests.has(CPU)) requests.set(CPU, DEFAULT_MILLI_CPU);
      if (!requests.has(MEMORY)) requests.set(MEMORY, DEFAULT_MEMORY);
    }
    add(total, requests);
  }
  for (const container of spec.initContainers ?? []) {
    for (const [name, amount] of containerRequests(container)) if (amount > (total.get(name) ?? 0)) total.set(name, amount);
  }
  add(total, resourceList((spec as { overhead?: Record<string, string> }).overhead));
  return total;
}
