/**
 * Small formatters shared by the core kinds' Table columns, reproducing the cell text kubectl
 * users know (`app=web,tier=fe`, `<none>`, `RWO,RWX`, ...), and a shorthand for declaring columns.
 */
import type { KubeObject } from '../../registry/object.js';
import type { PrinterColumn } from '../../registry/resource-definition.js';
import { canonicalQuantity } from '../../validation/quantity.js';
import type { Container, ResourceList } from './types.js';

/** A column of kind T; `priority` 1 shows only with `-o wide`. */
export function column<T extends KubeObject>(
  name: string,
  type: PrinterColumn['type'],
  description: string,
  cell: PrinterColumn<T>['cell'],
  priority: 0 | 1 = 0,
): PrinterColumn<T> {
  return { name, type, description, priority, cell };
}

/** `k=v` pairs sorted by key and joined by commas, or `<none>`. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const pairs = Object.keys(labels ?? {})
    .sort()
    .map((k) => `${k}=${labels![k]}`);
  return pairs.length > 0 ? pairs.join(',') : '<none>';
}

/** The Containers and Images cells of workload tables. */
export function containerCells(containers: readonly Container[] | undefined): { names: string; images: string } {
  return {
    names: (containers ?? []).map((c) => c.name ?? '').join(','),
    images: (containers ?? []).map((c) => c.image ?? '').join(','),
  };
}

const ACCESS_MODE_ABBREVIATIONS: ReadonlyArray<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** Access modes as kubectl abbreviates them, in a fixed order: `RWO,ROX`. */
export function formatAccessModes(modes: readonly string[] | undefined): string {
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => (modes ?? []).includes(mode))
    .map(([, short]) => short)
    .join(',');
}

/**
 * `name: used/hard` per enforced resource, sorted by name and joined by `, ` (ResourceQuota's
 * Request and Limit cells, a Tenant's Used cell); `include` picks the resources of the cell.
 */
export function usageCell(status: { hard?: ResourceList; used?: ResourceList } | undefined, include: (name: string) => boolean = () => true): string {
  const hard = status?.hard ?? {};
  return Object.keys(hard)
    .sort()
    .filter(include)
    .map((name) => `${name}: ${canonicalQuantity(status?.used?.[name] ?? 0)}/${canonicalQuantity(hard[name]!)}`)
    .join(', ');
}
