import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../request-info.js';
import { estimateSeats } from './work-estimate.js';

const count = (n: number | undefined) => () => n;
const list = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps', {})!;
const watch = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps', { watch: 'true' })!;
const get = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/one', {})!;

describe('estimateSeats', () => {
  it.each<[string, Parameters<typeof estimateSeats>[0], Record<string, string>, number | undefined, number]>([
    ['a GET', get, {}, 100_000, 1],
    ['a LIST of a kind not cached yet', list, {}, undefined, 1],
    ['a LIST of 250 objects', list, {}, 250, 3],
    ['a LIST of 100,000 objects (at most 10)', list, {}, 100_000, 10],
    ['a page of 50 of them', list, { limit: '50' }, 100_000, 1],
    ['a page with a selector (walks them all)', list, { limit: '50', labelSelector: 'app=web' }, 100_000, 10],
    ['a watch sending its initial state', watch, {}, 450, 5],
    ['a watch resuming from a resourceVersion', watch, { resourceVersion: '1234' }, 450, 1],
  ])('%s', (_what, info, query, stored, seats) => {
    expect(estimateSeats(info, query, count(stored))).toBe(seats);
  });
});
