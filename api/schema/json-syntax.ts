/**
 * A validating scan of JSON text, run before `JSON.parse` on every JSON request body. It bounds
 * nesting (our recursive walks run on JavaScript's fixed stack), words syntax errors as Go's
 * encoding/json scanner does (kube-apiserver's decoders answer with those, not V8's text) and
 * finds duplicate keys, which parsing would merge. One linear pass.
 *
 * @example
 *   scanJson('{"ab').error                 // 'unexpected end of JSON input'
 *   scanJson('{"a":x}').error              // "invalid character 'x' looking for beginning of value"
 *   scanJson('[[1]]', 1).error             // "invalid character '[' exceeded max depth"
 *   scanJson('{"a":1,"a":2}')              // { error: undefined, duplicateFields: ['a'] }
 */

/**
 * Containers a body may nest. Go's decoder allows 10000; ours walk bodies recursively on a fixed
 * stack (and the YAML composer overflows near 800), so the bound is lower, far above what real
 * manifests need (a deep CRD schema nests below 50).
 */
export const MAX_BODY_DEPTH = 500;

/**
 * Keys one object (or YAML mapping) of a body may hold. Go's decoder has no bound, but V8 turns
 * a large object into a hash table whose build grows faster than its size: 100,000 keys in one
 * object parse in ~170 ms, while 3 MiB of objects of up to 10,000 keys parse within ~80 ms. No
 * manifest needs more (labels and annotations are capped by size far below, a ConfigMap's data
 * by 1 MiB).
 */
export const MAX_OBJECT_KEYS = 10_000;

/** Go-like wording for an object over MAX_OBJECT_KEYS, by its path (empty at the top level). */
export function tooManyKeysMessage(path: string): string {
  return `object ${path === '' ? 'at the top level' : `"${path}"`} has more than ${MAX_OBJECT_KEYS} keys`;
}

const OBJECT = 1;
const ARRAY = 2;

