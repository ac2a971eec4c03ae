/**
 * Every space's roles and bindings, held in memory and indexed by subject, so an authorization
 * check looks up the caller's name and groups instead of scanning bindings (DESIGN.md section 5).
 * Fed by the shared informers of the four RBAC kinds over all spaces.
 *
 * A binding's subjects are identities of the binding's own space: `User alice` in space t1 is t1's
 * alice and no one else. The system space's objects labeled `kubernetes.io/bootstrapping:
 * rbac-defaults` are also kept apart as the shared defaults, which every space sees read-only.
 */
import type { KubeObject } from '../../api/registry/object.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import type { BindingObject, PolicyRule, RoleObject, Subject } from '../../api/kinds/rbac/rules.js';
import type { UserInfo } from '../../api/access.js';
import { fromSelectorObject, type LabelSelector } from '../../api/selection/label-selector.js';
import { BOOTSTRAP_LABEL, BOOTSTRAP_LABEL_VALUE } from './bootstrap-policy.js';
import { serviceAccountUserName } from '../service-account-token.js';


export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** One binding of one subject, as the index keeps it. */
export interface BindingEntry {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  /** '' for a ClusterRoleBinding: it applies to the whole space. */
  namespace: string;
  roleKind: 'Role' | 'ClusterRole';
  roleName: string;
  /** How the subject was named (`User "alice"`), for the decision's reason. */
  subject: string;
}

/** What made a rule apply: the binding and role it came through. */
export interface RuleSource {
  entry: BindingEntry;
  rule: PolicyRule;
}

/** Where a subject is indexed: by user name (a service account by its user name, as Kubernetes matches it) or by group name. */
interface SubjectKey {
  of: 'user' | 'group';
  name: string;
}

function subjectKey(subject: Subject, bindingNamespace: string): SubjectKey | undefined {
  const name = subject.name ?? '';
  if (name === '') return undefined;
  switch (subject.kind) {
    case 'User':
      return { of: 'user', name };
    case 'Group':
      return { of: 'group', name };
    case 'ServiceAccount': {
      // A RoleBinding's service account defaults to the binding's namespace.
      const namespace = subject.namespace || bindingNamespace;
      return namespace ? { of: 'user', name: serviceAccountUserName(namespace, name) } : undefined;
    }
    default:
      return undefined;
  }
}

/** One space's policy (or the shared defaults). */
class SpacePolicy {
  readonly clusterRoles = new Map<string, PolicyRule[]>();
  /** ClusterRoles' labels, which aggregation rules select on. */
  readonly clusterRoleLabels = new Map<string, Readonly<Record<string, string>>>();
  /** ClusterRoles' aggregation rules (those of the shared defaults aggregate each space's own roles). */
  readonly aggregations = new Map<string, LabelSelector[]>();
  /** Bumped on every ClusterRole change, so what was derived from them is recomputed. */
  generation = 0;
  /** A shared aggregated role as this space resolves it: its rules and this space's roles it selects. */
  private readonly aggregated = new Map<string, { own: number; shared: number; rules: PolicyRule[] }>();
  /** Keyed `namespace/name`. */
  readonly roles = new Map<string, PolicyRule[]>();
  /**
   * Bindings by the names of the users and of the groups they name. Two maps of plain names, so a
   * check looks up the caller's own strings and builds no key.
   */
  readonly bindingsByUser = new Map<string, BindingEntry[]>();
  readonly bindingsByGroup = new Map<string, BindingEntry[]>();
  /** Binding id → the subject keys it was indexed under, to take it out again. */
  private readonly subjectsOfBinding = new Map<string, SubjectKey[]>();

  get empty(): boolean {
    return this.clusterRoles.size === 0 && this.roles.size === 0 && this.subjectsOfBinding.size === 0;
  }

  setBinding(id: string, entryBase: Omit<BindingEntry, 'subject'>, subjects: readonly Subject[]): void {
    this.removeBinding(id);
    const keys: SubjectKey[] = [];
    for (const subject of subjects) {
      const key = subjectKey(subject, entryBase.namespace);
      if (key === undefined) continue;
      const entry: BindingEntry = { ...entryBase, subject: `${subject.kind} "${subject.kind === 'ServiceAccount' ? `${subject.namespace || entryBase.namespace}/` : ''}${subject.name}"` };
      const bindings = this.bindingsOf(key);
      const list = bindings.get(key.name);
      if (list) list.push(entry);
      else bindings.set(key.name, [entry]);
      keys.push(key);
    }
    this.subjectsOfBinding.set(id, keys);
  }

