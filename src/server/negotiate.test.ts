import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { decodeObject, decodeWatchFrames, encodeObject } from '../../api/protobuf/codec.js';
import { decodeBody, encodeWatchEvent, negotiateFormat, sendFormatted, sendStatus, watchContentType, watchFormat } from './negotiate.js';
import { ApiError, statusFromError } from '../../api/status.js';
import { inGoFieldOrder } from '../../api/protobuf/go-field-order.js';
import { encodeJson } from './json-body.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('negotiateFormat', () => {
  it.each([
    [undefined, true, { kind: 'json' }],
    ['application/json', true, { kind: 'json' }],
    ['*/*', true, { kind: 'json' }],
    ['application/yaml', true, { kind: 'yaml' }],
    [`${TABLE},application/json`, true, { kind: 'table', version: 'v1' }],
    [`${TABLE},application/json`, false, { kind: 'json' }],
    // client-go typed clients
    [`${PROTOBUF},application/json`, true, { kind: 'protobuf', otherwise: { kind: 'json' } }],
    [`${PROTOBUF}, application/yaml`, true, { kind: 'protobuf', otherwise: { kind: 'yaml' } }],
    [PROTOBUF, true, { kind: 'protobuf', otherwise: { kind: 'json' } }],
    ['application/json, application/vnd.kubernetes.protobuf', true, { kind: 'json' }],
    // Tables are JSON only: a protobuf Table range falls through.
    [`${PROTOBUF};as=Table;v=v1;g=meta.k8s.io,application/json`, true, { kind: 'json' }],
  ])('%s (table allowed: %s) → %o', (accept, tableAllowed, format) => {
    expect(negotiateFormat(accept, tableAllowed)).toEqual(format);
  });

  it('refuses what it cannot serve with 406', () => {
    expect(() => negotiateFormat('text/html', true)).toThrow(ApiError);
    expect(() => negotiateFormat('text/html', true)).toThrow(/only the following media types are accepted/);
  });
});

describe('sendFormatted and sendStatus', () => {
  function app() {
    const server = Fastify();
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } };
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } };
    server.get('/cm', (request, reply) => sendFormatted(reply, 200, negotiateFormat(request.headers.accept, false), cm));
    server.get('/widget', (request, reply) => sendFormatted(reply, 200, negotiateFormat(request.headers.accept, false), widget));
    server.get('/gone', (request, reply) => sendStatus(request, reply, statusFromError(new ApiError(410, 'Expired', 'too old resource version: 1 (7)'))));
    return server;
  }

  it('answers protobuf for a built-in kind', async () => {
    const res = await app().inject({ url: '/cm', headers: { accept: `${PROTOBUF},application/json` } });
    expect(res.headers['content-type']).toBe(PROTOBUF);
    expect(decodeObject(res.rawPayload)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
  });

  it("answers a kind without a protobuf form in the client's next choice", async () => {
    const yaml = await app().inject({ url: '/widget', headers: { accept: `${PROTOBUF},application/yaml` } });
    expect(yaml.headers['content-type']).toBe('application/yaml');
    const json = await app().inject({ url: '/widget', headers: { accept: PROTOBUF } });
    expect(json.json()).toMatchObject({ kind: 'Widget', spec: { size: 3 } });
  });

  it('sends a Status in protobuf to protobuf clients, in JSON to everyone else', async () => {
    const proto = await app().inject({ url: '/gone', headers: { accept: `${PROTOBUF},application/json` } });
    expect(proto.statusCode).toBe(410);
    expect(decodeObject(proto.rawPayload)).toEqual({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (7)', reason: 'Expired', code: 410 });
    for (const accept of ['application/yaml', 'text/html', TABLE]) {
      const res = await app().inject({ url: '/gone', headers: { accept } });
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json()).toMatchObject({ kind: 'Status', code: 410 });
    }
  });
});

