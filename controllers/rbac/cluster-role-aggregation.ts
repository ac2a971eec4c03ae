/**
 * The ClusterRole aggregation controller: a ClusterRole with an `aggregationRule` gets, as its
 * rules, the rules of every ClusterRole its selectors match (Kubernetes'
 * clusterrole-aggregation-controller). One instance serves every space; a space's aggregated
 * roles draw on that space's ClusterRoles and on the shared defaults it sees, never on another
 * space's. The shared `admin`, `edit` and `view` are filled this way in the system space. A client
 * of the API, as `system:controller:clusterrole-aggregation-controller`.
 */
import { clusterRoles, type ClusterRole } from '../../api/kinds/rbac/clusterrole.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { PolicyRule } from '../../api/kinds/rbac/rules.js';
import { fromSelectorObject, type LabelSelectorObject } from '../../api/selection/label-selector.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { BOOTSTRAP_LABEL, BOOTSTRAP_LABEL_VALUE } from '../../authz/rbac/bootstrap-policy.js';
import { isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import { keyString, parseKeyString, type ObjectKey } from '../../src/client/object-key.js';

export interface AggregationControllerDeps {
  /** Acts as the aggregation controller. */
  client: KubeClient;
  clusterRoles: Informer;
  log: { error(obj: object, msg: string): void };
}

interface AggregatedRole extends KubeObject {
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] };
  rules?: PolicyRule[];
}

function isSharedDefault(obj: KubeObject): boolean {
  return obj.metadata.tenant === SYSTEM_TENANT && obj.metadata.labels?.[BOOTSTRAP_LABEL] === BOOTSTRAP_LABEL_VALUE;
}

/** The rules an aggregated role should hold: those of the roles it selects, by name, each rule once. */
function aggregatedRules(deps: AggregationControllerDeps, role: AggregatedRole): PolicyRule[] {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s) => fromSelectorObject(s)).filter((s) => s !== null);
  const tenant = role.metadata.tenant;
  const candidates = deps.clusterRoles.lister().list().filter((obj) => obj.metadata.name !== role.metadata.name && (obj.metadata.tenant === tenant || isSharedDefault(obj)));
  // A space's own role hides a shared default of the same name.
  const byName = new Map<string, AggregatedRole>();
  for (const obj of candidates) if (obj.metadata.tenant === tenant || !byName.has(obj.metadata.name!)) byName.set(obj.metadata.name!, obj);
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const name of [...byName.keys()].sort()) {
    const source = byName.get(name)!;
    if (!selectors.some((s) => s.matches(source.metadata.labels))) continue;
    for (const rule of source.rules ?? []) {
      const text = JSON.stringify(rule);
      if (seen.has(text)) continue;
      seen.add(text);
      rules.push(rule);
    }
  }
  return rules;
}

async function reconcile(deps: AggregationControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const role = deps.clusterRoles.get(key) as AggregatedRole | undefined;
  if (!role?.aggregationRule) return done;
  const rules = aggregatedRules(deps, role);
  if (semanticEqual(rules, role.rules)) return done;
  try {
    // The cached role's resourceVersion makes the write conditional: a role changed meanwhile
    // answers 409, and the reconcile runs again from the newer copy.
    await deps.client.space(key.tenant).resource(clusterRoles).update({ ...(role as ClusterRole), rules });
  } catch (err) {
    if (isNotFound(err)) return done;
    throw err;
  }
  return done;
}

export function clusterRoleAggregationController(deps: AggregationControllerDeps): Controller {
  const controller = new Controller({ name: 'clusterrole-aggregation', reconcile: (key) => reconcile(deps, key), log: deps.log });
  // The aggregated roles of each space, so a change re-checks only those that may select it.
  const aggregatedBySpace = new Map<string, Set<string>>();
  deps.clusterRoles.onChange((key, obj) => {
    const id = keyString(key);
    const space = aggregatedBySpace.get(key.tenant) ?? new Set<string>();
    if ((obj as AggregatedRole | undefined)?.aggregationRule) space.add(id);
    else space.delete(id);
    if (space.size > 0) aggregatedBySpace.set(key.tenant, space);
    else aggregatedBySpace.delete(key.tenant);
    // A shared default may be selected by any space's aggregated roles; other roles only by their own space's.
    const affected = key.tenant === SYSTEM_TENANT ? [...aggregatedBySpace.values()] : [space];
    for (const ids of affected) for (const aggregated of ids) controller.enqueue(parseKeyString(aggregated));
  });
  return controller;
}
