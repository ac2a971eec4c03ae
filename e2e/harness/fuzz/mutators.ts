/**
 * Body mutations for the fuzz generator. A body starts as a value (a manifest or a patch), may be
 * mutated as a value (type swaps, dropped or odd fields, huge keys, many keys, strange
 * characters, a hole for deep nesting), is serialized (JSON, YAML or protobuf), then may be
 * mutated as bytes (truncation, duplicate keys, flipped bytes). Every body stays under
 * `MAX_BODY_BYTES`; each mutation names itself in the request's tags, so a failure says what
 * made the body odd.
 */
import { stringify as toYaml } from 'yaml';
import { encodeObject, hasProtobufForm, typeMetaOf } from '../../../api/protobuf/codec.js';
import type { Obj } from './corpus.js';
import type { Prng } from './prng.js';

/** 3.5 MiB: above the server's 3 MiB limit, so the limit itself is exercised too. */
export const MAX_BODY_BYTES = 3.5 * 1024 * 1024;

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

/** Stands where deep nesting goes; replaced in the serialized text (serializers would recurse). */
const HOLE = '__fuzz_hole__';

const ODD_STRINGS = ['', ' ', '\u0000', 'a\u0001b', '\ud800', '\uffff', '\u202eabc', '😀'.repeat(50), 'ä', '\\', '"', "'", '${x}', '*', '..', '/', '%2F', 'a\nb: c', '- x', '&a', '!!binary x', '0x10', '1e999', 'null', 'true', '~'];
const ODD_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, '', [], {}, [null], { '': '' }, 'x'.repeat(5000), ...ODD_STRINGS];

/** A copy of an odd value: the shared `{}` and `[]` would otherwise be mutated later, even set into themselves (a cycle). */
function oddValue(r: Prng): unknown {
  return structuredClone(r.pick(ODD_VALUES));
}

type Container = Obj | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

/** Every container inside `value` (itself included), with a bound on how many are visited. */
function containers(value: unknown, out: Container[] = [], limit = 500): Container[] {
  if (!isContainer(value) || out.length >= limit) return out;
  out.push(value);
  for (const child of Object.values(value)) containers(child, out, limit);
  return out;
}

/** Sets `key` of a random container in `value` (arrays get an index). */
function setSomewhere(r: Prng, value: unknown, make: (key: string) => [string, unknown]): void {
  const target = r.pick(containers(value));
  if (Array.isArray(target)) {
    const [, v] = make('0');
    target[target.length === 0 ? 0 : r.int(target.length)] = v;
  } else {
    const [k, v] = make(r.pick(Object.keys(target).length > 0 && r.chance(0.6) ? Object.keys(target) : ['name', 'x', 'spec', 'metadata']));
    target[k] = v;
  }
}

/** Value-level mutations; each returns its tag. `value` is changed in place. */
const VALUE_MUTATIONS: Array<[string, (r: Prng, value: Obj) => void]> = [
  ['type-swap', (r, v) => setSomewhere(r, v, (k) => [k, oddValue(r)])],
  ['odd-string', (r, v) => setSomewhere(r, v, (k) => [r.chance(0.5) ? r.pick(ODD_STRINGS) : k, r.pick(ODD_STRINGS)])],
  ['drop-field', (r, v) => void delete v[r.pick(['apiVersion', 'kind', 'metadata', 'spec', 'data'])]],
  ['odd-metadata', (r, v) => void (v.metadata = { ...(isContainer(v.metadata) ? v.metadata : {}), [r.pick(['name', 'namespace', 'tenant', 'uid', 'resourceVersion', 'labels', 'creationTimestamp', 'deletionTimestamp', 'managedFields', 'generation'])]: oddValue(r) })],
  ['huge-key', (r, v) => setSomewhere(r, v, () => [r.pick(['k', 'é', '\u0001']).repeat(r.pick([1024, 65536, 1024 * 1024])), 'v'])],
  ['huge-value', (r, v) => setSomewhere(r, v, (k) => [k, 'v'.repeat(r.pick([65536, 1024 * 1024, 3 * 1024 * 1024 + 10]))])],
  ['many-keys', (r, v) => setSomewhere(r, v, (k) => [k, Object.fromEntries(Array.from({ length: r.pick([1000, 10_000, 50_000]) }, (_, i) => [`k${i}`, String(i)]))])],
  ['long-array', (r, v) => setSomewhere(r, v, (k) => [k, Array.from({ length: r.pick([1000, 10_000, 100_000]) }, (_, i) => (r.chance(0.5) ? i : { name: `n${i}` }))])],
  ['deep-nesting', (r, v) => setSomewhere(r, v, (k) => [k, HOLE])],
];

