/**
 * Naming helpers for the core/v1 schemas (`io.k8s.api.core.v1.*`), so every core-types file
 * refers to the others by name without importing them (references are resolved by name).
 *
 * @example
 *   coreField('PodSpec', 'The pod’s desired behavior.') // { description, allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }] }
 */
import { define, described, list, map, quantity, ref, string, type Schema } from './schema.js';

export const CORE_V1 = 'io.k8s.api.core.v1.';

/** A reference to the core/v1 schema `name`. */
export function coreRef(name: string): Schema {
  return ref(CORE_V1 + name);
}

/** A field of the core/v1 type `name`, with the field’s own description. */
export function coreField(name: string, description: string): Schema {
  return described(coreRef(name), description);
}

export function defineCore(name: string, schema: Schema): void {
  define(CORE_V1 + name, schema);
}

/** A list of strings replaced as a whole by patches. */
export function stringList(description: string): Schema {
  return list(string('One entry.'), description, { listType: 'atomic' });
}

/** A ResourceList: quantities by resource name (`cpu`, `memory`, `storage`, ...). */
export function resourceList(description: string): Schema {
  return map(quantity('A quantity of the resource.'), description);
}

/** A map of strings (selectors, attributes, options). */
export function stringMap(description: string, atomic = false): Schema {
  return map(string('A value.'), description, atomic ? { 'x-kubernetes-map-type': 'atomic' } : {});
}
