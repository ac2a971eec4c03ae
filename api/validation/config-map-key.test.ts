import { describe, expect, it } from 'vitest';
import { isConfigMapKey } from './config-map-key.js';

describe('config keys', () => {
  it.each([
    ['app.properties', []],
    ['KEY_NAME', []],
    ['..data', ["must not start with '..'"]],
    ['a/b', [expect.stringContaining("a valid config key must consist of alphanumeric characters, '-', '_' or '.'")]],
  ])('%j', (value, errors) => {
    expect(isConfigMapKey(value)).toEqual(errors);
  });
});