/** What the scan expects next, named after the states of Go's scanner. */
type Expect = 'value' | 'valueOrEnd' | 'key' | 'keyOrEnd' | 'afterValue';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar: the offending byte as Go prints it ('x', '\'', '"', '\x01', '\n'). */
export function goQuoteChar(text: string, at: number): string {
  const code = text.codePointAt(at)!;
  if (code === 0x27) return `'\\''`;
  if (code === 0x22) return `'"'`;
  // Go sees the first byte of the UTF-8 sequence, printed as the rune of that byte's value.
  const byte = code < 0x80 ? code : Buffer.from(String.fromCodePoint(code), 'utf8')[0]!;
  const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };
  if (named[byte] !== undefined) return `'${named[byte]}'`;
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`;
  if (byte >= 0x80 && (byte < 0xa0 || byte === 0xad)) return `'\\u00${byte.toString(16)}'`;
  return `'${String.fromCharCode(byte)}'`;
}

/** What one scan of a JSON text found. */
/** The word Go's encoding/json uses for a decoded JSON value in its UnmarshalTypeError (object, array, string, number, bool, null). */
export function goJsonValueName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

export interface JsonScan {
  /** Go's message for the first error, or undefined when the text is one valid JSON value. */
  error: string | undefined;
  /**
   * Keys that appear twice in one object, by path (`metadata.name`, `spec.containers[1].image`).
   * JSON.parse keeps the last value silently; kube-apiserver's strict decoder reports each as
   * `duplicate field "<path>"` (400 under fieldValidation=Strict, a warning under Warn).
   */
  duplicateFields: string[];
}

/**
 * Scans `text` once: syntax, nesting and duplicate keys. Per open container it keeps its kind, the
 * object's keys so far (a set allocated per object) or the array's index.
 */
export function scanJson(text: string, maxDepth = MAX_BODY_DEPTH): JsonScan {
  const duplicateFields: string[] = [];
  const result = (error: string | undefined): JsonScan => ({ error, duplicateFields });
  const stack = new Uint8Array(maxDepth + 1);
  const keys: Array<Set<string> | undefined> = [];
  const names: string[] = [];
  const indices: number[] = [];
  /** The path of the value being read, or of its container's first `levels` levels. */
  const path = (levels = keys.length): string => {
    let out = '';
    for (let d = 0; d < levels; d += 1) out += stack[d] === OBJECT ? (out === '' && d === 0 ? names[d] : `.${names[d]}`) : `[${indices[d]}]`;
    return out;
  };
  let depth = 0;
  let expect: Expect = 'value';
  const fail = (at: number, context: string): JsonScan => result(`invalid character ${goQuoteChar(text, at)} ${context}`);
  const close = (): void => {
    depth -= 1;
    keys.length = depth;
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i += 1;
      continue;
    }
    if (expect === 'afterValue') {
      if (depth === 0) return fail(i, 'after top-level value');
      if (stack[depth - 1] === OBJECT) {
        if (c === 0x2c) expect = 'key';
        else if (c === 0x7d) close();
        else return fail(i, 'after object key:value pair');
      } else {
        if (c === 0x2c) {
          expect = 'value';
          indices[depth - 1]! += 1;
        } else if (c === 0x5d) close();
        else return fail(i, 'after array element');
      }
      i += 1;
      continue;
    }
    if (expect === 'key' || expect === 'keyOrEnd') {
      if (c === 0x7d && expect === 'keyOrEnd') {
        close();
        expect = 'afterValue';
        i += 1;
        continue;
      }
      if (c !== 0x22) return fail(i, 'looking for beginning of object key string');
      const end = scanString(text, i);
      if (typeof end === 'string') return result(end);
      const raw = text.slice(i + 1, end - 1);
      // The string is valid JSON now; only escaped keys need decoding.
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      const seen = keys[depth - 1]!;
      names[depth - 1] = key;
      if (seen.has(key)) duplicateFields.push(path());
      else if (seen.size === MAX_OBJECT_KEYS) return result(tooManyKeysMessage(path(depth - 1)));
      else seen.add(key);
      i = end;
      while (i < n && isSpace(text.charCodeAt(i))) i += 1;
      if (i >= n) break;
      if (text.charCodeAt(i) !== 0x3a) return fail(i, 'after object key');
      expect = 'value';
      i += 1;
      continue;
    }
    // A value (or, right after '[', the end of an empty array).
    if (c === 0x5d && expect === 'valueOrEnd') {
      close();
      expect = 'afterValue';
      i += 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth === maxDepth) return fail(i, 'exceeded max depth');
      stack[depth] = c === 0x7b ? OBJECT : ARRAY;
      keys[depth] = c === 0x7b ? new Set() : undefined;
      indices[depth] = 0;
      depth += 1;
      expect = c === 0x7b ? 'keyOrEnd' : 'valueOrEnd';
      i += 1;
      continue;
    }
    const end = c === 0x22 ? scanString(text, i) : c === 0x2d || isDigit(c) ? scanNumber(text, i) : c === 0x74 ? scanLiteral(text, i, 'true') : c === 0x66 ? scanLiteral(text, i, 'false') : c === 0x6e ? scanLiteral(text, i, 'null') : `invalid character ${goQuoteChar(text, i)} looking for beginning of value`;
    if (typeof end === 'string') return result(end);
    i = end;
    expect = 'afterValue';
  }
  return result(expect === 'afterValue' && depth === 0 ? undefined : 'unexpected end of JSON input');
}

/** The index after the string starting at `start` (a quote), or Go's error message. */
function scanString(text: string, start: number): number | string {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return `invalid character ${goQuoteChar(text, i)} in string literal`;
    if (c === 0x5c) {
      i += 1;
      if (i >= n) break;
      const e = text.charCodeAt(i);
      if (e === 0x75) {
        for (let k = 1; k <= 4; k += 1) {
          if (i + k >= n) return 'unexpected end of JSON input';
          if (!isHex(text.charCodeAt(i + k))) return `invalid character ${goQuoteChar(text, i + k)} in \\u hexadecimal character escape`;
        }
        i += 4;
      } else if (!'"\\/bfnrt'.includes(text[i]!)) {
        return `invalid character ${goQuoteChar(text, i)} in string escape code`;
      }
    }
    i += 1;
  }
  return 'unexpected end of JSON input';
}

/** The index after the number starting at `start`, or Go's error message. */
function scanNumber(text: string, start: number): number | string {
  const n = text.length;
  let i = start;
  const digits = (): void => {
    while (i < n && isDigit(text.charCodeAt(i))) i += 1;
  };
  const need = (context: string): string | undefined => {
    if (i >= n) return 'unexpected end of JSON input';
    return isDigit(text.charCodeAt(i)) ? undefined : `invalid character ${goQuoteChar(text, i)} ${context}`;
  };
  if (text.charCodeAt(i) === 0x2d) {
    i += 1;
    const err = need('in numeric literal');
    if (err) return err;
  }
  if (text.charCodeAt(i) === 0x30) i += 1;
  else digits();
  if (i < n && text.charCodeAt(i) === 0x2e) {
    i += 1;
    const err = need('after decimal point in numeric literal');
    if (err) return err;
    digits();
  }
  if (i < n && (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45)) {
    i += 1;
    if (i < n && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i += 1;
    const err = need('in exponent of numeric literal');
    if (err) return err;
    digits();
  }
  return i;
}

/** The index after `word` at `start`, or Go's error message naming the letter it expected. */
function scanLiteral(text: string, start: number, word: 'true' | 'false' | 'null'): number | string {
  for (let k = 1; k < word.length; k += 1) {
    const i = start + k;
    if (i >= text.length) return 'unexpected end of JSON input';
    if (text[i] !== word[k]) return `invalid character ${goQuoteChar(text, i)} in literal ${word} (expecting '${word[k]}')`;
  }
  return start + word.length;
}
