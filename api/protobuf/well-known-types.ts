/**
 * Messages whose JSON form is not an object of their fields, as Go's custom marshalers write
 * them: `metav1.Time` and `MicroTime` (RFC 3339, `null` when zero), `Duration` (`"1h2m3s"`),
 * `FieldsV1` (the JSON object in its `Raw` bytes), `runtime.RawExtension` (the embedded JSON),
 * `intstr.IntOrString` (a number or a string) and `resource.Quantity` (its string).
 *
 * @example
 *   wellKnownTypes.get('k8s.io.apimachinery.pkg.apis.meta.v1.Time')?.toJson({ seconds: 1700000000 });
 *   // → '2023-11-14T22:13:20Z'
 */
import { ProtobufError } from './protobuf-error.js';
import { canonicalQuantity } from '../validation/quantity.js';

/** A message as protobufjs decodes it (fields set on the wire are own properties), or one to encode. */
export type ProtoMessage = Record<string, unknown>;

export interface WellKnownType {
  toJson(message: ProtoMessage): unknown;
  fromJson(value: unknown, path: string): ProtoMessage;
  /** Whether JSON `null` is a value of the type (a zero time), rather than an absent field. */
  readonly nullable: boolean;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** An int32 or int64 as protobufjs decodes it: a number, or a Long for int64. */
export function protoNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && 'toNumber' in value && typeof value.toNumber === 'function') return Number(value.toNumber());
  return 0;
}

function protoBigInt(value: unknown): bigint {
  if (typeof value === 'number') return BigInt(value);
  if (typeof value === 'object' && value !== null && 'toString' in value) return BigInt(String(value));
  return 0n;
}

function bytesOf(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? value : new Uint8Array();
}

function typeError(expected: string, value: unknown, path: string): ProtobufError {
  return new ProtobufError(`expected ${expected}, got ${JSON.stringify(value)}`, path);
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

function parseTime(value: unknown, path: string): ProtoMessage {
  const match = typeof value === 'string' ? RFC3339.exec(value) : null;
  const millis = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(millis)) throw typeError('an RFC 3339 time', value, path);
  return { seconds: Math.floor(millis / 1000), nanos: Number((match[2] ?? '').padEnd(9, '0')) };
}

/** Go's `time.RFC3339` (seconds) or `RFC3339Micro` (six fraction digits), always in UTC. */
function formatTime(message: ProtoMessage, fractionDigits: 0 | 6): string | null {
  // Go writes a zero time as an empty message; its JSON is null.
  if (!Object.hasOwn(message, 'seconds') && !Object.hasOwn(message, 'nanos')) return null;
  const seconds = protoNumber(message['seconds']);
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (fractionDigits === 0) return `${base}Z`;
  const micros = Math.floor(protoNumber(message['nanos']) / 1000);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}

function timeType(fractionDigits: 0 | 6): WellKnownType {
  return {
    nullable: true,
    toJson: (message) => formatTime(message, fractionDigits),
    fromJson: (value, path) => (value === null ? {} : parseTime(value, path)),
  };
}

