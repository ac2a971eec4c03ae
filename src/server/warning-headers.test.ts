import { describe, expect, it } from 'vitest';
import { warningHeaders } from './warning-headers.js';

const utf8 = (headers: string[]) => headers.map((h) => Buffer.from(h, 'latin1').toString('utf8'));

describe('warningHeaders', () => {
  it('writes one header per distinct text, escaping only quotes and backslashes', () => {
    expect(warningHeaders(['a', 'say "hi" \\ <b>', 'a', ''])).toEqual(['299 - "a"', '299 - "say \\"hi\\" \\\\ <b>"']);
  });

  it('sends non-ASCII text as its UTF-8 bytes, which Node writes from a latin1 string', () => {
    const [header] = warningHeaders(['unknown field "spec.Iñtërnâtiô"']);
    expect(/^[\x20-\x7e\x80-\xff]*$/.test(header!)).toBe(true);
    expect(utf8([header!])).toEqual(['299 - "unknown field \\"spec.Iñtërnâtiô\\""']);
  });

  it('drops texts with control characters, C1 included, as Go does', () => {
    expect(warningHeaders(['my\ntext', 'a\u0085b', 'ok'])).toEqual(['299 - "ok"']);
  });

  it('cuts every text to 256 runes once all of them pass 4,096, and then drops the rest', () => {
    const long = (c: string) => c.repeat(1000);
    const headers = utf8(warningHeaders([long('a'), long('b'), long('c'), long('d'), long('ñ')]));
    expect(headers).toHaveLength(5);
    expect(headers[4]).toBe(`299 - "${'ñ'.repeat(256)}"`);
    const many = Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(300, 'x'));
    expect(warningHeaders(many)).toHaveLength(16);
  });
});
