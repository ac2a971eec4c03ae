/**
 * The fuzz request generator: from a seeded PRNG, one HTTP request (identity, verb, path in any
 * URL form, query parameters, headers, body). Request `i` depends only on the seed and `i`
 * (`Prng.forRequest`), so a failing one is regenerated exactly with `FUZZ_SEED` and `FUZZ_REQUEST`.
 *
 * The system admin's writes stay inside the fuzz space (`FUZZ_TENANT`): the admin may do
 * anything anywhere, and the leak check that follows the run must find its fixtures as it left them.
 */
import { FUZZ_TENANT, manifest, NAMES, NAMESPACES, RESOURCES, SPACES, type Obj, type Resource } from './corpus.js';
import { encodeBody, garbageBody, type BodyFormat } from './mutators.js';
import { Prng } from './prng.js';

export type Identity = 'admin' | 'tenant' | 'anonymous' | 'bad-token';

export interface FuzzRequest {
  index: number;
  identity: Identity;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** A watch (stream) request: the client reads briefly, then hangs up. */
  watch: boolean;
  /** What made this request odd (mutations, forms), for failure reports and KNOWN_OPEN. */
  tags: string[];
}

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const METHODS: ReadonlyArray<readonly [number, string]> = [[34, 'GET'], [16, 'POST'], [10, 'PUT'], [16, 'PATCH'], [9, 'DELETE'], [6, 'HEAD'], [3, 'OPTIONS'], [1, 'TRACE'], [1, 'PURGE']];

const QUERY: Record<string, string[]> = {
  limit: ['1', '0', '-1', '500', 'abc', '99999999999999999999', '1e3', '2'],
  continue: ['', 'garbage', 'eyJ2IjoxfQ==', 'eyJydiI6MSwic3RhcnQiOiJ4In0', '%00'],
  resourceVersion: ['0', '1', '', 'abc', '-1', '99999999999999999999', '18446744073709551616', '1.5'],
  resourceVersionMatch: ['NotOlderThan', 'Exact', 'bogus'],
  labelSelector: ['app=web', 'app in (web,db)', '!app', 'app!=x', 'tier notin (a)', '=', '(((', `${'a'.repeat(300)}=b`, 'app=web,'.repeat(100), 'x==y', 'a in ()', 'app', 'a=b=c', '\u0001=1'],
  fieldSelector: ['metadata.name=obj-1', 'metadata.namespace!=default', 'spec.nodeName=', 'status.phase=Running', 'bogus=1', 'metadata.name==a', '=', ',,,', 'metadata.tenant=system', 'type=Opaque', 'metadata.name in (a)', `metadata.name=${'x'.repeat(1000)}`],
  watch: ['true', '1', 'false', 'yes', ''],
  allowWatchBookmarks: ['true', 'false', 'x'],
  sendInitialEvents: ['true', 'false'],
  timeoutSeconds: ['1', '0', '-1', 'abc', '99999999999', '1.5'],
  dryRun: ['All', 'all', 'bogus', ''],
  fieldManager: ['fuzz', '', 'x'.repeat(200), '\u0001', 'kubectl-client-side-apply'],
  fieldValidation: ['Strict', 'Warn', 'Ignore', 'bogus'],
  pretty: ['true', '1', 'false'],
  force: ['true', 'x'],
  propagationPolicy: ['Foreground', 'Background', 'Orphan', 'X'],
  gracePeriodSeconds: ['0', '-1', 'x', '99999999999999999999'],
  orphanDependents: ['true', 'false', 'x'],
  includeObject: ['Metadata', 'None', 'Object', 'x'],
  container: ['main', 'x'],
  follow: ['true'],
  tailLines: ['1', '-1'],
  zzz: ['1'],
};

