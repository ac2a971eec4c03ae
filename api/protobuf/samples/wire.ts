/**
 * Hand assembly of protobuf bytes for tests, independent of protobufjs: fields by number, as
 * gogo-protobuf writes them (ascending field numbers, zero values of plain fields included).
 *
 * @example
 *   envelope('v1', 'ConfigMap', message(field(1, message(field(1, 'cm1')))));
 */
type Part = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

/** A length-delimited field: a string, bytes, or an embedded message. */
export function field(number: number, value: string | Part): Part {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Uint8Array.from([...varint((number << 3) | 2), ...varint(bytes.length), ...bytes]);
}

/** A varint field: an int32, int64 or bool. */
export function varintField(number: number, value: number | boolean): Part {
  return Uint8Array.from([...varint(number << 3), ...varint(typeof value === 'boolean' ? Number(value) : value)]);
}

export function message(...parts: Part[]): Part {
  return Buffer.concat(parts);
}

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding, contentType}. */
export function envelope(apiVersion: string, kind: string, raw: Part): Buffer {
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), message(field(1, message(field(1, apiVersion), field(2, kind))), field(2, raw), field(3, ''), field(4, ''))]);
}

/**
 * An ObjectMeta as client-go writes it: every plain field present (empty when unset), the zero
 * creationTimestamp as an empty message, then `later` (fields numbered above 8: labels, ...).
 */
export function clientObjectMeta(name: string, namespace: string, ...later: Part[]): Part {
  return message(field(1, name), field(2, ''), field(3, namespace), field(4, ''), field(5, ''), field(6, ''), varintField(7, 0), field(8, message()), ...later);
}

/** A `map<string, string>` entry. */
export function mapEntry(number: number, key: string, value: string | Part): Part {
  return field(number, message(field(1, key), field(2, value)));
}
