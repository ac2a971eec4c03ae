/**
 * Resource quantities (`500m`, `1.5Gi`, `1e3`) parsed to exact nano-units and printed in
 * Kubernetes' canonical form, so `cpu: 0.5` reads back as `500m` and `memory: 1024Mi` as `1Gi`,
 * as on a real cluster. Values finer than a nano-unit round away from zero, as Kubernetes does.
 *
 * @example
 *   formatQuantity(parseQuantity('0.5')!)   // '500m'
 *   formatQuantity(parseQuantity('1024Mi')!) // '1Gi'
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  nanos: bigint;
  /** How the value was written; canonical printing keeps binary suffixes binary. */
  format: QuantityFormat;
}

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const QUANTITY_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
/** Exponents beyond this are refused rather than turned into enormous integers. */
const MAX_EXPONENT = 100;
const NANO = 10n ** 9n;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** `n / d`, rounded away from zero. */
function divideAway(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d === 0n ? q : q + (n < 0n ? -1n : 1n);
}

/** Parses a quantity; undefined when it is not one. */
export function parseQuantity(input: string | number): Quantity | undefined {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input;
  const match = QUANTITY_RE.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', suffix = ''] = match;
  if (whole === '' && fraction === '') return undefined;

  let format: QuantityFormat = 'DecimalSI';
  let exponent10 = 0;
  let binaryPower = 0;
  if (suffix in DECIMAL_SUFFIXES) {
    exponent10 = DECIMAL_SUFFIXES[suffix]!;
  } else if (BINARY_SUFFIXES.includes(suffix)) {
    format = 'BinarySI';
    binaryPower = BINARY_SUFFIXES.indexOf(suffix);
  } else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
    format = 'DecimalExponent';
    exponent10 = Number(suffix.slice(1));
    if (Math.abs(exponent10) > MAX_EXPONENT) return undefined;
  } else {
    return undefined;
  }

  const mantissa = BigInt(`${whole}${fraction}` || '0') * 1024n ** BigInt(binaryPower);
  const shift = exponent10 + 9 - fraction.length;
  const magnitude = shift >= 0 ? mantissa * pow10(shift) : divideAway(mantissa, pow10(-shift));
  return { nanos: sign === '-' ? -magnitude : magnitude, format };
}

function formatBinary(units: bigint): string {
  let value = units;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
    value /= 1024n;
    power += 1;
  }
  return `${value}${BINARY_SUFFIXES[power]}`;
}

/** value = mantissa * 10^exponent with the exponent a multiple of 3 and no trailing zeros beyond it. */
function formatDecimal(nanos: bigint, format: QuantityFormat): string {
  let mantissa = nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  const excess = ((exponent % 3) + 3) % 3;
  mantissa *= pow10(excess);
  exponent -= excess;
  if (format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  const suffix = Object.entries(DECIMAL_SUFFIXES).find(([, e]) => e === exponent)?.[0];
  return suffix === undefined ? `${mantissa}e${exponent}` : `${mantissa}${suffix}`;
}

/** The canonical text of a quantity, as Kubernetes serializes it. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  // Small or fractional binary values print in decimal so no precision is lost.
  const binary = q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n;
  const text = binary ? formatBinary(abs / NANO) : formatDecimal(abs, q.format === 'BinarySI' ? 'DecimalSI' : q.format);
  return negative ? `-${text}` : text;
}

/** The canonical form of a quantity as written by a client, or the input unchanged if it is not one. */
export function canonicalQuantity<T extends string | number>(input: T): string | T {
  const q = parseQuantity(input);
  return q ? formatQuantity(q) : input;
}

/** Canonicalizes every quantity of a resource map in place. */
export function canonicalizeResourceList(list: Record<string, string | number> | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) list![name] = canonicalQuantity(value);
}

/** Nano-units of a quantity known to be valid, 0 if it is not. */
export function quantityNanos(input: string | number | undefined): bigint {
  return input === undefined ? 0n : (parseQuantity(input)?.nanos ?? 0n);
}