const ACCEPTS: ReadonlyArray<readonly [number, string | undefined]> = [
  [30, 'application/json'],
  [8, 'application/yaml'],
  [10, PROTOBUF],
  [8, `${PROTOBUF}, application/json`],
  [6, 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'],
  [3, 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'],
  [3, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'],
  [4, '*/*'],
  [4, undefined],
  [2, 'text/html'],
  [2, 'application/json;as=Table;v=v9;g=meta.k8s.io'],
  [2, ';;;,,'],
];

type BodyKind = { contentType: string | undefined; format: BodyFormat; patch?: 'merge' | 'strategic' | 'json' | 'apply' };
const BODY_KINDS: ReadonlyArray<readonly [number, BodyKind]> = [
  [30, { contentType: 'application/json', format: 'json' }],
  [10, { contentType: 'application/yaml', format: 'yaml' }],
  [10, { contentType: PROTOBUF, format: 'protobuf' }],
  [8, { contentType: 'application/merge-patch+json', format: 'json', patch: 'merge' }],
  [8, { contentType: 'application/strategic-merge-patch+json', format: 'json', patch: 'strategic' }],
  [8, { contentType: 'application/json-patch+json', format: 'json', patch: 'json' }],
  [8, { contentType: 'application/apply-patch+yaml', format: 'yaml', patch: 'apply' }],
  [4, { contentType: undefined, format: 'json' }],
  [2, { contentType: 'application/json; charset=utf-16', format: 'json' }],
  [2, { contentType: 'text/plain', format: 'yaml' }],
  [1, { contentType: 'application/x-www-form-urlencoded', format: 'json' }],
  [1, { contentType: 'multipart/form-data; boundary=x', format: 'json' }],
  [1, { contentType: 'application/apply-patch+cbor', format: 'json' }],
  [1, { contentType: ';;;', format: 'json' }],
];

const BAD_TOKENS = ['Bearer ', 'Bearer garbage', `Bearer ${'a'.repeat(5000)}`, 'Basic YTpi', 'Bearer a.b.c', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'Negotiate x', 'Bearer\tx', 'Bearer ä'];

export interface Credentials {
  adminToken: string;
  tenantToken: string;
}

function pickQuery(r: Prng, forceWatch: boolean): string[] {
  const params: string[] = [];
  const count = r.weighted<number>([[4, 0], [4, 1], [3, 2], [2, 4]]);
  for (let i = 0; i < count; i++) {
    const key = r.pick(Object.keys(QUERY));
    params.push(`${r.chance(0.02) ? encodeURIComponent(r.pick(['\u0001', 'ä', ''])) : key}=${encodeURIComponent(r.pick(QUERY[key]!))}`);
  }
  if (forceWatch) params.push('watch=true');
  return params;
}

/** A resource path in one URL form: short (the identity's own space), full (`…/v1/tenants/<t>/…`) or prefix (`/tenants/<t>/api…`). */
function spaced(res: Resource, space: string, form: 'short' | 'full' | 'prefix', rest: string): string {
  const base = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
  if (form === 'short') return `${base}${rest}`;
  if (form === 'full') return `${base}/tenants/${space}${rest}`;
  return `/tenants/${space}${base}${rest}`;
}

function resourcePath(r: Prng, res: Resource, opts: { space: string; form: 'short' | 'full' | 'prefix'; needName: boolean }, tags: string[]): { path: string; name?: string; namespace?: string; watchPrefix: boolean } {
  const namespace = res.namespaced && r.chance(0.85) ? r.pick(NAMESPACES) : undefined;
  const name = opts.needName || r.chance(0.55) ? r.pick(NAMES) : undefined;
  let rest = namespace !== undefined ? `/namespaces/${namespace}` : '';
  rest += `/${res.resource}`;
  if (name !== undefined) rest += `/${encodeURIComponent(name)}`;
  if (name !== undefined && r.chance(0.15)) {
    const sub = r.pick(['status', ...(res.subresources ?? []), 'bogus']);
    rest += `/${sub}`;
    tags.push(`sub:${sub}`);
  }
  const watchPrefix = r.chance(0.04);
  if (watchPrefix) rest = `/watch${rest}`;
  const path = spaced(res, opts.space, opts.form, rest);
  // The legacy watch prefix goes right after the version, before any tenants segment.
  return { path: watchPrefix ? path.replace(/\/(v[0-9a-z]+)\/tenants\/([^/]*)\/watch/, '/$1/watch/tenants/$2') : path, name, namespace, watchPrefix };
}

function otherPath(r: Prng, space: string): string {
  const prefix = r.chance(0.3) ? `/tenants/${space}` : '';
  return r.weighted<() => string>([
    [4, () => `${prefix}${r.pick(['/api', '/apis', '/api/v1', '/apis/apps', '/apis/apps/v1', '/apis/rbac.authorization.k8s.io/v1', '/apis/nope/v1', '/apis/apps/v9', '/api/v2'])}`],
    [3, () => `${prefix}${r.pick(['/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1', '/openapi/v3/apis/apps/v1', '/openapi/v3/apis/nope/v1', '/swagger.json'])}`],
    [3, () => `${r.chance(0.2) ? prefix : ''}${r.pick(['/healthz', '/readyz', '/livez', '/readyz/verbose', '/healthz/etcd', '/livez/ping', '/version', '/metrics', '/', '/favicon.ico'])}`],
    [4, () => garbagePath(r)],
  ])();
}

/** Whether a query asks for a watch as Go's apimachinery reads it: the first `watch` value, true unless `0` or `false` in any case. */
function asksWatch(query: string[]): boolean {
  const first = query.find((p) => p === 'watch' || p.startsWith('watch='));
  if (first === undefined) return false;
  let value: string;
  try {
    value = decodeURIComponent(first.slice('watch='.length).replace(/\+/g, ' '));
  } catch {
    return false;
  }
  return value !== '0' && value.toLowerCase() !== 'false';
}

const SEGMENTS = ['api', 'apis', 'v1', 'tenants', FUZZ_TENANT, 'all', 'namespaces', 'fuzz', 'configmaps', 'watch', 'status', '..', '.', '%2e%2e', '%2E', '%2F', '%00', '%ff', '%', '%zz', '', ' ', '~', ';', 'a;b=c', '%C3%A4', '\u00e4', '*', '?', '#', 'x'.repeat(300)];

function garbagePath(r: Prng): string {
  if (r.chance(0.05)) return `/${'a'.repeat(r.pick([4096, 20_000, 70_000]))}`;
  const segments = Array.from({ length: r.between(1, 8) }, () => r.pick(SEGMENTS));
  return `/${segments.join(r.chance(0.1) ? '//' : '/')}`;
}

function patchValue(r: Prng, kind: BodyKind['patch'], full: Obj): Obj | unknown[] {
  if (kind === 'json') {
    const ops = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'];
    const paths = ['/metadata/labels/x', '/metadata/labels', '/spec/containers/-', '/spec/containers/0/image', '', '/', '/a~2b', '/data/a', '/metadata/name', '/spec/replicas', '/metadata/finalizers/0'];
    return Array.from({ length: r.between(0, 3) }, () => ({ op: r.pick(ops), path: r.pick(paths), ...(r.chance(0.7) ? { value: r.pick(['v', 1, null, { a: 1 }, []]) } : {}), ...(r.chance(0.2) ? { from: r.pick(paths) } : {}) }));
  }
  if (kind === 'apply') return full;
  const partial: Obj = r.pick<Obj>([{ metadata: { labels: { x: r.pick(['y', null]) } } }, { data: { a: null, b: '2' } }, { spec: { replicas: r.pick([3, null, 'x']) } }, { metadata: { annotations: null } }, full]);
  if (kind === 'strategic' && r.chance(0.4)) {
    Object.assign(partial, r.pick<Obj>([{ $patch: r.pick(['delete', 'replace', 'bogus']) }, { spec: { containers: [{ name: 'main', $patch: 'delete' }] } }, { $retainKeys: ['spec'] }, { '$setElementOrder/containers': [{ name: 'x' }] }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }]));
  }
  return partial;
}

function deleteOptions(r: Prng): Obj {
  return { apiVersion: 'v1', kind: r.pick(['DeleteOptions', 'Status', 'ConfigMap']), propagationPolicy: r.pick(['Foreground', 'Orphan', 'X']), ...(r.chance(0.4) ? { preconditions: { uid: r.pick(['x', '']), resourceVersion: r.pick(['1', 'x']) } } : {}), ...(r.chance(0.2) ? { dryRun: [r.pick(['All', 'x'])] } : {}), ...(r.chance(0.2) ? { gracePeriodSeconds: r.pick([0, -1, 'x']) } : {}) };
}

export function generateRequest(seed: number, index: number, creds: Credentials): FuzzRequest {
  const r = Prng.forRequest(seed, index);
  const tags: string[] = [];
  const identity = r.weighted<Identity>([[45, 'tenant'], [35, 'admin'], [8, 'anonymous'], [12, 'bad-token']]);
  const method = r.weighted(METHODS);
  const adminWrite = identity === 'admin' && MUTATING.has(method);
  const headers: Record<string, string> = {};

  let path: string;
  let res: Resource | undefined;
  let target: { name?: string; namespace?: string; watchPrefix: boolean } = { watchPrefix: false };
  // Odd paths may resolve anywhere: the admin only reads them.
  if (adminWrite || r.chance(0.82)) {
    res = r.pick(RESOURCES);
    // The admin writes only inside the fuzz space, by the forms that name it; a Tenant only by name.
    const form = adminWrite ? r.pick(['full', 'prefix'] as const) : r.weighted<'short' | 'full' | 'prefix'>([[5, 'short'], [3, 'full'], [3, 'prefix']]);
    const space = adminWrite ? r.pick([FUZZ_TENANT, 'fz-missing']) : r.pick(SPACES);
    const built = resourcePath(r, res, { space, form: res.resource === 'tenants' ? 'short' : form, needName: adminWrite && res.resource === 'tenants' }, tags);
    tags.push(`form:${form}`);
    path = built.path;
    target = built;
  } else {
    path = otherPath(r, r.pick(SPACES));
    tags.push('path:other');
  }

  const query = pickQuery(r, r.chance(0.08) && method === 'GET');
  if (query.length > 0) path += `?${query.join('&')}`;
  const watch = target.watchPrefix || asksWatch(query);

  if (identity === 'admin') headers.authorization = `Bearer ${creds.adminToken}`;
  else if (identity === 'tenant') headers.authorization = `Bearer ${creds.tenantToken}`;
  // A lower-case scheme is still the admin's token (as in kube), so it only reads: the admin's writes keep to the fuzz space.
  else if (identity === 'bad-token') headers.authorization = r.pick([...BAD_TOKENS, `Bearer ${creds.tenantToken}x`, ...(MUTATING.has(method) ? [] : [`bearer ${creds.adminToken}`])]);

  const accept = r.weighted(ACCEPTS);
  if (accept !== undefined) headers.accept = accept;
  if (r.chance(0.04)) {
    headers[r.pick(['impersonate-user', 'impersonate-group', 'impersonate-uid', 'impersonate-extra-scopes'])] = r.pick(['system:admin', 'alice', 'system:masters', '', 'system:serviceaccount:fuzz:default']);
    tags.push('impersonate');
  }
  if (r.chance(0.03)) {
    headers['x-fuzz-padding'] = 'a'.repeat(r.pick([1000, 20_000, 70_000]));
    tags.push('huge-header');
  }
  if (r.chance(0.05)) headers['accept-encoding'] = r.pick(['gzip', 'deflate, br', 'x']);
  if (r.chance(0.05)) headers['user-agent'] = r.pick(['kubectl/v1.33.0', '', '\u00ff'.repeat(10)]);

  const wantsBody = MUTATING.has(method) ? method !== 'DELETE' || r.chance(0.4) : r.chance(0.05);
  if (wantsBody) {
    if (r.chance(0.04)) {
      headers['content-type'] = r.pick(['application/json', 'application/yaml', PROTOBUF, 'application/octet-stream']);
      tags.push('garbage-body');
      return { index, identity, method, path, headers, body: garbageBody(r), watch, tags };
    }
    const kind = method === 'PATCH' ? r.weighted<BodyKind>([[9, r.weighted(BODY_KINDS.filter(([, k]) => k.patch))], [1, r.weighted(BODY_KINDS)]]) : r.weighted(BODY_KINDS);
    const of = res && res.kind !== 'Node' ? res : r.pick(RESOURCES);
    const full = method === 'DELETE' ? deleteOptions(r) : manifest(r, of, target.name ?? r.pick(NAMES), target.namespace ?? (r.chance(0.3) ? r.pick(NAMESPACES) : undefined));
    const value = kind.patch && method === 'PATCH' ? patchValue(r, kind.patch, full) : full;
    if (kind.contentType !== undefined) headers['content-type'] = kind.contentType;
    tags.push(`body:${kind.contentType ?? 'none'}`);
    return { index, identity, method, path, headers, body: encodeBody(r, value, kind.format, r.chance(0.6), tags), watch, tags };
  }
  return { index, identity, method, path, headers, watch, tags };
}
