/**
 * Apply conflicts and the 409 Kubernetes answers for them: one `FieldManagerConflict` cause per
 * field, naming the manager that owns it, and a message kubectl prints as is.
 *
 * @example
 *   throw applyConflictError(result.conflicts);
 *   // 409 Conflict: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas'
 *   //   details.causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }]
 */
import { ApiError, type StatusCause } from '../status.js';
import type { FieldSet } from './field-set.js';
import { compareStrings } from './json-value.js';
import { managerIdentity, type ManagedSet } from './managed-fields.js';
import { goQuote, pathToString, type FieldPath } from './path-element.js';

export interface ApplyConflict {
  /** The manager that owns the field. */
  owner: Pick<ManagedSet, 'manager' | 'operation' | 'apiVersion' | 'subresource'>;
  path: FieldPath;
  /** The field as Kubernetes renders it: `.spec.template.spec.containers[name="nginx"].image`. */
  field: string;
}

/** One conflict per path each manager owns, managers in Kubernetes' message order. */
export function conflictsOf(owned: ReadonlyArray<readonly [ManagedSet, FieldSet]>): ApplyConflict[] {
  const sorted = [...owned].sort(([a], [b]) => compareStrings(managerIdentity(a), managerIdentity(b)));
  return sorted.flatMap(([m, set]) => {
    const owner = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, subresource: m.subresource };
    return [...set.paths()].map((path) => ({ owner, path, field: pathToString(path) }));
  });
}

/** How Kubernetes names a manager in conflicts: `"kubectl"`, `"kube-controller-manager" using apps/v1`. */
function describeManager(owner: ApplyConflict['owner']): string {
  let s = goQuote(owner.manager);
  if (owner.subresource) s += ` with subresource ${goQuote(owner.subresource)}`;
  return owner.operation === 'Update' ? `${s} using ${owner.apiVersion}` : s;
}

function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only) return `Apply failed with 1 conflict: conflict with ${describeManager(only.owner)}: ${only.field}`;
  const lines: string[] = [];
  let previous: string | undefined;
  for (const c of conflicts) {
    const id = managerIdentity(c.owner);
    if (id !== previous) lines.push(`conflicts with ${describeManager(c.owner)}:`);
    previous = id;
    lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 Conflict kube-apiserver answers to an apply with conflicts. */
export function applyConflictError(conflicts: readonly ApplyConflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.owner)}`, field: c.field }));
  return new ApiError(409, 'Conflict', conflictMessage(conflicts), { causes });
}
