/**
 * The Kubernetes CEL libraries `@bufbuild/cel` lacks, as kube-apiserver enables them for CRD
 * rules (`apiserver/pkg/cel/library`): lists (`isSorted`, `sum`, `min`, `max`, `indexOf`,
 * `lastIndexOf`), URLs (`url`, `isURL`, `getScheme`, `getHost`, `getHostname`, `getPort`,
 * `getEscapedPath`, `getQuery`), IP addresses and CIDRs (`ip.ts`), quantities (`quantity.ts`) and
 * optionals (`optional.ts`). Each function has a
 * runtime implementation registered with the library and a declaration our checker reads, which
 * keeps types the runtime cannot tell apart (a URL is a string when it runs) distinct at compile
 * time.
 */
import { celError, celFunc, celList, celMap, celMethod, CelScalar, listType, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';
import { libraryOf, ofString, opaqueMethod, type Declaration, type Library } from './declare.js';
import { authorizerLibrary } from './authorizer.js';
import { ipAddresses } from './ip.js';
import { optionals } from './optional.js';
import { quantities } from './quantity.js';
import { BOOL, DYN, STRING, maxSize, type CelType } from './types.js';

const COMPARABLE = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration', 'dyn']);
const SUMMABLE = new Set(['int', 'uint', 'double', 'duration', 'dyn']);

function compare(a: CelValue, b: CelValue): number {
  if (typeof a === 'bigint' || typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean') return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  throw celError(`no such overload: compare ${typeof a}`);
}

function items(list: CelList): CelValue[] {
  const out: CelValue[] = [];
  for (const v of list) out.push(v);
  return out;
}

const listMethod = (args: CelType[], elems: Set<string>, result: (elem: CelType) => CelType): Declaration => (target, given) =>
  target?.kind === 'list' && elems.has(target.elem.kind) && given.length === args.length ? result(target.elem) : target?.kind === 'dyn' && given.length === args.length ? DYN : undefined;

const lists: Library = {
  funcs: [
    celMethod('isSorted', listType(CelScalar.DYN), [], CelScalar.BOOL, function () {
      const xs = items(this);
      return xs.every((x, i) => i === 0 || compare(xs[i - 1]!, x) <= 0);
    }),
    celMethod('sum', listType(CelScalar.DYN), [], CelScalar.DYN, function () {
      const xs = items(this);
      // An empty list sums to zero of its type; without one, an int zero (as a dyn list does in kube).
      if (xs.length === 0) return 0n;
      return xs.reduce((a, b) => (typeof a === 'bigint' && typeof b === 'bigint' ? a + b : Number(a) + Number(b)));
    }),
    ...(['min', 'max'] as const).map((name) =>
      celMethod(name, listType(CelScalar.DYN), [], CelScalar.DYN, function () {
        const xs = items(this);
        if (xs.length === 0) throw celError(`${name} called on empty list`);
        return xs.reduce((a, b) => ((name === 'min' ? compare(b, a) < 0 : compare(b, a) > 0) ? b : a));
      }),
    ),
    celMethod('indexOf', listType(CelScalar.DYN), [CelScalar.DYN], CelScalar.INT, function (x) {
      return BigInt(items(this).findIndex((v) => compare(v, x) === 0));
    }),
    celMethod('lastIndexOf', listType(CelScalar.DYN), [CelScalar.DYN], CelScalar.INT, function (x) {
      const xs = items(this);
      let i = xs.length - 1;
      while (i >= 0 && compare(xs[i]!, x) !== 0) i--;
      return BigInt(i);
    }),
  ],
  declarations: {
    isSorted: listMethod([], COMPARABLE, () => BOOL),
    sum: listMethod([], SUMMABLE, (e) => e),
    min: listMethod([], COMPARABLE, (e) => e),
    max: listMethod([], COMPARABLE, (e) => e),
  },
  costs: {
    isSorted: (t) => (t ? maxSize(t) : 0),
    sum: (t) => (t ? maxSize(t) : 0),
    min: (t) => (t ? maxSize(t) : 0),
    max: (t) => (t ? maxSize(t) : 0),
    indexOf: (t) => (t?.kind === 'list' ? maxSize(t) : 0),
    lastIndexOf: (t) => (t?.kind === 'list' ? maxSize(t) : 0),
  },
};

/** `url()`'s result: a string at run time, a type of its own for the checker. */
const URL_TYPE: CelType = { kind: 'object', name: 'kubernetes.URL', fields: {}, max: 0 };

interface ParsedURL {
  scheme: string;
  host: string;
  path: string;
  query: string;
}

/** Go's `url.ParseRequestURI`: an absolute URL with a scheme, or an absolute path. */
function parseRequestURI(s: string): ParsedURL | undefined {
  // Without a fragment: a `#` is part of the path or query, as Go leaves it.
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?]*))?([^?]*)(?:\?(.*))?$/s.exec(s);
  if (!m || /[\x00-\x1f\x7f]/.test(s) || / /.test(m[2] ?? '')) return undefined;
  const [, scheme = '', host = '', path = '', query = ''] = m;
  if (!scheme && !path.startsWith('/')) return undefined;
  if (scheme && m[2] === undefined && path !== '' && !path.startsWith('/')) return { scheme, host: '', path: '', query };
  return { scheme, host, path, query };
}

