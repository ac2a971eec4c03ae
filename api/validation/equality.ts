/**
 * Equality for "did this field change?" checks, in the spirit of Kubernetes' `Semantic.DeepEqual`:
 * an absent field, `null`, an empty list and an empty map are the same thing (they decode to the
 * same Go value), and map key order does not matter.
 *
 * @example
 *   semanticEqual({ a: [], b: 1 }, { b: 1 }) // true
 */

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => semanticEqual(item, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    for (const k of keys) {
      if (!semanticEqual(ra[k], rb[k])) return false;
    }
    return true;
  }
  return a === b;
}