  hasBinding(id: string): boolean {
    return this.subjectsOfBinding.has(id);
  }

  removeBinding(id: string): void {
    const keys = this.subjectsOfBinding.get(id);
    if (!keys) return;
    this.subjectsOfBinding.delete(id);
    const [kind, namespace, name] = id.split('/');
    for (const key of keys) {
      const bindings = this.bindingsOf(key);
      // A subject named twice in one binding was taken out with its first key.
      const list = bindings.get(key.name)?.filter((e) => !(e.kind === kind && e.namespace === namespace && e.name === name));
      if (list === undefined) continue;
      if (list.length === 0) bindings.delete(key.name);
      else bindings.set(key.name, list);
    }
  }

  private bindingsOf(key: SubjectKey): Map<string, BindingEntry[]> {
    return key.of === 'user' ? this.bindingsByUser : this.bindingsByGroup;
  }

  /** The rules of the role an entry refers to; a ClusterRole missing here is looked up in `fallback`. */
  rulesOf(entry: BindingEntry, fallback: SpacePolicy | undefined): PolicyRule[] | undefined {
    if (entry.roleKind === 'Role') return entry.kind === 'RoleBinding' ? this.roles.get(`${entry.namespace}/${entry.roleName}`) : undefined;
    return this.clusterRoles.get(entry.roleName) ?? (fallback && this.sharedRoleRules(entry.roleName, fallback));
  }

  /**
   * A shared ClusterRole as this space sees it: an aggregated one (admin, edit, view) also holds
   * the rules of this space's ClusterRoles its selectors match, as Kubernetes aggregates a
   * CRD's `aggregate-to-view` role into `view`; another space's never count. Kept until a
   * ClusterRole here or among the shared ones changes, so a check allocates nothing.
   */
  sharedRoleRules(name: string, shared: SpacePolicy): PolicyRule[] | undefined {
    const base = shared.clusterRoles.get(name);
    const selectors = shared.aggregations.get(name);
    if (!base || !selectors) return base;
    const known = this.aggregated.get(name);
    if (known && known.own === this.generation && known.shared === shared.generation) return known.rules;
    const rules = [...base];
    for (const [role, labels] of this.clusterRoleLabels) {
      if (selectors.some((sel) => sel.matches(labels))) rules.push(...(this.clusterRoles.get(role) ?? []));
    }
    this.aggregated.set(name, { own: this.generation, shared: shared.generation, rules });
    return rules;
  }
}

export class RbacIndex {
  private readonly spaces = new Map<string, SpacePolicy>();
  /** The system space's labeled defaults, seen by every space. */
  private readonly shared = new SpacePolicy();

  private space(tenant: string): SpacePolicy {
    let policy = this.spaces.get(tenant);
    if (!policy) {
      policy = new SpacePolicy();
      this.spaces.set(tenant, policy);
    }
    return policy;
  }

