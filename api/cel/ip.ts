/**
 * Kubernetes' IP and CIDR CEL libraries (`apiserver/pkg/cel/library/ip.go`, `cidr.go`): `ip()`,
 * `isIP()`, `family()`, `isUnspecified()`, `isLoopback()`, `isLinkLocalMulticast()`,
 * `isLinkLocalUnicast()`, `isGlobalUnicast()`, `cidr()`, `isCIDR()`, `containsIP()`,
 * `containsCIDR()`, `ip()` of a CIDR, `masked()`, `prefixLength()`, and `string()` of both. As
 * Go's netip does, addresses with a zone or IPv4-mapped IPv6 are refused. At run time an address
 * is its canonical text, so equal addresses compare equal.
 */
import { celError, celFunc, CelScalar, type CelValue } from '@bufbuild/cel';
import { libraryOf, ofString, opaqueMethod, type Declaration } from './declare.js';
import { BOOL, INT, STRING, type CelType } from './types.js';

const IP_TYPE: CelType = { kind: 'object', name: 'net.IP', fields: {}, max: 0 };
const CIDR_TYPE: CelType = { kind: 'object', name: 'net.CIDR', fields: {}, max: 0 };

interface Address {
  bytes: number[];
  v4: boolean;
}

function parseV4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return undefined;
  return parts.map(Number);
}

function parseV6(s: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseV4(p);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(parseInt(p, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail].flatMap((g) => [g >> 8, g & 0xff]);
}

function parseAddress(s: string): Address | undefined {
  const v4 = parseV4(s);
  if (v4) return { bytes: v4, v4: true };
  const v6 = parseV6(s);
  return v6 ? { bytes: v6, v4: false } : undefined;
}

const isV4Mapped = (a: Address): boolean => !a.v4 && a.bytes.slice(0, 10).every((b) => b === 0) && a.bytes[10] === 0xff && a.bytes[11] === 0xff;

/** Go's netip text: dotted IPv4; IPv6 lower case with the longest run of zero groups as `::`. */
function formatAddress(a: Address): string {
  if (a.v4) return a.bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (a.bytes[2 * i]! << 8) | a.bytes[2 * i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(':');
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

function address(s: string): Address {
  if (s.includes('%')) throw celError(`IP Address with zone value is not allowed`);
  const a = parseAddress(s);
  if (!a) throw celError(`IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`);
  if (isV4Mapped(a)) throw celError(`IPv4-mapped IPv6 address "${s}" is not allowed`);
  return a;
}

interface Prefix {
  addr: Address;
  bits: number;
}

function prefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  const bits = slash < 0 ? NaN : Number(s.slice(slash + 1));
  const addr = slash < 0 ? undefined : parseAddress(s.slice(0, slash));
  if (!addr || !/^\d+$/.test(s.slice(slash + 1)) || bits > addr.bytes.length * 8 || s.includes('%')) {
    throw celError(`network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad prefix`);
  }
  if (isV4Mapped(addr)) throw celError(`IPv4-mapped IPv6 address "${s}" is not allowed`);
  return { addr, bits };
}

const masked = (a: Address, bits: number): Address => ({ ...a, bytes: a.bytes.map((b, i) => (i * 8 >= bits ? 0 : i * 8 + 8 <= bits ? b : b & (0xff << (8 - (bits - i * 8))) & 0xff)) });

const contains = (p: Prefix, a: Address): boolean => p.addr.v4 === a.v4 && formatAddress(masked(a, p.bits)) === formatAddress(masked(p.addr, p.bits));

const valid = (parse: (s: string) => unknown) => (s: string): boolean => {
  try {
    parse(s);
    return true;
  } catch {
    return false;
  }
};

const isType = (name: string) => (t: CelType): boolean => t.kind === 'dyn' || (t.kind === 'object' && t.name === name);
const isIPOrString = (t: CelType): boolean => isType('net.IP')(t) || t.kind === 'string';
const isCIDROrString = (t: CelType): boolean => isType('net.CIDR')(t) || t.kind === 'string';

const ipCheck = (name: string, test: (a: Address) => boolean) => opaqueMethod(IP_TYPE, name, [], BOOL, (s) => test(address(s)));
const inV4 = (a: Address, first: number, mask: number, second?: number): boolean => a.v4 && (a.bytes[0]! & mask) === first && (second === undefined || a.bytes[1] === second);
const isLoopback = (a: Address): boolean => (a.v4 ? a.bytes[0] === 127 : formatAddress(a) === '::1');
const isLinkLocalUnicast = (a: Address): boolean => (a.v4 ? inV4(a, 169, 0xff, 254) : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80);
const isMulticast = (a: Address): boolean => (a.v4 ? inV4(a, 224, 0xf0) : a.bytes[0] === 0xff);
const isUnspecified = (a: Address): boolean => a.bytes.every((b) => b === 0);

/** `string()` of an address or a CIDR: their text (the standard declarations take the rest). */
const stringOf: Declaration = (t, a) => (!t && a.length === 1 && a[0]!.kind === 'object' && (a[0]!.name === 'net.IP' || a[0]!.name === 'net.CIDR') ? STRING : undefined);

export const ipAddresses = libraryOf([
  [celFunc('ip', [CelScalar.STRING], CelScalar.STRING, (s) => formatAddress(address(s))), ofString(IP_TYPE)],
  [celFunc('isIP', [CelScalar.STRING], CelScalar.BOOL, valid(address)), ofString(BOOL)],
  opaqueMethod(IP_TYPE, 'family', [], INT, (s) => (address(s).v4 ? 4n : 6n)),
  ipCheck('isUnspecified', isUnspecified),
  ipCheck('isLoopback', isLoopback),
  ipCheck('isLinkLocalMulticast', (a) => (a.v4 ? inV4(a, 224, 0xff, 0) && a.bytes[2] === 0 : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02)),
  ipCheck('isLinkLocalUnicast', isLinkLocalUnicast),
  ipCheck('isGlobalUnicast', (a) => !(a.v4 && a.bytes.every((b) => b === 255)) && !isUnspecified(a) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a)),
  [celFunc('cidr', [CelScalar.STRING], CelScalar.STRING, (s) => {
    const p = prefix(s);
    return `${formatAddress(p.addr)}/${p.bits}`;
  }), ofString(CIDR_TYPE)],
  [celFunc('isCIDR', [CelScalar.STRING], CelScalar.BOOL, valid(prefix)), ofString(BOOL)],
  opaqueMethod(CIDR_TYPE, 'containsIP', [isIPOrString], BOOL, (s, ip) => contains(prefix(s), address(String(ip as CelValue)))),
  opaqueMethod(CIDR_TYPE, 'containsCIDR', [isCIDROrString], BOOL, (s, other) => {
    const outer = prefix(s);
    const inner = prefix(String(other as CelValue));
    return inner.bits >= outer.bits && contains(outer, inner.addr);
  }),
  opaqueMethod(CIDR_TYPE, 'ip', [], IP_TYPE, (s) => formatAddress(prefix(s).addr)),
  opaqueMethod(CIDR_TYPE, 'masked', [], CIDR_TYPE, (s) => {
    const p = prefix(s);
    return `${formatAddress(masked(p.addr, p.bits))}/${p.bits}`;
  }),
  opaqueMethod(CIDR_TYPE, 'prefixLength', [], INT, (s) => BigInt(prefix(s).bits)),
]);
// At run time both are their text already, which the standard `string()` returns as it is.
ipAddresses.declarations.string = stringOf;