const NANOS: ReadonlyArray<readonly [string, bigint]> = [
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n],
  ['μs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
];
const DURATION = /^[-+]?(?:0|(?:\d*\.?\d+(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const DURATION_PART = /(\d*)(?:\.(\d+))?(ns|us|µs|μs|ms|s|m|h)/g;

/** Go's `time.ParseDuration`, in nanoseconds. */
export function parseGoDuration(text: string): bigint {
  if (!DURATION.test(text)) throw new ProtobufError(`not a Go duration: ${JSON.stringify(text)}`);
  let total = 0n;
  for (const [, whole = '', fraction = '', unit = ''] of text.matchAll(DURATION_PART)) {
    const scale = NANOS.find(([name]) => name === unit)![1];
    total += BigInt(whole || '0') * scale + (BigInt(fraction || '0') * scale) / 10n ** BigInt(fraction.length);
  }
  return text.startsWith('-') ? -total : total;
}

function decimal(value: bigint, scale: bigint): string {
  const whole = value / scale;
  const rest = value % scale;
  if (rest === 0n) return String(whole);
  const digits = String(rest).padStart(String(scale).length - 1, '0').replace(/0+$/, '');
  return `${whole}.${digits}`;
}

/** Go's `time.Duration.String()`: `1h2m3.5s`, `1m30s`, `500ms`, `0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  let rest = nanos < 0n ? -nanos : nanos;
  if (rest < 1_000n) return `${sign}${rest}ns`;
  if (rest < 1_000_000n) return `${sign}${decimal(rest, 1_000n)}µs`;
  if (rest < 1_000_000_000n) return `${sign}${decimal(rest, 1_000_000n)}ms`;
  const hours = rest / 3_600_000_000_000n;
  rest %= 3_600_000_000_000n;
  const minutes = rest / 60_000_000_000n;
  rest %= 60_000_000_000n;
  const h = hours > 0n ? `${hours}h` : '';
  const m = hours > 0n || minutes > 0n ? `${minutes}m` : '';
  return `${sign}${h}${m}${decimal(rest, 1_000_000_000n)}s`;
}

function parseJsonBytes(raw: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    throw new ProtobufError(`${what} does not hold JSON`);
  }
}

const K8S_PREFIX = [0x6b, 0x38, 0x73, 0x00];

export const wellKnownTypes: ReadonlyMap<string, WellKnownType> = new Map<string, WellKnownType>([
  [`${META}.Time`, timeType(0)],
  [`${META}.MicroTime`, timeType(6)],
  [
    `${META}.Duration`,
    {
      nullable: false,
      toJson: (message) => formatGoDuration(protoBigInt(message['duration'])),
      fromJson: (value, path) => {
        if (typeof value !== 'string') throw typeError('a duration string', value, path);
        return { duration: parseGoDuration(value).toString() };
      },
    },
  ],
  [
    `${META}.FieldsV1`,
    {
      nullable: false,
      toJson: (message) => {
        const raw = bytesOf(message['Raw']);
        return raw.length === 0 ? null : parseJsonBytes(raw, 'FieldsV1');
      },
      fromJson: (value, path) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw typeError('a fields object', value, path);
        return { Raw: Buffer.from(JSON.stringify(value)) };
      },
    },
  ],
  [
    'k8s.io.apimachinery.pkg.runtime.RawExtension',
    {
      nullable: true,
      toJson: (message) => {
        const raw = bytesOf(message['raw']);
        if (raw.length === 0) return null;
        // Only a watch event embeds a protobuf object, and the watch codec unwraps it itself.
        if (K8S_PREFIX.every((byte, i) => raw[i] === byte)) throw new ProtobufError('an embedded protobuf object is only allowed in a watch event');
        return parseJsonBytes(raw, 'RawExtension');
      },
      fromJson: (value) => (value === null ? {} : { raw: Buffer.from(JSON.stringify(value)) }),
    },
  ],
  [
    'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
    {
      nullable: false,
      toJson: (message) => (protoNumber(message['type']) === 1 ? String(message['strVal'] ?? '') : protoNumber(message['intVal'])),
      fromJson: (value, path) => {
        if (typeof value === 'string') return { type: 1, strVal: value };
        if (Number.isInteger(value)) return { type: 0, intVal: value };
        throw typeError('an integer or a string', value, path);
      },
    },
  ],
  [
    'k8s.io.apimachinery.pkg.api.resource.Quantity',
    {
      nullable: false,
      // Go always writes the string; "0" is its zero quantity.
      toJson: (message) => (Object.hasOwn(message, 'string') ? String(message['string']) : '0'),
      fromJson: (value, path) => {
        if (typeof value === 'string') return { string: value };
        // A number is a quantity too (`cpu: 0.5`); Go writes it canonical ("500m").
        if (typeof value === 'number') return { string: String(canonicalQuantity(value)) };
        throw typeError('a quantity', value, path);
      },
    },
  ],
]);
