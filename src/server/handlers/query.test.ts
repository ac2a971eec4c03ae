import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/status.js';
import { boolParam, intParam, param, validateListOptions, type Query } from './query.js';

function refusal(query: Query, verb: 'list' | 'watch' = 'list'): { code: number; reason: string; message: string; fields: string[] } | null {
  try {
    validateListOptions(query, verb);
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { code: err.code, reason: err.reason, message: err.message, fields: err.details?.causes?.map((c) => c.field ?? '') ?? [] };
  }
}

describe('validateListOptions (kube-apiserver’s ListOptions rules for a list)', () => {
  it.each<[string, Query]>([
    ['nothing', {}],
    ['a resourceVersion alone', { resourceVersion: '12' }],
    ['resourceVersion 0 (any)', { resourceVersion: '0' }],
    ['Exact at a version', { resourceVersion: '12', resourceVersionMatch: 'Exact' }],
    ['NotOlderThan 0', { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }],
    ['a continue token', { continue: 'abc' }],
  ])('accepts %s', (_what, query) => {
    expect(refusal(query)).toBeNull();
  });

  it.each<[string, Query, string[]]>([
    ['an unknown match', { resourceVersion: '1', resourceVersionMatch: 'Bogus' }, ['resourceVersionMatch']],
    ['a match without resourceVersion', { resourceVersionMatch: 'NotOlderThan' }, ['resourceVersionMatch']],
    ['a match with continue', { resourceVersion: '1', resourceVersionMatch: 'Exact', continue: 'abc' }, ['resourceVersionMatch']],
    ['Exact at 0', { resourceVersion: '0', resourceVersionMatch: 'Exact' }, ['resourceVersionMatch']],
    ['sendInitialEvents', { sendInitialEvents: 'true' }, ['sendInitialEvents']],
  ])('refuses %s with 422 Invalid on ListOptions', (_what, query, fields) => {
    const got = refusal(query);
    expect(got).toMatchObject({ code: 422, reason: 'Invalid', fields });
    expect(got?.message).toMatch(/^ListOptions\.meta\.k8s\.io "" is invalid: /);
  });

  it('words an unknown match as Kubernetes does', () => {
    expect(refusal({ resourceVersion: '1', resourceVersionMatch: 'Bogus' })?.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    );
  });

  it('refuses a resourceVersion that is no number with 400', () => {
    expect(refusal({ resourceVersion: 'abc' })).toMatchObject({ code: 400, reason: 'BadRequest' });
  });
});

describe('validateListOptions for a watch (kube-apiserver’s validateWatchOptions, WatchList on)', () => {
  it.each<[string, Query]>([
    ['a plain watch', {}],
    ['a watch from a resourceVersion', { resourceVersion: '12' }],
    ['a watch-list', { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' }],
    ['sendInitialEvents=false with NotOlderThan', { sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan', resourceVersion: '5' }],
  ])('accepts %s', (_what, query) => {
    expect(refusal(query, 'watch')).toBeNull();
  });

  it.each<[string, Query, string]>([
    [
      'sendInitialEvents without a match',
      { sendInitialEvents: 'true' },
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ],
    [
      'a match without sendInitialEvents',
      { resourceVersionMatch: 'NotOlderThan' },
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ],
    [
      'sendInitialEvents with Exact',
      { sendInitialEvents: 'true', resourceVersionMatch: 'Exact' },
      '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    ],
    [
      'a match with continue',
      { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', continue: 'abc' },
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    ],
  ])('refuses %s with 422 in Kubernetes\' words', (_what, query, message) => {
    expect(refusal(query, 'watch')).toMatchObject({ code: 422, reason: 'Invalid', message: `ListOptions.meta.k8s.io "" is invalid: ${message}` });
  });
});

describe('intParam (Go\'s strconv.ParseInt, as the parameter codec runs it)', () => {
  it.each<[string, number | undefined]>([
    ['12', 12],
    ['-3', -3],
    ['+7', 7],
    ['', undefined],
    ['9223372036854775807', Number.MAX_SAFE_INTEGER],
    ['-9223372036854775808', Number.MIN_SAFE_INTEGER],
  ])('takes %j as %j', (value, expected) => {
    expect(intParam({ limit: value }, 'limit')).toBe(expected);
  });

  it.each<[string, string]>([
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ])('refuses %j with 400: %s', (value, message) => {
    let caught: unknown;
    try {
      intParam({ limit: value }, 'limit');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('param and boolParam (Go\'s parameter codec: the first value, Convert_Slice_string_To_bool)', () => {
  it('reads the first of repeated values', () => {
    expect(param({ limit: ['1', '2'] }, 'limit')).toBe('1');
  });
  it.each<[Query, boolean | undefined]>([
    [{}, undefined],
    [{ force: 'true' }, true],
    [{ force: 'True' }, true],
    [{ force: '1' }, true],
    [{ force: 'maybe' }, true],
    [{ force: '' }, true],
    [{ force: 'FALSE' }, false],
    [{ force: '0' }, false],
    [{ force: ['false', 'true'] }, false],
  ])('%j is %s', (query, expected) => {
    expect(boolParam(query, 'force')).toBe(expected);
  });
});
