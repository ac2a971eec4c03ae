/**
 * `decodeBody`: every body type, the bounds it keeps and kube-apiserver's words when a body does not
 * decode; `decodeObjectBody`: Go's words when a body is no object or its apiVersion or kind no string.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../api/schema/json-syntax.js';
import { decodeBody, decodeObjectBody } from './negotiate.js';
import type { ApiError } from '../../api/status.js';

function server() {
  const app = Fastify();
  app.decorateRequest('kube', null);
  app.addHook('onRequest', async (request) => {
    request.kube = { user: { name: 'u', uid: '', groups: [], tenant: 't', extra: {} }, info: null, tenant: 't' };
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post<{ Querystring: { kind?: string } }>('/', async (request) => ({ value: await decodeBody(request, request.query.kind), duplicates: request.kube?.duplicateFields ?? [] }));
  app.post<{ Querystring: { kind: string } }>('/object', async (request) => ({ value: await decodeObjectBody(request, request.query.kind) }));
  app.setErrorHandler((err, _request, reply) => reply.code((err as ApiError).code ?? 500).send({ message: err instanceof Error ? err.message : '' }));
  return app;
}

describe('decodeBody', () => {
  const app = server();
  const post = (type: string, payload: string, kind?: string) =>
    app.inject({ method: 'POST', url: kind ? `/?kind=${kind}` : '/', headers: { 'content-type': type }, payload });

  const decoded: Array<[string, string, string, unknown, string[]]> = [
    ['JSON', 'application/json', '{"a":1}', { a: 1 }, []],
    ['JSON with a duplicate key', 'application/json', '{"a":1,"a":2}', { a: 2 }, ['a']],
    ['an empty JSON body (no body)', 'application/json', '', null, []],
    ['YAML', 'application/yaml', 'a: 1\nb: [x]\n', { a: 1, b: ['x'] }, []],
    ['YAML with a duplicate key', 'application/yaml', 'm:\n  k: 1\n  k: 2\n', { m: { k: 2 } }, ['m.k']],
    ['JSON sent as YAML (kubectl apply)', 'application/apply-patch+yaml', '{"a":1,"a":2}', { a: 2 }, ['a']],
    ['a merge patch (duplicates are not reported)', 'application/merge-patch+json', '{"a":1,"a":2}', { a: 2 }, []],
  ];
  it.each(decoded)('decodes %s', async (_name, type, payload, value, duplicates) => {
    const res = await post(type, payload);
    expect(res.json()).toEqual({ value, duplicates });
  });

  const deep = '{"a":'.repeat(MAX_BODY_DEPTH + 1) + '1' + '}'.repeat(MAX_BODY_DEPTH + 1);
  const refused: Array<[string, string, string, string | undefined, string]> = [
    ['an unterminated object', 'application/json', '{"ab', 'Namespace', 'the object provided is unrecognized (must be of type Namespace): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"ab)'],
    ['a control character in a key', 'application/json', '{"a\x01":1}', 'Namespace', 'the object provided is unrecognized (must be of type Namespace): couldn\'t get version/kind; json parse error: invalid character \'\\x01\' in string literal ({"a\x01":1})'],
    ['text that is no JSON', 'application/json', 'hello', 'ConfigMap', "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'h' looking for beginning of value (68656c6c6f)"],
    ['nesting past the bound', 'application/json', deep, 'ConfigMap', "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth ({\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\": ...)"],
    ['a patch that is no JSON', 'application/merge-patch+json', '{"a":', undefined, 'unexpected end of JSON input'],
    ['a JSON patch nested past the bound', 'application/json-patch+json', '['.repeat(MAX_BODY_DEPTH + 1), undefined, "invalid character '[' exceeded max depth"],
    ['bad YAML for an object', 'application/yaml', 'a: 1\nb: c: d\n', 'ConfigMap', 'the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: line 2: Nested mappings are not allowed in compact mappings (613a20310a623a20633a20640a)'],
    ['an apply configuration nested past the bound', 'application/apply-patch+yaml', '- '.repeat(MAX_BODY_DEPTH + 1) + 'x', undefined, `error decoding YAML: yaml: exceeded max depth of ${MAX_BODY_DEPTH}`],
  ];
  it.each(refused)('refuses %s with 400', async (_name, type, payload, kind, message) => {
    const res = await post(type, payload, kind);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  const typeMeta = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  const notObjects: Array<[string, string, string, string]> = [
    ['an empty JSON body', 'application/json', '', `json parse error: unexpected end of JSON input (<empty>)`],
    ['a JSON array', 'application/json', '[1,2]', `json parse error: json: cannot unmarshal array into Go value of type ${typeMeta} (5b312c325d)`],
    ['a JSON string', 'application/json', '"x"', `json parse error: json: cannot unmarshal string into Go value of type ${typeMeta} (227822)`],
    ['a JSON number', 'application/json', '12', `json parse error: json: cannot unmarshal number into Go value of type ${typeMeta} (3132)`],
    ['a YAML list', 'application/yaml', '- a\n', `json parse error: json: cannot unmarshal array into Go value of type ${typeMeta} (2d20610a)`],
    ['a numeric kind', 'application/json', '{"kind":5}', 'json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})'],
    ['an object apiVersion', 'application/json', '{"apiVersion":{}}', 'json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string ({"apiVersion":{}})'],
    ['a boolean Kind (Go matches names case-insensitively)', 'application/json', '{"Kind":true}', 'json parse error: json: cannot unmarshal bool into Go struct field .kind of type string ({"Kind":true})'],
  ];
  it.each(notObjects)('decodeObjectBody refuses %s in Go’s words', async (_name, type, payload, message) => {
    const res = await app.inject({ method: 'POST', url: '/object?kind=Namespace', headers: { 'content-type': type }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; ${message}`);
  });

  it('decodeObjectBody refuses an apiVersion of three parts as ParseGroupVersion does', async () => {
    const res = await app.inject({ method: 'POST', url: '/object?kind=Pod', headers: { 'content-type': 'application/json' }, payload: '{"apiVersion":"a/b/c"}' });
    expect(res.json().message).toBe('the object provided is unrecognized (must be of type Pod): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})');
  });

  it.each([
    ['null', 'application/json', 'null'],
    ['an empty YAML body', 'application/yaml', ''],
    ['null fields', 'application/json', '{"kind":null,"apiVersion":null}'],
  ])('decodeObjectBody reads %s as Go does (no error)', async (_name, type, payload) => {
    const res = await app.inject({ method: 'POST', url: '/object?kind=Namespace', headers: { 'content-type': type }, payload });
    expect(res.statusCode, res.body).toBe(200);
  });
});
