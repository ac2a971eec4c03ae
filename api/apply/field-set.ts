/**
 * A set of field paths, stored as structured-merge-diff stores it: a trie whose nodes hold
 * members (paths that end here) and children (paths that go on). A node can be both, which
 * FieldsV1 writes as a `"."` entry: `{"f:labels":{".":{},"f:app":{}}}` owns `metadata.labels`
 * itself and `metadata.labels.app`. `toFieldsV1` writes keys in smd's order (`.` first, then
 * elements by `comparePathElements`), so the JSON text equals kube-apiserver's for the same set.
 *
 * The set operations follow smd exactly, including its non-recursive `difference` (removing
 * `a` leaves `a.b` alone) beside `recursiveDifference` (removing `a` removes everything under it).
 *
 * @example
 *   const owned = FieldSet.fromFieldsV1({ 'f:spec': { 'f:replicas': {} } });
 *   owned.has([{ field: 'spec' }, { field: 'replicas' }]); // → true
 *   owned.union(FieldSet.of([[{ field: 'data' }]])).toFieldsV1(); // → { 'f:data': {}, 'f:spec': { 'f:replicas': {} } }
 */
import { isJsonObject, type JsonObject } from './json-value.js';
import { comparePathElements, parsePathElement, serializePathElement, type FieldPath, type PathElement } from './path-element.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

const byElement = (a: { pe: PathElement }, b: { pe: PathElement }): number => comparePathElements(a.pe, b.pe);

export class FieldSet {
  /** Members and children by serialized element, which is each element's identity. */
  private readonly memberMap = new Map<string, PathElement>();
  private readonly childMap = new Map<string, Child>();

  /** A node from its members and its non-empty child sets. */
  static node(members: Iterable<PathElement>, children: Iterable<readonly [PathElement, FieldSet]>): FieldSet {
    const set = new FieldSet();
    for (const pe of members) set.memberMap.set(serializePathElement(pe), pe);
    for (const [pe, child] of children) set.addChild(serializePathElement(pe), pe, child);
    return set;
  }

