import { describe, expect, it } from 'vitest';
import { fromSelectorObject, parseLabelSelector, SelectorParseError } from './label-selector.js';
import { compileFieldSelector, parseFieldSelector } from './field-selector.js';

describe('parseLabelSelector', () => {
  const labels = { app: 'web', tier: 'fe', 'example.com/team': 'a', n: '5' };
  it.each<[string, boolean]>([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['app notin (db)', true],
    ['missing notin (db)', true],
    ['app notin (web)', false],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web,tier=fe', true],
    ['app=web, tier=be', false],
    ['example.com/team=a', true],
    ['n>4', true],
    ['n<4', false],
    ['app=', false],
    ['empty=', false],
  ])('%s → %s', (sel, want) => {
    expect(parseLabelSelector(sel).matches(labels)).toBe(want);
  });

  it('matches an empty value when asked', () => {
    expect(parseLabelSelector('k=').matches({ k: '' })).toBe(true);
  });

  it.each(['app=web=x', 'app in web', 'app in ()', 'a b', '=x', 'app in (a b)', 'Bad Key=x', 'app=in valid', '!', 'app,', 'x=-bad-'])(
    'refuses %j',
    (sel) => {
      expect(() => parseLabelSelector(sel)).toThrow(SelectorParseError);
    },
  );

  it('renders back to a canonical string', () => {
    expect(parseLabelSelector('app = web,tier in (a,b),!x,y').toString()).toBe('app=web,tier in (a,b),!x,y');
  });

  it('converts structured selectors', () => {
    expect(fromSelectorObject({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['y', 'x'] }] })?.toString()).toBe(
      'a=1,b=2,c notin (x,y)',
    );
    expect(fromSelectorObject(undefined)).toBeNull();
    expect(fromSelectorObject({})?.empty).toBe(true);
  });
});

describe('field selectors', () => {
  const fields = { 'metadata.name': (o: { name: string; phase: string }) => o.name, 'status.phase': (o: { name: string; phase: string }) => o.phase };
  it('parses =, == and != with escapes', () => {
    expect(parseFieldSelector('metadata.name=a\\,b,status.phase!=Running,x==y')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
      { field: 'x', operator: '=', value: 'y' },
    ]);
    expect(parseFieldSelector('')).toEqual([]);
  });
  it('matches and refuses unknown fields', () => {
    const match = compileFieldSelector(parseFieldSelector('metadata.name=p1,status.phase!=Failed'), fields);
    expect(match({ name: 'p1', phase: 'Running' })).toBe(true);
    expect(match({ name: 'p1', phase: 'Failed' })).toBe(false);
    expect(() => compileFieldSelector(parseFieldSelector('spec.foo=x'), fields)).toThrow('field label not supported: spec.foo');
    expect(() => parseFieldSelector('novalue')).toThrow(SelectorParseError);
    expect(() => parseFieldSelector('a=b\\q')).toThrow(SelectorParseError);
  });
});
