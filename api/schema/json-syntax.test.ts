import { describe, expect, it } from 'vitest';
import { jsonSyntaxError, MAX_BODY_DEPTH } from './json-syntax.js';

describe('jsonSyntaxError', () => {
  // Expected texts are Go's encoding/json scanner messages for the same input.
  const cases: Array<[string, string, string | undefined]> = [
    ['an object', '{"a":[1,-2.5e+3,true,false,null,"x\\u00e9\\n"],"b":{}}', undefined],
    ['a top-level number with spaces', ' 12 ', undefined],
    ['an empty array and object', '[[],{}]', undefined],
    ['nothing', '', 'unexpected end of JSON input'],
    ['only spaces', '  ', 'unexpected end of JSON input'],
    ['an unterminated key', '{"ab', 'unexpected end of JSON input'],
    ['an unterminated object', '{"a":1', 'unexpected end of JSON input'],
    ['a control character in a key', '{"a\x01":1}', "invalid character '\\x01' in string literal"],
    ['a newline in a string', '{"a":"x\ny"}', "invalid character '\\n' in string literal"],
    ['a bare word', '{"a":x}', "invalid character 'x' looking for beginning of value"],
    ['text that is no JSON', 'hello', "invalid character 'h' looking for beginning of value"],
    ['a key without quotes', '{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['a missing colon', '{"a" 1}', "invalid character '1' after object key"],
    ['a missing comma in an object', '{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['a missing comma in an array', '[1 2]', "invalid character '2' after array element"],
    ['a trailing comma in an array', '[1,]', "invalid character ']' looking for beginning of value"],
    ['a trailing comma in an object', '{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['two values', '{} {}', "invalid character '{' after top-level value"],
    ['a leading zero', '[01]', "invalid character '1' after array element"],
    ['a bare minus', '[-]', "invalid character ']' in numeric literal"],
    ['a dot without digits', '[1.]', "invalid character ']' after decimal point in numeric literal"],
    ['an exponent without digits', '[1e]', "invalid character ']' in exponent of numeric literal"],
    ['a misspelled true', '[tru]', "invalid character ']' in literal true (expecting 'e')"],
    ['a misspelled null', '[nul1]', "invalid character '1' in literal null (expecting 'l')"],
    ['a bad escape', '["\\x"]', "invalid character 'x' in string escape code"],
    ['a bad unicode escape', '["\\u12g4"]', "invalid character 'g' in \\u hexadecimal character escape"],
    ['a single quote', "{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['a non-ASCII letter', '[é]', "invalid character 'Ã' looking for beginning of value"],
  ];
  it.each(cases)('%s', (_name, text, message) => {
    expect(jsonSyntaxError(text)).toBe(message);
  });

  it('bounds nesting: the limit passes, one more is refused before anything deeper is read', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(jsonSyntaxError(nested(MAX_BODY_DEPTH))).toBeUndefined();
    expect(jsonSyntaxError(nested(MAX_BODY_DEPTH + 1))).toBe("invalid character '[' exceeded max depth");
    expect(jsonSyntaxError('{"a":'.repeat(1_000_000))).toBe("invalid character '{' exceeded max depth");
  });
});
