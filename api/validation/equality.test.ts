import { describe, expect, it } from 'vitest';
import { semanticEqual } from './equality.js';

describe('semanticEqual', () => {
  it('treats absent, null, empty lists and empty maps alike', () => {
    expect(semanticEqual({ a: [], b: null, c: {} }, {})).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [] })).toBe(false);
    expect(semanticEqual({ x: 1, y: { z: 'a' } }, { y: { z: 'a' }, x: 1 })).toBe(true);
  });
});
