import { describe, expect, it } from 'vitest';
import { duplicateFields } from './duplicate-fields.js';

describe('duplicateFields', () => {
  it.each<[string, string[]]>([
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"name":"x","labels":{"k":"1"},"name":"y"}}', ['metadata.name']],
    ['{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","image":"j"}]}}', ['spec.containers[1].image']],
    ['{"a":"{\\"a\\":1,\\"a\\":2}","b":[1,{"c":1}]}', []],
    ['{"a":{"x":1},"b":{"x":1}}', []],
    ['{"k\\"q":1,"k\\"q":2}', ['k"q']],
    ['[{"a":1,"a":1}]', ['[0].a']],
    ['{"a\\u0062":1,"ab":2}', ['ab']],
  ])('%s → %j', (text, expected) => {
    JSON.parse(text);
    expect(duplicateFields(text)).toEqual(expected);
  });
});
