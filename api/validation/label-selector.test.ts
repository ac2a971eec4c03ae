import { describe, expect, it } from 'vitest';
import type { FieldError } from '../registry/field-error.js';
import { labelSelectorMatches, validateLabelSelector, type LabelSelector } from './label-selector.js';

const messages = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.message}`);

describe('validateLabelSelector', () => {
  it.each<[string, LabelSelector, string[]]>([
    ['match labels', { matchLabels: { app: 'web' } }, []],
    ['In with values', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }] }, []],
    ['In without values', { matchExpressions: [{ key: 'tier', operator: 'In' }] }, [
      "s.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]],
    ['Exists with values', { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['x'] }] }, [
      "s.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ]],
    ['an unknown operator', { matchExpressions: [{ key: 'tier', operator: 'Gt', values: ['1'] }] }, [
      's.matchExpressions[0].operator: Invalid value: "Gt": not a valid selector operator',
    ]],
  ])('%s', (_, selector, expected) => {
    expect(messages(validateLabelSelector(selector, 's'))).toEqual(expected);
  });

  it('accepts an absent selector', () => {
    expect(validateLabelSelector(undefined, 's')).toEqual([]);
  });
});

describe('labelSelectorMatches', () => {
  const selector: LabelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] };
  it.each([
    [{ app: 'web' }, true],
    [{ app: 'web', tier: 'fe' }, true],
    [{ app: 'web', tier: 'db' }, false],
    [{ app: 'api' }, false],
  ])('%j', (labels, matches) => {
    expect(labelSelectorMatches(selector, labels)).toBe(matches);
  });

  it('matches everything with an empty selector', () => {
    expect(labelSelectorMatches({}, undefined)).toBe(true);
  });
});
