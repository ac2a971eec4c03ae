/**
 * Kubernetes' quantity CEL library (`apiserver/pkg/cel/library/quantity.go`): `quantity()`,
 * `isQuantity()`, `isInteger()`, `asInteger()`, `asApproximateFloat()`, `sign()`, `add()`,
 * `sub()`, `isLessThan()`, `isGreaterThan()`, `compareTo()`. Values are exact (a decimal of any
 * precision); at run time a quantity is the canonical text of its value, so `quantity('1') ==
 * quantity('1000m')`, as kube's semantic equality has it.
 */
import { celError, celFunc, CelScalar, type CelValue } from '@bufbuild/cel';
import { libraryOf, ofString, opaqueMethod } from './declare.js';
import { BOOL, INT, type CelType } from './types.js';

const QUANTITY: CelType = { kind: 'object', name: 'kubernetes.Quantity', fields: {}, max: 0 };

/** digits × 10^-scale, with no trailing zeros in digits unless scale is 0. */
interface Decimal {
  digits: bigint;
  scale: number;
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

function normalize(d: Decimal): Decimal {
  let { digits, scale } = d;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** A quantity's text (kube's grammar: sign, number, then a binary or decimal suffix or an exponent). */
function parse(s: string): Decimal | undefined {
  const m = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(s);
  if (!m) return undefined;
  const [, sign, number, suffix = ''] = m;
  const [whole, fraction = ''] = number!.split('.');
  let value: Decimal = { digits: BigInt((whole || '0') + fraction), scale: fraction.length };
  if (BINARY[suffix] !== undefined) value = { digits: value.digits * 2n ** BigInt(BINARY[suffix]), scale: value.scale };
  else {
    const exponent = DECIMAL[suffix] ?? Number(suffix.slice(1));
    if (Math.abs(exponent) > 1000) return undefined;
    value = { digits: value.digits, scale: value.scale - exponent };
  }
  return normalize(sign === '-' ? { digits: -value.digits, scale: value.scale } : value);
}

function quantity(s: string): Decimal {
  const q = parse(s);
  if (!q) throw celError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  return q;
}

/** The canonical text: the exact value in plain decimals (1, 0.001, 1536). */
function text(d: Decimal): string {
  const negative = d.digits < 0n;
  const abs = (negative ? -d.digits : d.digits).toString().padStart(d.scale + 1, '0');
  const out = d.scale === 0 ? abs : `${abs.slice(0, -d.scale)}.${abs.slice(-d.scale)}`;
  return negative ? `-${out}` : out;
}

function add(a: Decimal, b: Decimal, sign: 1n | -1n): Decimal {
  const scale = Math.max(a.scale, b.scale);
  const up = (d: Decimal): bigint => d.digits * 10n ** BigInt(scale - d.scale);
  return normalize({ digits: up(a) + sign * up(b), scale });
}

function compare(a: Decimal, b: Decimal): number {
  const diff = add(a, b, -1n).digits;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

/** The other operand of add/sub: a quantity (its text) or an int. */
const operand = (v: CelValue): Decimal => (typeof v === 'bigint' ? { digits: v, scale: 0 } : quantity(String(v)));
const isQuantity = (t: CelType): boolean => t.kind === 'dyn' || (t.kind === 'object' && t.name === 'kubernetes.Quantity');
const isQuantityOrInt = (t: CelType): boolean => isQuantity(t) || t.kind === 'int';
const MAX_INT64 = 2n ** 63n - 1n;
const isInt64 = (q: Decimal): boolean => q.scale === 0 && q.digits <= MAX_INT64 && q.digits >= -MAX_INT64 - 1n;

export const quantities = libraryOf([
  [celFunc('quantity', [CelScalar.STRING], CelScalar.STRING, (s) => text(quantity(s))), ofString(QUANTITY)],
  [celFunc('isQuantity', [CelScalar.STRING], CelScalar.BOOL, (s) => parse(s) !== undefined), ofString(BOOL)],
  opaqueMethod(QUANTITY, 'isInteger', [], BOOL, (s) => isInt64(quantity(s))),
  opaqueMethod(QUANTITY, 'asInteger', [], INT, (s) => {
    const q = quantity(s);
    if (!isInt64(q)) throw celError('cannot convert value to integer');
    return q.digits;
  }),
  opaqueMethod(QUANTITY, 'asApproximateFloat', [], { kind: 'double' }, (s) => Number(text(quantity(s)))),
  opaqueMethod(QUANTITY, 'sign', [], INT, (s) => BigInt(compare(quantity(s), { digits: 0n, scale: 0 }))),
  opaqueMethod(QUANTITY, 'add', [isQuantityOrInt], QUANTITY, (s, v) => text(add(quantity(s), operand(v as CelValue), 1n))),
  opaqueMethod(QUANTITY, 'sub', [isQuantityOrInt], QUANTITY, (s, v) => text(add(quantity(s), operand(v as CelValue), -1n))),
  opaqueMethod(QUANTITY, 'isLessThan', [isQuantity], BOOL, (s, v) => compare(quantity(s), operand(v as CelValue)) < 0),
  opaqueMethod(QUANTITY, 'isGreaterThan', [isQuantity], BOOL, (s, v) => compare(quantity(s), operand(v as CelValue)) > 0),
  opaqueMethod(QUANTITY, 'compareTo', [isQuantity], INT, (s, v) => BigInt(compare(quantity(s), operand(v as CelValue)))),
]);
