/**
 * Plain JSON values as structured-merge-diff sees them: equality and a total order over values
 * (numbers compare numerically, then strings, booleans, lists, maps, null, as smd's
 * `value.Compare`), and `goJson`, which encodes a value byte for byte as Go's encoder does (map
 * keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped). Kubernetes renders list keys in
 * managedFields (`k:{"name":"nginx"}`) and the last-applied annotation that way.
 *
 * @example
 *   goJson({ protocol: 'TCP', containerPort: 80 }); // → '{"containerPort":80,"protocol":"TCP"}'
 *   compareJson(9, 10);                             // → -1 (numerically, not as text)
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Orders strings as Go does (by UTF-8 bytes, i.e. by code point), not by UTF-16 code unit. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i += 1;
  }
  return a.length < b.length ? -1 : 1;
}

/** Rank of a value's type in smd's total order. */
function rank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  return v === null ? 5 : 4;
}

export function compareJson(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      const c = compareJson(a[i] as JsonValue, b[i] as JsonValue);
      if (c !== 0) return c;
    }
    return Math.sign(a.length - b.length);
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a).sort(compareStrings);
    const kb = Object.keys(b).sort(compareStrings);
    for (let i = 0; i < Math.min(ka.length, kb.length); i += 1) {
      const k1 = ka[i] as string;
      const k2 = kb[i] as string;
      const c = compareStrings(k1, k2) || compareJson(a[k1] as JsonValue, b[k2] as JsonValue);
      if (c !== 0) return c;
    }
    return Math.sign(ka.length - kb.length);
  }
  return 0;
}

export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i] as JsonValue));
  if (isJsonObject(a) && isJsonObject(b)) {
    // A key set to undefined (as JavaScript code may leave one) is no key at all in JSON.
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => jsonEqual(a[k] as JsonValue, b[k] as JsonValue));
  }
  return false;
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A JSON string literal as Go's HTML-safe encoder writes it; lone surrogates become U+FFFD as invalid UTF-8 would. */
export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i += 1) {
    const ch = s[i] as string;
    const code = s.charCodeAt(i);
    if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) out += '\\u' + code.toString(16).padStart(4, '0');
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += ch + (s[i + 1] as string);
      i += 1;
    } else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** Compact JSON as Go's `encoding/json` writes a decoded document: object keys sorted. */
export function goJson(value: JsonValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return goJsonString(value);
  if (Array.isArray(value)) return '[' + value.map(goJson).join(',') + ']';
  const keys = Object.keys(value).sort(compareStrings);
  return '{' + keys.map((k) => goJsonString(k) + ':' + goJson(value[k] as JsonValue)).join(',') + '}';
}
