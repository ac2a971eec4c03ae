import { describe, expect, it } from 'vitest';
import { keyRange } from './key-range.js';

describe('keyRange', () => {
  it.each([
    ['/registry/core/pods/t1/', '/registry/core/pods/t1/', '/registry/core/pods/t10'],
    ['/registry/core/pods/t1', '/registry/core/pods/t1/', '/registry/core/pods/t10'],
    ['/registry/x/a%', '/registry/x/a%/', '/registry/x/a%0'],
  ])('%j covers %j up to %j', (prefix, start, end) => {
    expect(keyRange(prefix)).toEqual({ start, end });
  });

  it('bounds exactly the keys under the directory, in UTF-8 byte order', () => {
    const { start, end } = keyRange('/registry/x/t1');
    const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const keys = ['/registry/x/t1/a', '/registry/x/t1/\u{10ffff}', '/registry/x/t1/ü', '/registry/x/t10/a', '/registry/x/t1', '/registry/x/t1.', '/registry/x/t1x'];
    for (const key of keys) {
      const inRange = byBytes(key, start) >= 0 && byBytes(key, end) < 0;
      expect(inRange, key).toBe(key.startsWith('/registry/x/t1/'));
    }
  });
});
