/**
 * A pod's quality-of-service class, computed from its containers' cpu and memory requests and
 * limits as Kubernetes does: BestEffort with none, Guaranteed when every container limits both
 * and requests equal limits, Burstable otherwise.
 *
 * @example
 *   podQOSClass({ containers: [{ name: 'a', resources: {} }] }) // 'BestEffort'
 */
import { quantityNanos } from '../../validation/quantity.js';
import type { Container, PodSpec } from './types.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'];

function add(totals: Map<string, bigint>, name: string, nanos: bigint): void {
  totals.set(name, (totals.get(name) ?? 0n) + nanos);
}

export function podQOSClass(spec: PodSpec): QOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const containers: Container[] = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  for (const c of containers) {
    for (const [name, value] of Object.entries(c.resources?.requests ?? {})) {
      const nanos = quantityNanos(value);
      if (QOS_RESOURCES.includes(name) && nanos > 0n) add(requests, name, nanos);
    }
    const limited = new Set<string>();
    for (const [name, value] of Object.entries(c.resources?.limits ?? {})) {
      const nanos = quantityNanos(value);
      if (QOS_RESOURCES.includes(name) && nanos > 0n) {
        limited.add(name);
        add(limits, name, nanos);
      }
    }
    if (!QOS_RESOURCES.every((r) => limited.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
