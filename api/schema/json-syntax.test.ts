import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, MAX_OBJECT_KEYS, scanJson } from './json-syntax.js';

describe('scanJson: syntax and nesting', () => {
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
    expect(scanJson(text).error).toBe(message);
  });

  it('bounds nesting: the limit passes, one more is refused before anything deeper is read', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(scanJson(nested(MAX_BODY_DEPTH)).error).toBeUndefined();
    expect(scanJson(nested(MAX_BODY_DEPTH + 1)).error).toBe("invalid character '[' exceeded max depth");
    expect(scanJson('{"a":'.repeat(1_000_000)).error).toBe("invalid character '{' exceeded max depth");
  });

  it('bounds the keys of one object, by its path', () => {
    const keys = (count: number): string => `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(scanJson(keys(MAX_OBJECT_KEYS)).error).toBeUndefined();
    expect(scanJson(keys(MAX_OBJECT_KEYS + 1)).error).toBe(`object at the top level has more than ${MAX_OBJECT_KEYS} keys`);
    expect(scanJson(`{"spec":{"items":[1,${keys(MAX_OBJECT_KEYS + 1)}]}}`).error).toBe(`object "spec.items[1]" has more than ${MAX_OBJECT_KEYS} keys`);
  });
});

describe('scanJson: duplicate keys', () => {
  it.each<[string, string[]]>([
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"name":"x","labels":{"k":"1"},"name":"y"}}', ['metadata.name']],
    ['{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","image":"j"}]}}', ['spec.containers[1].image']],
    ['{"a":"{\\"a\\":1,\\"a\\":2}","b":[1,{"c":1}]}', []],
    ['{"a":{"x":1},"b":{"x":1}}', []],
    ['{"k\\"q":1,"k\\"q":2}', ['k"q']],
    ['[{"a":1,"a":1}]', ['[0].a']],
    ['[[],[{"a":1}],{"b":[{"c":1,"c":2}]}]', ['[2].b[0].c']],
    ['{"a\\u0062":1,"ab":2}', ['ab']],
  ])('%s → %j', (text, expected) => {
    JSON.parse(text);
    expect(scanJson(text)).toEqual({ error: undefined, duplicateFields: expected });
  });
});
