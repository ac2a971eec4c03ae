/**
 * Removes the fields of a set from a value (smd's `TypedValue.RemoveItems`): a member removes the
 * field, list item or map entry it names, whole; the walk only descends where the set has paths.
 * A list or map left empty becomes null, as in smd; `dropNullFields` unsets it afterwards.
 *
 * @example
 *   removeItems({ metadata: { labels: { a: '1', b: '2' } } }, FieldSet.of([[{ field: 'metadata' }, { field: 'labels' }, { field: 'a' }]]), schema);
 *   // → { metadata: { labels: { b: '2' } } }
 */
import type { FieldSet } from './field-set.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import { atomOf, entryType, listItemElement, shapeOf, type TypeRef } from './schema-type.js';

export function removeItems(value: JsonValue, toRemove: FieldSet, type: TypeRef): JsonValue {
  const shape = shapeOf(atomOf(type), value);
  if (shape.kind === 'scalar') return value;
  if (shape.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0 || shape.list.atomic) return null;
    const kept: JsonValue[] = [];
    for (const item of value) {
      const pe = listItemElement(shape.list, item);
      if (typeof pe === 'string') {
        kept.push(item);
        continue;
      }
      if (toRemove.has([pe])) continue;
      const below = toRemove.withPrefix(pe);
      kept.push(below.isEmpty() ? item : removeItems(item, below, shape.list.items));
    }
    return kept.length > 0 ? kept : null;
  }
  if (!isJsonObject(value) || Object.keys(value).length === 0 || shape.map.atomic) return null;
  const kept: JsonObject = {};
  for (const [name, v] of Object.entries(value)) {
    const pe = { field: name };
    if (toRemove.has([pe])) continue;
    const below = toRemove.withPrefix(pe);
    kept[name] = below.isEmpty() ? v : removeItems(v, below, entryType(shape.map, name));
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
