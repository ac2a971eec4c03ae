/**
 * Test support for the non-core kinds: runs a kind's strategy hooks in the order the generic
 * store does (defaults, prepare, validate), without storage, and renders Table rows.
 */
import type { FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';

export const TEST_UID = '6f1c2a8e-2d2b-4a4e-9b7e-1a2b3c4d5e6f';
export const CREATED = '2024-05-01T10:00:00Z';
/** Ten minutes after CREATED. */
export const NOW = Date.parse(CREATED) + 10 * 60 * 1000;

/** The object after create's hooks, and the field errors validation finds in it. */
export async function create<T extends KubeObject>(def: ResourceDefinition<T>, input: T): Promise<{ object: T; errors: FieldError[] }> {
  const object = structuredClone(input);
  object.metadata = { uid: TEST_UID, creationTimestamp: CREATED, ...(def.scope === 'namespace' ? { namespace: 'default' } : {}), ...object.metadata };
  if (def.status && !def.createWithStatus) delete object.status;
  def.defaults?.(object);
  await def.prepareForCreate?.(object, { tenant: 't1', namespace: object.metadata.namespace, user: undefined });
  return { object, errors: [...(def.validate?.(object) ?? []), ...(def.validateCreate?.(object) ?? [])] };
}

/** The field errors of replacing `old` with `next`, after update's hooks. */
export function update<T extends KubeObject>(def: ResourceDefinition<T>, next: T, old: T): FieldError[] {
  const object = structuredClone(next);
  if (def.status) (object as KubeObject).status = structuredClone(old.status);
  def.defaults?.(object);
  def.prepareForUpdate?.(object, old);
  return [...(def.validate?.(object) ?? []), ...(def.validateUpdate?.(object, old) ?? [])];
}

/** `field: message` lines, as kubectl prints an Invalid error's causes. */
export function messages(errors: FieldError[]): string[] {
  return errors.map((e) => `${e.field}: ${e.message}`);
}

/** Column headers as kubectl prints them (priority-0 only unless wide). */
export function headers(def: ResourceDefinition, wide = false): string[] {
  return def.columns.filter((c) => wide || c.priority === 0).map((c) => c.name.toUpperCase());
}

/** One Table row's cells, every column included (the server always renders wide rows). */
export function cells<T extends KubeObject>(def: ResourceDefinition<T>, obj: T, now = NOW): Array<string | number | boolean> {
  return def.columns.map((c) => c.cell(obj, now));
}
