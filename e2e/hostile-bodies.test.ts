/**
 * Bodies and parameters built to make the server work hard, over HTTPS: each is answered with
 * kube-apiserver's Status (code, reason, message), the server's own event loop stays responsive
 * (measured inside the server by `harness/event-loop-probe.ts`, never by request times), and the
 * server still answers afterwards. One server per backend.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOptions } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { eventLoopProbe, type EventLoopProbe } from './harness/event-loop-probe.js';

/**
 * A stall longer than this freezes every tenant's requests. Before the bounds the YAML bodies here
 * stalled the loop for about 100 s; decoding 1.3 MB of JSON on the loop takes tens of
 * milliseconds on an idle machine. The margin is for shared, loaded CI machines, where the probe
 * also counts the time the process waits for a CPU (1.4 s was seen at a load of 30 on 2 cores).
 */
const MAX_STALL_MS = 2000;

const raw = (body: string, contentType: string): RequestOptions => ({ body, headers: { 'content-type': contentType } });
/** `{"k":{"k":…}}`, `depth` objects deep. */
const nestedJson = (depth: number): string => '{"k":'.repeat(depth) + '1' + '}'.repeat(depth);
const yamlKeys = (count: number, indent: string): string => Array.from({ length: count }, (_, i) => `${indent}k${i}: v\n`).join('');

interface Row {
  name: string;
  request: (ns: string) => { method: string; path: string; options?: RequestOptions };
  status: number;
  reason?: string;
  /** Text the message must contain. */
  message?: string;
  /** How much the server's peak RSS may grow (MiB). */
  maxPeakGrowthMiB?: number;
  /** Why the stall is not checked (the row checks memory instead). */
  noStallCheck?: string;
}