/** Text of `depth` nested arrays or objects, in JSON (also valid YAML flow style). */
function deepText(r: Prng): string {
  const depth = r.pick([100, 1000, 10_000, 100_000]);
  return r.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function serialize(r: Prng, value: unknown, format: BodyFormat, tags: string[]): Buffer {
  if (format === 'protobuf') {
    const type = typeMetaOf(value);
    if (type && hasProtobufForm(type)) {
      try {
        return encodeObject(value as Parameters<typeof encodeObject>[0]);
      } catch {
        tags.push('protobuf-unencodable');
      }
    }
    // No protobuf form for this value: an envelope around random bytes instead.
    return Buffer.concat([Buffer.from('k8s\0'), Buffer.from(Array.from({ length: r.int(64) }, () => r.int(256)))]);
  }
  let text = format === 'json' ? JSON.stringify(value, null, r.chance(0.2) ? 2 : undefined) : toYaml(value, { lineWidth: 0 });
  if (text.includes(HOLE)) text = text.replace(format === 'json' ? `"${HOLE}"` : HOLE, deepText(r));
  return Buffer.from(text, 'utf8');
}

/** Byte-level mutations; each returns its tag. */
const BYTE_MUTATIONS: Array<[string, (r: Prng, body: Buffer, format: BodyFormat) => Buffer]> = [
  ['truncate', (r, b) => b.subarray(0, r.int(Math.max(1, b.length)))],
  ['duplicate-keys', (r, b, f) => {
    const dup = f === 'yaml' ? 'kind: Dup\nkind: Dup2\n' : '{"kind":"A","kind":"B",';
    return f === 'yaml' ? Buffer.concat([Buffer.from(dup), b]) : Buffer.concat([Buffer.from(dup), b.subarray(1)]);
  }],
  ['flip-bytes', (r, b) => {
    const out = Buffer.from(b);
    for (let i = 0; i < 1 + r.int(8) && out.length > 0; i++) out[r.int(out.length)] = r.int(256);
    return out;
  }],
  ['append-garbage', (r, b) => Buffer.concat([b, Buffer.from(r.pick(['}', ']]]', '\u0000', '\n---\nkind: X\n', 'garbage', '\xff\xfe']), 'latin1')])],
  ['bom', (r, b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
  ['utf16', (r, b) => Buffer.from(b.toString('utf8'), 'utf16le')],
];

/** Serializes `value` in `format`, when `mutate` mutated as a value and as bytes; records tags. */
export function encodeBody(r: Prng, value: Obj | unknown[], format: BodyFormat, mutate: boolean, tags: string[]): Buffer {
  if (!mutate) return serialize(r, value, format, tags);
  const copy = structuredClone(value);
  const valueMutations = r.weighted<number>([[3, 0], [5, 1], [2, 2]]);
  for (let i = 0; i < valueMutations; i++) {
    const [tag, mutate] = r.pick(VALUE_MUTATIONS);
    if (!Array.isArray(copy)) mutate(r, copy);
    else setSomewhere(r, copy, (k) => [k, oddValue(r)]);
    tags.push(tag);
  }
  let body = serialize(r, copy, format, tags);
  if (r.chance(0.3)) {
    const [tag, mutate] = r.pick(BYTE_MUTATIONS);
    body = mutate(r, body, format);
    tags.push(tag);
  }
  if (body.length > MAX_BODY_BYTES) {
    body = body.subarray(0, MAX_BODY_BYTES);
    tags.push('cut-to-limit');
  }
  return body;
}

/** A body that is not any format: random bytes or text of a random length. */
export function garbageBody(r: Prng): Buffer {
  const length = r.pick([0, 1, 10, 1000, 100_000]);
  return r.chance(0.5) ? Buffer.from(Array.from({ length }, () => r.int(256))) : Buffer.from(r.string(length, 'ab{}[]":,\n -#&*!|>%@`\\'));
}
