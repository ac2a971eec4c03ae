/**
 * The fields a write cannot change because the kind's strategy resets them (Kubernetes'
 * `ResetFieldsStrategy`). No manager owns them through that write, and apply conflicts ignore
 * them:
 * - the main resource of a kind with a status subresource: `statusResetFields()`;
 * - `/status`: everything but status, `fieldsOutside(schema, ['status'])`;
 * - a namespace's `/finalize`: `fieldsOutside(schema, ['spec', 'finalizers'])`;
 * - anything else: an empty `FieldSet`.
 *
 * @example
 *   const resetFields = subresource === 'status' ? fieldsOutside(def.schema, ['status']) : def.status ? statusResetFields() : new FieldSet();
 */
import { FieldSet } from './field-set.js';
import type { PathElement } from './path-element.js';
import { atomOf, type TypeRef } from './schema-type.js';

export function statusResetFields(): FieldSet {
  return FieldSet.of([[{ field: 'status' }]]);
}

/** Every declared field of a schema except those on the path to `writable` (and what lies below it). */
export function fieldsOutside(type: TypeRef, [head, ...rest]: readonly string[]): FieldSet {
  const map = atomOf(type).map;
  if (!map || head === undefined) return new FieldSet();
  const members: PathElement[] = [...map.fields.keys()].filter((name) => name !== head).map((name) => ({ field: name }));
  const below = map.fields.get(head);
  return FieldSet.node(members, below && rest.length > 0 ? [[{ field: head }, fieldsOutside(below.type, rest)]] : []);
}