  static of(paths: Iterable<FieldPath>): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /**
   * Reads a FieldsV1 trie. Unknown element types are skipped, as Kubernetes does; a malformed
   * key or a non-object value throws.
   */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (!isJsonObject(fields)) throw new Error('FieldsV1 must be a JSON object');
    for (const [key, value] of Object.entries(fields)) {
      if (key === '.') continue;
      const pe = parsePathElement(key);
      if (pe === undefined) continue;
      if (!isJsonObject(value)) throw new Error(`FieldsV1 entry ${JSON.stringify(key)} must be an object`);
      const child = FieldSet.fromFieldsV1(value);
      // Keys are compared by the element they name, however the client spelt it (`k:` fields in any order).
      const id = serializePathElement(pe);
      // A node with nothing known below it, or with a ".", is itself a member.
      if (child.isEmpty() || '.' in value) set.memberMap.set(id, pe);
      if (!child.isEmpty()) set.childMap.set(id, { pe, set: child });
    }
    return set;
  }

  /** Adds one path (its parents are not added). Only for building a set; the operations below never mutate. */
  insert(path: FieldPath): void {
    let node: FieldSet = this;
    path.forEach((pe, i) => {
      const id = serializePathElement(pe);
      if (i === path.length - 1) {
        node.memberMap.set(id, pe);
        return;
      }
      let child = node.childMap.get(id);
      if (!child) {
        child = { pe, set: new FieldSet() };
        node.childMap.set(id, child);
      }
      node = child.set;
    });
  }

  isEmpty(): boolean {
    // No child is ever empty (see addChild), so a node without members or children is the only empty set.
    return this.memberMap.size === 0 && this.childMap.size === 0;
  }

  has(path: FieldPath): boolean {
    const [first, ...rest] = path;
    if (first === undefined) return false;
    const id = serializePathElement(first);
    if (rest.length === 0) return this.memberMap.has(id);
    return this.childMap.get(id)?.set.has(rest) ?? false;
  }

  /** The elements that are members of this node, in order. */
  memberElements(): PathElement[] {
    return this.sortedMembers().map((m) => m.pe);
  }

  /** The elements other paths continue below, each with the set below it, in order. */
  childSets(): Array<readonly [PathElement, FieldSet]> {
    return this.sortedChildren().map((c) => [c.pe, c.set] as const);
  }

  /** The paths below one element, without it; empty when there are none. */
  withPrefix(pe: PathElement): FieldSet {
    return this.childMap.get(serializePathElement(pe))?.set ?? new FieldSet();
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of [...this.memberMap, ...other.memberMap]) out.memberMap.set(id, pe);
    for (const [id, c] of this.childMap) {
      const o = other.childMap.get(id);
      out.childMap.set(id, o ? { pe: c.pe, set: c.set.union(o.set) } : c);
    }
    for (const [id, c] of other.childMap) if (!out.childMap.has(id)) out.childMap.set(id, c);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.memberMap) if (other.memberMap.has(id)) out.memberMap.set(id, pe);
    for (const [id, c] of this.childMap) {
      const o = other.childMap.get(id);
      if (o) out.addChild(id, c.pe, c.set.intersection(o.set));
    }
    return out;
  }

  /** Paths of this set not in `other`; a member of `other` does not remove paths below it. */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.memberMap) if (!other.memberMap.has(id)) out.memberMap.set(id, pe);
    for (const [id, c] of this.childMap) {
      const o = other.childMap.get(id);
      out.addChild(id, c.pe, o ? c.set.difference(o.set) : c.set);
    }
    return out;
  }

  /** Paths of this set not in `other`, nor below a member of `other`. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.memberMap) if (!other.memberMap.has(id)) out.memberMap.set(id, pe);
    for (const [id, c] of this.childMap) {
      if (other.memberMap.has(id)) continue;
      const o = other.childMap.get(id);
      out.addChild(id, c.pe, o ? c.set.recursiveDifference(o.set) : c.set);
    }
    return out;
  }

  /** Only the members nothing else in the set lies under. */
  leaves(): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.memberMap) if (!this.childMap.has(id)) out.memberMap.set(id, pe);
    for (const [id, c] of this.childMap) out.addChild(id, c.pe, c.set.leaves());
    return out;
  }

  /** Every member path, in smd's iteration order: a node's members, then its children's paths. */
  *paths(prefix: FieldPath = []): Generator<FieldPath> {
    for (const m of this.sortedMembers()) yield [...prefix, m.pe];
    for (const c of this.sortedChildren()) yield* c.set.paths([...prefix, c.pe]);
  }

  /** The FieldsV1 JSON of this set, keys in Kubernetes' order. */
  toFieldsV1(): JsonObject {
    return this.emit(false);
  }

  private emit(includeSelf: boolean): JsonObject {
    const out: JsonObject = {};
    if (includeSelf) out['.'] = {};
    const entries = [
      ...this.sortedMembers().map((m) => ({ pe: m.pe, member: true, child: this.childMap.get(m.id)?.set })),
      ...this.sortedChildren().filter((c) => !this.memberMap.has(c.id)).map((c) => ({ pe: c.pe, member: false, child: c.set })),
    ].sort(byElement);
    for (const e of entries) out[serializePathElement(e.pe)] = e.child ? e.child.emit(e.member) : {};
    return out;
  }

  private sortedMembers(): Array<{ id: string; pe: PathElement }> {
    return [...this.memberMap].map(([id, pe]) => ({ id, pe })).sort(byElement);
  }

  private sortedChildren(): Array<{ id: string; pe: PathElement; set: FieldSet }> {
    return [...this.childMap].map(([id, c]) => ({ id, ...c })).sort(byElement);
  }

  /** Keeps the invariant that no child is empty, so every child node in FieldsV1 means something. */
  private addChild(id: string, pe: PathElement, set: FieldSet): void {
    if (!set.isEmpty()) this.childMap.set(id, { pe, set });
  }
}
