import { describe, expect, it } from 'vitest';
import { ApiError } from '../status.js';
import { formatClusterRevisions, isClusterRevisions, ownRevision, parseClusterRevisions } from './cluster-revisions.js';

const ids = ['default', 'east'];

describe('cluster revisions', () => {
  it('formats every cluster in the given order, 0 for one not named', () => {
    expect(formatClusterRevisions(ids, new Map([['east', 5], ['default', 12]]))).toBe('default=12,east=5');
    expect(formatClusterRevisions(ids, new Map([['default', 12]]))).toBe('default=12,east=0');
  });
  it('parses what it formats, in any order', () => {
    expect([...parseClusterRevisions(ids, 'default=12,east=5')]).toEqual([['default', 12], ['east', 5]]);
    expect(parseClusterRevisions(ids, 'east=5,default=12').get('east')).toBe(5);
  });
  it('reads "" and "0" as every cluster at 0 (any state)', () => {
    expect([...parseClusterRevisions(ids, '0')]).toEqual([['default', 0], ['east', 0]]);
    expect([...parseClusterRevisions(ids, '')]).toEqual([['default', 0], ['east', 0]]);
  });
  it.each(['12', 'default=12', 'default=12,east=5,west=1', 'default=12,default=5', 'default=x,east=1', 'default=12,east=', 'default=12;east=5', 'default=99999999999999999,east=1'])(
    'refuses %j with kube\'s 400',
    (rv) => {
      let err: unknown;
      try {
        parseClusterRevisions(ids, rv);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(400);
      expect((err as ApiError).message).toBe(`invalid resource version "${rv}"`);
    },
  );
  it('gives an object its own cluster\'s revision', () => {
    expect(isClusterRevisions('12')).toBe(false);
    expect(isClusterRevisions('default=12,east=5')).toBe(true);
    expect(ownRevision('default=12,east=5', 'east')).toBe('5');
    expect(ownRevision('default=12,east=5', 'default')).toBe('12');
    expect(ownRevision('17', 'east')).toBe('17');
    expect(ownRevision('default=12,east=5', 'west')).toBe('default=12,east=5');
    expect(ownRevision('default=12,beast=5', 'east')).toBe('default=12,beast=5');
  });
});