/** The server's peak resident set (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) / 1024;
}

const rows: Row[] = [
  {
    // Before anything else: the peak RSS only grows, so later rows would hide this one's.
    name: 'a JSON body nested a million deep (2 MB)',
    request: (ns) => ({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, options: raw('['.repeat(2_000_000), 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: "json parse error: invalid character '[' exceeded max depth",
    maxPeakGrowthMiB: 64,
  },
  {
    name: 'YAML of 100,000 keys (1.1 MB) in one mapping',
    request: (ns) => ({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, options: raw(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: many\ndata:\n${yamlKeys(100_000, '  ')}`, 'application/yaml') }),
    status: 400,
    reason: 'BadRequest',
    message: 'the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: object "data" has more than 10000 keys',
  },
  {
    name: 'YAML of 100,000 keys (1.3 MB) in mappings of 10,000, of the wrong kind',
    request: (ns) => ({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      options: raw(`apiVersion: v1\nkind: Secret\nmetadata:\n  name: many\ndata:\n${Array.from({ length: 10 }, (_, i) => `  m${i}:\n${yamlKeys(10_000, '    ')}`).join('')}`, 'application/yaml'),
    }),
    status: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a ConfigMap',
  },
  {
    name: 'an apply configuration of 100,000 YAML keys in one mapping',
    request: (ns) => ({ method: 'PATCH', path: `/api/v1/namespaces/${ns}/configmaps/applied?fieldManager=hostile`, options: raw(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n${yamlKeys(100_000, '  ')}`, 'application/apply-patch+yaml') }),
    status: 400,
    reason: 'BadRequest',
    message: 'error decoding YAML: yaml: object "data" has more than 10000 keys',
  },
  {
    name: 'a JSON object of 100,000 keys (1.3 MB)',
    request: (ns) => ({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, options: raw(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wide"},${Array.from({ length: 100_000 }, (_, i) => `"x${i}":1`).join(',')}}`, 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: object at the top level has more than 10000 keys",
    maxPeakGrowthMiB: 128,
  },
  {
    name: 'a JSON body of 2.8 MB in objects of 10,000 keys, of the wrong kind',
    request: (ns) => ({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      options: raw(JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wide' }, data: Object.fromEntries(Array.from({ length: 20 }, (_, m) => [`m${m}`, Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, 'v']))])) }), 'application/json'),
    }),
    status: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a ConfigMap',
  },
  {
    name: 'YAML with a billion laughs',
    request: (ns) => ({
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      options: raw(['a: &a [x,x,x,x,x,x,x,x,x,x]', ...'bcdefghi'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n'), 'application/yaml'),
    }),
    status: 400,
    reason: 'BadRequest',
    message: 'the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: document contains excessive aliasing',
  },
  {
    name: 'YAML nested 100,000 deep',
    request: (ns) => ({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, options: raw('- '.repeat(100_000) + 'x', 'application/yaml') }),
    status: 400,
    reason: 'BadRequest',
    message: 'yaml: exceeded max depth of 500',
  },
  {
    name: 'an unterminated JSON key',
    request: () => ({ method: 'POST', path: '/api/v1/namespaces', options: raw('{"ab', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: unexpected end of JSON input ({"ab)`,
  },
  {
    name: 'a control character in a JSON key',
    request: () => ({ method: 'POST', path: '/api/v1/namespaces', options: raw('{"a\x01":1}', 'application/json') }),
    status: 400,
    reason: 'BadRequest',
    message: `couldn't get version/kind; json parse error: invalid character '\\x01' in string literal`,
  },
  {
    name: 'a merge patch nested 10,000 deep',
    request: (ns) => ({ method: 'PATCH', path: `/api/v1/namespaces/${ns}/configmaps/target`, options: raw(`{"metadata":{"annotations":${nestedJson(10_000)}}}`, 'application/merge-patch+json') }),
    status: 400,
    reason: 'BadRequest',
    message: "invalid character '{' exceeded max depth",
  },
  {
    name: 'a strategic merge patch nested 10,000 deep',
    request: (ns) => ({ method: 'PATCH', path: `/api/v1/namespaces/${ns}/configmaps/target`, options: raw(`{"metadata":{"annotations":${nestedJson(10_000)}}}`, 'application/strategic-merge-patch+json') }),
    status: 400,
    reason: 'BadRequest',
    message: "invalid character '{' exceeded max depth",
  },
  {
    name: 'a JSON patch of 20,000 operations',
    request: (ns) => ({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/target`,
      options: raw(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ op: 'add', path: `/data/k${i}`, value: 'v' }))), 'application/json-patch+json'),
    }),
    status: 413,
    reason: 'RequestEntityTooLarge',
    message: 'The allowed maximum operations in a JSON patch is 10000, got 20000',
  },
  {
    name: 'a strategic merge patch of the wrong type',
    request: (ns) => ({ method: 'PATCH', path: `/api/v1/namespaces/${ns}`, options: raw('{"metadata":{"labels":"invalid"}}', 'application/strategic-merge-patch+json') }),
    status: 422,
    reason: 'Invalid',
    message: 'cannot restore map from string',
  },
  {
    name: 'a limit past int64',
    request: (ns) => ({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps?limit=99999999999999999999` }),
    status: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
  },
  { name: 'the largest int64 limit', request: (ns) => ({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps?limit=9223372036854775807` }), status: 200 },
  {
    name: 'a watch timeout past int64',
    request: (ns) => ({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps?watch=true&timeoutSeconds=99999999999999999999` }),
    status: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
  },
  {
    name: 'a grace period that is no integer',
    request: (ns) => ({ method: 'DELETE', path: `/api/v1/namespaces/${ns}/configmaps/target?gracePeriodSeconds=1e3` }),
    status: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "1e3": invalid syntax',
  },
];

describe.each(backendCases())('hostile bodies and parameters ($backend)', ({ backend, skip }) => {
  let cluster: TestCluster;
  let probe: EventLoopProbe;
  let ns: string;

  beforeAll(async () => {
    if (skip) return;
    probe = await eventLoopProbe();
    cluster = await startCluster(backend, { env: probe.env });
    ns = await cluster.newNamespace('hostile');
    await cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target', namespace: ns }, data: { a: '1' } });
  }, 120_000);

  afterAll(async () => {
    await cluster?.cleanup();
    await probe?.cleanup();
  });

  it.skipIf(skip).each(rows)('$name: $status', async (row) => {
    const { method, path, options } = row.request(ns);
    const peakBefore = peakRssMiB(cluster.server.pid);
    const since = Date.now();
    const res = await cluster.api.request(method, path, options);
    expect(res.status, res.body.slice(0, 500)).toBe(row.status);
    if (row.reason !== undefined) {
      const body = res.json<{ kind?: string; code?: number; reason?: string; message?: string }>();
      expect(body).toMatchObject({ kind: 'Status', code: row.status, reason: row.reason });
      if (row.message !== undefined) expect(body.message).toContain(row.message);
    }
    if (row.maxPeakGrowthMiB !== undefined) expect(peakRssMiB(cluster.server.pid) - peakBefore).toBeLessThan(row.maxPeakGrowthMiB);
    if (row.noStallCheck === undefined) expect(await probe.maxDelaySince(since)).toBeLessThan(MAX_STALL_MS);
    expect((await cluster.api.request('GET', '/readyz')).status).toBe(200);
  }, 120_000);
});
