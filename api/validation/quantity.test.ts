import { describe, expect, it } from 'vitest';
import { canonicalQuantity, canonicalizeResourceList, parseQuantity, quantityNanos } from './quantity.js';

describe('quantities', () => {
  it.each<[string | number, string]>([
    ['0.5', '500m'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1000m', '1'],
    ['1e3', '1e3'],
    ['1.5Gi', '1536Mi'],
    ['2k', '2k'],
    [2, '2'],
    ['0', '0'],
    ['100M', '100M'],
  ])('%j reads back as %j', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each(['', 'abc', '1Gb', '--1', '1.2.3'])('refuses %j', (input) => {
    expect(parseQuantity(input)).toBeUndefined();
  });

  it('leaves what is not a quantity unchanged', () => {
    expect(canonicalQuantity('lots')).toBe('lots');
  });

  it('compares in exact nano-units', () => {
    expect(quantityNanos('1m')).toBe(1_000_000n);
    expect(quantityNanos('1Ki')).toBe(1024n * 1_000_000_000n);
    expect(quantityNanos(undefined)).toBe(0n);
  });

  it('canonicalizes a resource list in place', () => {
    const list = { cpu: '0.25', memory: '2048Mi' };
    canonicalizeResourceList(list);
    expect(list).toEqual({ cpu: '250m', memory: '2Gi' });
  });
});