function parsedURL(s: string): ParsedURL {
  const url = parseRequestURI(s);
  if (!url) throw celError(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
  return url;
}

function hostname(host: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed) return bracketed[1]!;
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

const urlAccessor = (name: string, result: CelType, get: (u: ParsedURL) => CelValue | ReturnType<typeof celMap>): [CelFunc, Declaration] => opaqueMethod(URL_TYPE, name, [], result, (s) => get(parsedURL(s)));

const urlAccessors = [
  urlAccessor('getScheme', STRING, (u) => u.scheme),
  urlAccessor('getHost', STRING, (u) => u.host),
  urlAccessor('getHostname', STRING, (u) => hostname(u.host)),
  urlAccessor('getPort', STRING, (u) => {
    const port = /:(\d*)$/.exec(u.host.replace(/^\[[^\]]*\]/, ''));
    return port ? port[1]! : '';
  }),
  // Go's EscapedPath: what may not appear in a path is percent-encoded.
  urlAccessor('getEscapedPath', STRING, (u) => u.path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c))),
  urlAccessor('getQuery', { kind: 'map', key: STRING, value: { kind: 'list', elem: STRING, max: 1 }, max: 1 }, (u) => {
    const query = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(u.query)) query.set(k, [...(query.get(k) ?? []), v]);
    return celMap(new Map([...query].map(([k, vs]) => [k, celList(vs)])));
  }),
];

const stringCost = (_t: CelType | undefined, a: CelType[]): number => Math.ceil((a[0] ? maxSize(a[0]) : 0) * 0.1);

const urls = libraryOf(
  [
    [celFunc('url', [CelScalar.STRING], CelScalar.STRING, (s) => (parsedURL(s), s)), ofString(URL_TYPE)],
    [celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, (s) => parseRequestURI(s) !== undefined), ofString(BOOL)],
    ...urlAccessors,
  ],
  { url: stringCost, isURL: stringCost },
);

/** The libraries enabled for CRD validation rules and policies, beyond `@bufbuild/cel`'s standard and strings ones (the authorizer's methods only apply to the `authorizer` variable policies declare). */
const ALL = [lists, urls, ipAddresses, quantities, optionals, authorizerLibrary];

export const KUBERNETES_LIBRARIES: Library = {
  funcs: ALL.flatMap((l) => l.funcs),
  declarations: Object.assign({}, ...ALL.map((l) => l.declarations)) as Library['declarations'],
  costs: Object.assign({}, ...ALL.map((l) => l.costs)) as Library['costs'],
};

