import { describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import { encodeJson, goEscape, sendText, wantsPretty } from './json-body.js';

describe('encodeJson', () => {
  // Expected bytes as Go's json.Encoder writes the same values.
  it.each([
    ['HTML characters', { m: 'a<b>&c' }, '{"m":"a\\u003cb\\u003e\\u0026c"}\n'],
    ['line and paragraph separators', { m: 'x\u2028y\u2029z' }, '{"m":"x\\u2028y\\u2029z"}\n'],
    ['a lone surrogate becomes U+FFFD', { m: 'a\ud800b\udc00' }, '{"m":"a\ufffdb\ufffd"}\n'],
    ['a surrogate pair is kept', { m: '\u{1F600}' }, '{"m":"\u{1F600}"}\n'],
    ['an escaped backslash before "ud800" is text', { m: '\\ud800' }, '{"m":"\\\\ud800"}\n'],
    ['an odd run of backslashes before a lone surrogate', { m: '\\\ud800' }, '{"m":"\\\\\ufffd"}\n'],
    ['control characters', { m: '\b\f\n\r\t\u0001\u001f\u007f' }, '{"m":"\\b\\f\\n\\r\\t\\u0001\\u001f\u007f"}\n'],
    ['each escaped character alone', { a: '&', b: '>', c: '\u2029' }, '{"a":"\\u0026","b":"\\u003e","c":"\\u2029"}\n'],
    ['keys are escaped too', { '<k>': 1 }, '{"\\u003ck\\u003e":1}\n'],
    ['field order is kept', { kind: 'Status', apiVersion: 'v1', metadata: {}, code: 404 }, '{"kind":"Status","apiVersion":"v1","metadata":{},"code":404}\n'],
    ['numbers as Go writes float64', { a: 0.5, b: 1e21, c: 1e-7, d: 100 }, '{"a":0.5,"b":1e+21,"c":1e-7,"d":100}\n'],
  ])('%s', (_name, value, bytes) => {
    expect(encodeJson(value)).toBe(bytes);
  });

  it('indents by two spaces without a trailing newline when pretty, as json.MarshalIndent', () => {
    expect(encodeJson({ kind: 'List', metadata: {}, items: [], m: '<' }, { pretty: true })).toBe('{\n  "kind": "List",\n  "metadata": {},\n  "items": [],\n  "m": "\\u003c"\n}');
    expect(encodeJson({ a: [1, { b: 'c' }] }, { pretty: true })).toBe('{\n  "a": [\n    1,\n    {\n      "b": "c"\n    }\n  ]\n}');
  });

  it('returns text without special characters unchanged', () => {
    const text = '{"a":"plain"}';
    expect(goEscape(text)).toBe(text);
  });
});

describe('sendText', () => {
  function sent(text: string): Buffer {
    let body: unknown;
    const reply = { type: () => reply, send: (b: unknown) => ((body = b), reply) };
    sendText(reply as unknown as FastifyReply, 'application/json', text);
    return body as Buffer;
  }

  it.each([
    ['ASCII', '{"a":"plain"}\n'],
    ['Latin-1 letters, one UTF-16 unit and two UTF-8 bytes each', '{"a":"caf\u00e9 \u00ff"}'],
    ['a character beyond the BMP', '{"a":"\u{1F600}"}'],
    ['U+FFFD', '{"a":"\ufffd"}'],
  ])('sends %s as its UTF-8 bytes', (_name, text) => {
    expect(sent(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});

describe('wantsPretty', () => {
  it.each([
    [undefined, 'curl/8.5.0', true],
    [undefined, 'Wget/1.21.4', true],
    [undefined, 'Mozilla/5.0 (X11)', true],
    [undefined, 'wget/1.21', false],
    [undefined, 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc', false],
    [undefined, undefined, false],
    ['true', 'kubectl/v1.33.0', true],
    ['1', undefined, true],
    ['T', undefined, true],
    ['false', 'curl/8.5.0', false],
    ['0', 'curl/8.5.0', false],
    ['yes', 'curl/8.5.0', false],
    ['', 'curl/8.5.0', true],
  ])('pretty=%s, User-Agent %s → %s', (param, ua, expected) => {
    expect(wantsPretty(param, ua)).toBe(expected);
  });
});