  /** Takes in a change of a role or binding: `obj` is the new state, or undefined once deleted. */
  apply(kind: RbacKind, tenant: string, namespace: string, name: string, obj: KubeObject | undefined): void {
    const targets = [this.space(tenant)];
    if (tenant === SYSTEM_TENANT && (kind === 'ClusterRole' || kind === 'ClusterRoleBinding')) {
      if (obj?.metadata.labels?.[BOOTSTRAP_LABEL] === BOOTSTRAP_LABEL_VALUE) targets.push(this.shared);
      else this.forget(this.shared, kind, namespace, name);
    }
    for (const policy of targets) {
      if (!obj) this.forget(policy, kind, namespace, name);
      else if (kind === 'ClusterRole') {
        const role = obj as RoleObject;
        policy.clusterRoles.set(name, role.rules ?? []);
        policy.clusterRoleLabels.set(name, role.metadata.labels ?? {});
        const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).flatMap((sel) => fromSelectorObject(sel) ?? []);
        if (selectors.length > 0) policy.aggregations.set(name, selectors);
        else policy.aggregations.delete(name);
        policy.generation += 1;
      }
      else if (kind === 'Role') policy.roles.set(`${namespace}/${name}`, (obj as RoleObject).rules ?? []);
      else {
        const binding = obj as BindingObject;
        const roleKind = binding.roleRef?.kind === 'Role' ? 'Role' : 'ClusterRole';
        // Shared with other spaces, a default binding reaches groups only: the users it names (the
        // controllers, the scheduler) are the system's own, and a space's user of that name is someone else.
        const subjects = policy === this.shared ? (binding.subjects ?? []).filter((s) => s.kind === 'Group') : binding.subjects ?? [];
        policy.setBinding(`${kind}/${namespace}/${name}`, { kind, name, namespace, roleKind, roleName: binding.roleRef?.name ?? '' }, subjects);
      }
    }
    const policy = this.spaces.get(tenant);
    if (policy?.empty) this.spaces.delete(tenant);
  }

  private forget(policy: SpacePolicy, kind: RbacKind, namespace: string, name: string): void {
    if (kind === 'ClusterRole') {
      policy.clusterRoles.delete(name);
      policy.clusterRoleLabels.delete(name);
      policy.aggregations.delete(name);
      policy.generation += 1;
    }
    else if (kind === 'Role') policy.roles.delete(`${namespace}/${name}`);
    else policy.removeBinding(`${kind}/${namespace}/${name}`);
  }

  /** Whether a ClusterRole or ClusterRoleBinding of this name is one of the shared defaults. */
  isShared(kind: 'ClusterRole' | 'ClusterRoleBinding', name: string): boolean {
    return kind === 'ClusterRole' ? this.shared.clusterRoles.has(name) : this.shared.hasBinding(`ClusterRoleBinding//${name}`);
  }

  /**
   * Visits the rules that apply to the user in a space and namespace until `visit` answers true;
   * returns that rule and where it came from, or undefined. Where they come from: for a tenant's
   * users, their space's bindings and the shared defaults; for system users, the system space's
   * bindings, whose ClusterRoleBindings reach every space (its RoleBindings only its own
   * namespaces). Checked on every request: no allocation beyond the subject keys.
   */
  find(user: UserInfo, tenant: string, namespace: string | undefined, visit: (rule: PolicyRule) => boolean): RuleSource | undefined {
    if (user.tenant === SYSTEM_TENANT) {
      const system = this.spaces.get(SYSTEM_TENANT);
      return system && findForUser(system, undefined, user, tenant === SYSTEM_TENANT ? namespace : undefined, visit);
    }
    if (user.tenant !== tenant) return undefined;
    const own = this.spaces.get(tenant);
    return (own && findForUser(own, this.shared, user, namespace, visit)) ?? findForUser(this.shared, undefined, user, undefined, visit);
  }

  /** Every rule that applies to the user in a space and namespace (SelfSubjectRulesReview, escalation checks). */
  rulesFor(user: UserInfo, tenant: string, namespace: string | undefined): PolicyRule[] {
    const rules: PolicyRule[] = [];
    this.find(user, tenant, namespace, (rule) => {
      rules.push(rule);
      return false;
    });
    return rules;
  }

  /** The rules of a role as a binding in this space would resolve it; undefined when it does not exist. */
  roleRules(tenant: string, roleKind: string, namespace: string, name: string): PolicyRule[] | undefined {
    const own = this.spaces.get(tenant);
    if (roleKind === 'Role') return own?.roles.get(`${namespace}/${name}`);
    if (own?.clusterRoles.has(name)) return own.clusterRoles.get(name);
    if (tenant === SYSTEM_TENANT) return undefined;
    return own ? own.sharedRoleRules(name, this.shared) : this.shared.clusterRoles.get(name);
  }

  /** How many spaces hold policy of their own (a measure for benchmarks and tests). */
  get spaceCount(): number {
    return this.spaces.size;
  }
}

/** The user's bindings in one policy (by name, then by each group), until `visit` answers true. */
function findForUser(policy: SpacePolicy, fallback: SpacePolicy | undefined, user: UserInfo, namespace: string | undefined, visit: (rule: PolicyRule) => boolean): RuleSource | undefined {
  const found = findForSubject(policy, fallback, policy.bindingsByUser.get(user.name), namespace, visit);
  if (found) return found;
  for (const group of user.groups) {
    const viaGroup = findForSubject(policy, fallback, policy.bindingsByGroup.get(group), namespace, visit);
    if (viaGroup) return viaGroup;
  }
  return undefined;
}

/** One subject's bindings: ClusterRoleBindings, and RoleBindings of `namespace` (none when undefined). */
function findForSubject(policy: SpacePolicy, fallback: SpacePolicy | undefined, entries: readonly BindingEntry[] | undefined, namespace: string | undefined, visit: (rule: PolicyRule) => boolean): RuleSource | undefined {
  if (!entries) return undefined;
  for (const entry of entries) {
    if (entry.namespace !== '' && entry.namespace !== namespace) continue;
    const rules = policy.rulesOf(entry, fallback);
    if (!rules) continue;
    for (const rule of rules) if (visit(rule)) return { entry, rule };
  }
  return undefined;
}
