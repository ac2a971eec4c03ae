import { describe, expect, it } from 'vitest';
import { decodedLength } from './base64.js';

describe('base64', () => {
  it.each([
    ['aGVsbG8=', 5],
    ['aGVsbA==', 4],
    ['aGVs', 3],
    ['', 0],
    ['aGVsbG8', undefined],
    ['a$==', undefined],
  ])('%j decodes to %j bytes', (value, length) => {
    expect(decodedLength(value)).toBe(length);
  });
});