describe('JSON bodies of frozen (watch-cache) objects and lists', () => {
  function deepFrozen<T>(value: T): T {
    if (typeof value === 'object' && value !== null) {
      Object.freeze(value);
      for (const v of Object.values(value)) deepFrozen(v);
    }
    return value;
  }
  const cm = (name: string) => deepFrozen({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: {}, annotations: { note: '<b> & </b>' } }, data: { z: '1', a: '\u2028' } });
  const widget = (name: string) => deepFrozen({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { b: 1, a: [] } });

  async function served(body: unknown, accept = 'application/json'): Promise<string> {
    const server = Fastify();
    server.get('/', (_request, reply) => sendFormatted(reply, 200, negotiateFormat(accept, false), body));
    return (await server.inject({ url: '/' })).body;
  }

  it.each([
    ['a built-in list: items without kind and apiVersion, in Go order', () => ({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'e30=' }, items: [cm('a'), cm('b')] })],
    ['an empty list', () => ({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [] })],
    ['a custom resource list: items as they are', () => ({ apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: { resourceVersion: '9' }, items: [widget('a'), widget('b')] })],
    ['a custom resource with an items field of its own', () => deepFrozen({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, items: [{ b: '<', a: [] }], spec: { items: [] } })],
    ['a list holding an item of another list kind', () => ({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [widget('c')] })],
  ])('are the bytes of the whole body encoded at once: %s', async (_name, body) => {
    const expected = encodeJson(inGoFieldOrder(body()));
    expect(await served(body())).toBe(expected);
    // Again, from the encodings kept with the frozen items.
    expect(await served(body())).toBe(expected);
  });

  it('encode one frozen object as a list item and as a whole body apart', async () => {
    const a = cm('a');
    await served({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [a] });
    expect(await served(a)).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","annotations":{"note":"\\u003cb\\u003e \\u0026 \\u003c/b\\u003e"}},"data":{"a":"\\u2028","z":"1"}}\n');
    expect(await served({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [a] })).toBe(
      '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"a","annotations":{"note":"\\u003cb\\u003e \\u0026 \\u003c/b\\u003e"}},"data":{"a":"\\u2028","z":"1"}}]}\n',
    );
    expect(await served(a, 'application/json;pretty=1')).toContain('\n  "kind": "ConfigMap",\n');
  });

  it('encode objects that are not frozen every time', async () => {
    const item = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [item] };
    await served(list);
    item.metadata.name = 'b';
    expect(await served(list)).toContain('"name":"b"');
    expect(await served(item)).toContain('"name":"b"');
  });
});

describe('protobuf request bodies', () => {
  it('are decoded by decodeBody, keeping the kind of the envelope', async () => {
    const server = Fastify();
    server.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    server.post('/', async (request) => decodeBody(request));
    server.setErrorHandler((err, _request, reply) => reply.code((err as ApiError).code ?? 500).send({ message: err instanceof Error ? err.message : '' }));
    const body = encodeObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==' } });
    const ok = await server.inject({ method: 'POST', url: '/', headers: { 'content-type': PROTOBUF }, payload: body });
    expect(ok.json()).toEqual({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { k: 'dg==' } });
    const bad = await server.inject({ method: 'POST', url: '/', headers: { 'content-type': PROTOBUF }, payload: Buffer.from('{"kind":"Secret"}') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^error decoding protobuf: the body does not start with the protobuf envelope prefix/);
  });
});

describe('watch streams', () => {
  const protobufClient = negotiateFormat(`${PROTOBUF},application/json`, true);
  const status = statusFromError(new ApiError(410, 'Expired', 'too old resource version: 1 (7)'));

  it('are protobuf frames for built-in kinds, an ERROR event carrying a protobuf Status', () => {
    const format = watchFormat(protobufClient, { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(watchContentType(format)).toBe(`${PROTOBUF};stream=watch`);
    const frame = encodeWatchEvent(format, { type: 'ERROR', object: status });
    expect(decodeWatchFrames(frame as Buffer)).toEqual([{ type: 'ERROR', object: status }]);
  });

  it('are JSON lines for kinds without a protobuf form', () => {
    const format = watchFormat(protobufClient, { apiVersion: 'example.com/v1', kind: 'Widget' });
    expect(watchContentType(format)).toBe('application/json');
    expect(encodeWatchEvent(format, { type: 'ERROR', object: status })).toBe(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
  });

  it('encode a frozen (watch-cache) object once per format and event type, and anything else every time', () => {
    const shared = Object.freeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: Object.freeze({ name: 'a', resourceVersion: '7' }) });
    const protobuf = watchFormat(protobufClient, shared);
    const first = encodeWatchEvent(protobuf, { type: 'ADDED', object: shared });
    expect(encodeWatchEvent(protobuf, { type: 'ADDED', object: shared })).toBe(first);
    expect(decodeWatchFrames(encodeWatchEvent(protobuf, { type: 'MODIFIED', object: shared }) as Buffer)).toEqual([{ type: 'MODIFIED', object: { ...shared, metadata: { ...shared.metadata } } }]);
    // In Go's field order: TypeMeta's kind before apiVersion.
    expect(encodeWatchEvent({ kind: 'json' }, { type: 'ADDED', object: shared })).toBe('{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"7"}}}\n');
    const changing = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    encodeWatchEvent({ kind: 'json' }, { type: 'ADDED', object: changing });
    changing.metadata.name = 'b';
    expect(encodeWatchEvent({ kind: 'json' }, { type: 'ADDED', object: changing })).toContain('"name":"b"');
  });
});
