/**
 * One step of a field path, as structured-merge-diff names it: a struct field or map key
 * (`f:replicas`), the key of an item in a map-type list (`k:{"name":"nginx"}`), a set-list item
 * (`v:"example.com/fin"`) or a list index (`i:0`, which Kubernetes' schemas never produce).
 * The serialized form is also the element's identity; `pathToString` renders a path the way
 * conflicts name fields (`.spec.template.spec.containers[name="nginx"].image`).
 *
 * @example
 *   serializePathElement({ key: [['containerPort', 80], ['protocol', 'TCP']] }); // → 'k:{"containerPort":80,"protocol":"TCP"}'
 *   pathToString([{ field: 'spec' }, { field: 'replicas' }]);                   // → '.spec.replicas'
 */
import { compareJson, compareStrings, goJson, goJsonString, isJsonObject, type JsonValue } from './json-value.js';

/** A list key: the key fields of one item, sorted by name. */
export type KeyFields = ReadonlyArray<readonly [string, JsonValue]>;

export type PathElement = { readonly field: string } | { readonly key: KeyFields } | { readonly value: JsonValue } | { readonly index: number };

export type FieldPath = readonly PathElement[];

/** Field names sort before keys, keys before values, values before indexes (smd's `PathElement.Compare`). */
function order(pe: PathElement): number {
  return 'field' in pe ? 0 : 'key' in pe ? 1 : 'value' in pe ? 2 : 3;
}

function compareKeys(a: KeyFields, b: KeyFields): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const [an, av] = a[i] as readonly [string, JsonValue];
    const [bn, bv] = b[i] as readonly [string, JsonValue];
    const c = compareStrings(an, bn) || compareJson(av, bv);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

export function comparePathElements(a: PathElement, b: PathElement): number {
  const oa = order(a);
  const ob = order(b);
  if (oa !== ob) return oa < ob ? -1 : 1;
  if ('field' in a && 'field' in b) return compareStrings(a.field, b.field);
  if ('key' in a && 'key' in b) return compareKeys(a.key, b.key);
  if ('value' in a && 'value' in b) return compareJson(a.value, b.value);
  if ('index' in a && 'index' in b) return Math.sign(a.index - b.index);
  return 0;
}

/** A key element from an item's key fields, in Kubernetes' order (by field name). */
export function keyElement(fields: Iterable<readonly [string, JsonValue]>): PathElement {
  return { key: [...fields].sort((x, y) => compareStrings(x[0], y[0])) };
}

export function serializePathElement(pe: PathElement): string {
  if ('field' in pe) return 'f:' + pe.field;
  if ('key' in pe) return 'k:{' + pe.key.map(([name, v]) => goJsonString(name) + ':' + goJson(v)).join(',') + '}';
  if ('value' in pe) return 'v:' + goJson(pe.value);
  return 'i:' + String(pe.index);
}

/**
 * The element a FieldsV1 key names; undefined for a type this version does not know (Kubernetes
 * skips those). Throws on a malformed key of a known type.
 */
export function parsePathElement(s: string): PathElement | undefined {
  if (s.length < 2 || s[1] !== ':') throw new Error(`invalid path element ${JSON.stringify(s)}: missing colon`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: body };
    case 'v':
      return { value: JSON.parse(body) as JsonValue };
    case 'k': {
      const parsed: unknown = JSON.parse(body);
      if (!isJsonObject(parsed)) throw new Error(`invalid path element ${JSON.stringify(s)}: key is not an object`);
      return keyElement(Object.entries(parsed));
    }
    case 'i': {
      if (!/^-?\d+$/.test(body)) throw new Error(`invalid path element ${JSON.stringify(s)}: bad index`);
      return { index: Number(body) };
    }
    default:
      return undefined;
  }
}

/** Go's `%v` of a value inside a rendered path: strings quoted, the rest as JSON. */
function valueString(v: JsonValue): string {
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return '[' + v.map(valueString).join(',') + ']';
  if (isJsonObject(v)) return Object.entries(v).map(([k, x]) => `${k}=${valueString(x)}`).join('');
  return JSON.stringify(v);
}

const GO_QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"', '\\': '\\\\', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v',
};

/** What Go's `%q` escapes: quotes, backslashes and every rune unicode.IsPrint refuses (not a letter, mark, number, punctuation, symbol or the ASCII space). */
const GO_QUOTED = /["\\]|[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu;

function goEscapeRune(ch: string): string {
  const named = GO_QUOTE_ESCAPES[ch];
  if (named !== undefined) return named;
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return '\\x' + code.toString(16).padStart(2, '0');
  // A lone surrogate is what Go decodes as the replacement character.
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  if (code < 0x10000) return '\\u' + code.toString(16).padStart(4, '0');
  return '\\U' + code.toString(16).padStart(8, '0');
}

/** Go's `%q` (strconv.Quote), as field paths and manager names are quoted in messages. One native scan: keys may be a megabyte long. */
export function goQuote(s: string): string {
  return `"${s.replace(GO_QUOTED, goEscapeRune)}"`;
}

export function pathElementString(pe: PathElement): string {
  if ('field' in pe) return '.' + pe.field;
  if ('key' in pe) return '[' + pe.key.map(([name, v]) => `${name}=${valueString(v)}`).join(',') + ']';
  if ('value' in pe) return `[=${valueString(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathToString(path: FieldPath): string {
  return path.map(pathElementString).join('');
}
