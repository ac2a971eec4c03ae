import { describe, expect, it } from 'vitest';
import { compileExpression } from '../../cel/index.js';
import { MATCH_CONDITION_VARIABLES } from '../../kinds/admissionregistration/webhook-validation.js';
import { comprehensionDepth, largestCollection, mayExceedLimit } from './condition-bounds.js';

const depth = (source: string): number => {
  const compiled = compileExpression(source, MATCH_CONDITION_VARIABLES);
  if ('errors' in compiled) throw new Error(compiled.errors);
  return comprehensionDepth(compiled.parsed.expr);
};

describe('match condition bounds', () => {
  it.each([
    ["request.userInfo.username == 'jane'", 0],
    ['object.data.all(k, true)', 1],
    ['object.data.all(k, true) && oldObject.data.exists(k, true)', 1],
    ['object.data.all(k, object.data.all(j, k != j))', 2],
    ['object.items.map(a, object.items.map(b, object.items.filter(c, true)))', 3],
  ])('counts nested loops of %s', (source, expected) => {
    expect(depth(source)).toBe(expected);
  });

  it('measures the largest collection, strings included', () => {
    expect(largestCollection({ a: [1, 2, 3], b: { c: 'hello' } }, null)).toBe(5);
  });

  it('lets single loops run and stops nested ones over large inputs', () => {
    expect(mayExceedLimit(1, 10_000_000)).toBe(false);
    expect(mayExceedLimit(2, 1000)).toBe(false);
    expect(mayExceedLimit(2, 1001)).toBe(true);
    expect(mayExceedLimit(3, 101)).toBe(true);
  });
});
