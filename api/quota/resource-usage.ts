/**
 * Quota arithmetic on resource lists (`{pods: 1, requests.cpu: 500m}`), as apiserver's
 * `quota/v1/resources.go`: exact sums and differences of quantities, masks by resource name, the
 * `<=` comparison that names what exceeds, and the `a=1,b=2` form of refusals.
 *
 * @example
 *   const used = addUsage(toUsage({ pods: '1' }), toUsage({ pods: '1' }));
 *   printUsage(used) // 'pods=2'
 */
import { formatQuantity, parseQuantity, type Quantity } from '../validation/quantity.js';

/** Resource name → quantity. Kept as exact nano-units with the format the value was written in. */
export type Usage = Map<string, Quantity>;

/** Reads a stored resource list; entries that are no quantity count as zero. */
export function toUsage(list: Record<string, string | number> | undefined): Usage {
  const usage: Usage = new Map();
  for (const [name, value] of Object.entries(list ?? {})) usage.set(name, parseQuantity(value) ?? { nanos: 0n, format: 'DecimalSI' });
  return usage;
}

/** The canonical resource list of a usage, as written to `status.used`. */
export function toResourceList(usage: Usage): Record<string, string> {
  const list: Record<string, string> = {};
  for (const [name, q] of usage) list[name] = formatQuantity(q);
  return list;
}

/** a + b, per resource; a sum keeps the format of the left operand unless it is zero, as Quantity.Add does. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = new Map(a);
  for (const [name, q] of b) {
    const left = sum.get(name);
    sum.set(name, left ? { nanos: left.nanos + q.nanos, format: left.nanos === 0n ? q.format : left.format } : q);
  }
  return sum;
}

/** a - b per resource of a, never below zero (apiserver's SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: Usage, b: Usage): Usage {
  const diff: Usage = new Map();
  for (const [name, q] of a) {
    const nanos = q.nanos - (b.get(name)?.nanos ?? 0n);
    diff.set(name, { nanos: nanos > 0n ? nanos : 0n, format: q.format });
  }
  return diff;
}

/** Only the resources named. */
export function maskUsage(usage: Usage, names: Iterable<string>): Usage {
  const masked: Usage = new Map();
  for (const name of names) {
    const q = usage.get(name);
    if (q) masked.set(name, q);
  }
  return masked;
}

/** Without the resources whose value is zero. */
export function removeZeros(usage: Usage): Usage {
  return new Map([...usage].filter(([, q]) => q.nanos !== 0n));
}

/** Resources with a negative value, sorted. */
export function negativeResources(usage: Usage): string[] {
  return [...usage].filter(([, q]) => q.nanos < 0n).map(([name]) => name).sort();
}

/** The resources of `a` above their value in `b` (resources absent from `b` are unbounded); empty when a <= b. */
export function exceededResources(a: Usage, b: Usage): string[] {
  return [...a].filter(([name, q]) => b.has(name) && q.nanos > b.get(name)!.nanos).map(([name]) => name);
}

/** Whether both name the same resources with equal values. */
export function usageEquals(a: Usage, b: Usage): boolean {
  return a.size === b.size && [...a].every(([name, q]) => b.get(name)?.nanos === q.nanos);
}

/** `a=1,b=500m`, sorted by name, as apiserver's prettyPrint. */
export function printUsage(usage: Usage): string {
  return [...usage.keys()]
    .sort()
    .map((name) => `${name}=${formatQuantity(usage.get(name)!)}`)
    .join(',');
}

/** One quantity of `n` (DecimalSI). */
export function count(n: number): Quantity {
  return { nanos: BigInt(n) * 1_000_000_000n, format: 'DecimalSI' };
}
