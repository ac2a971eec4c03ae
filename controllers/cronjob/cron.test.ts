import { describe, expect, it } from 'vitest';
import { parseCron } from './cron.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

/** The next `n` firings after `from`. */
function firings(schedule: string, from: string, n: number, zone = 'UTC'): string[] {
  const s = parseCron(schedule);
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i += 1) {
    t = s.next(t, zone);
    out.push(iso(t));
  }
  return out;
}

describe('cron schedules (robfig/cron standard parser)', () => {
  it('fires strictly after the given time, on whole minutes', () => {
    expect(firings('*/5 * * * *', '2026-01-01T00:03:10Z', 3)).toEqual(['2026-01-01T00:05:00.000Z', '2026-01-01T00:10:00.000Z', '2026-01-01T00:15:00.000Z']);
    expect(firings('*/1 * * * *', '2026-01-01T00:05:00Z', 2)).toEqual(['2026-01-01T00:06:00.000Z', '2026-01-01T00:07:00.000Z']);
    expect(firings('* * * * *', '2026-01-01T00:05:59.999Z', 1)).toEqual(['2026-01-01T00:06:00.000Z']);
  });

  it('reads ranges, lists, steps and names', () => {
    expect(firings('0 9-17/4 * * mon-fri', '2026-01-02T10:00:00Z', 4)).toEqual([
      '2026-01-02T13:00:00.000Z', // Friday
      '2026-01-02T17:00:00.000Z',
      '2026-01-05T09:00:00.000Z', // Monday
      '2026-01-05T13:00:00.000Z',
    ]);
    expect(firings('30 6 1,15 jan,jul *', '2026-01-10T00:00:00Z', 3)).toEqual(['2026-01-15T06:30:00.000Z', '2026-07-01T06:30:00.000Z', '2026-07-15T06:30:00.000Z']);
    expect(firings('5/20 * * * *', '2026-01-01T00:00:00Z', 3)).toEqual(['2026-01-01T00:05:00.000Z', '2026-01-01T00:25:00.000Z', '2026-01-01T00:45:00.000Z']);
  });

  it('ORs day of month and day of week unless one is a star', () => {
    // The 13th, or any Friday.
    expect(firings('0 0 13 * 5', '2026-02-01T00:00:00Z', 3)).toEqual(['2026-02-06T00:00:00.000Z', '2026-02-13T00:00:00.000Z', '2026-02-20T00:00:00.000Z']);
    // Every day (day of week is *): only the day of month counts.
    expect(firings('0 0 13 * *', '2026-02-01T00:00:00Z', 1)).toEqual(['2026-02-13T00:00:00.000Z']);
    // A step over * is no star: */2 on day of month ORs with day of week.
    expect(firings('0 0 */10 * 1', '2026-02-01T00:00:00Z', 3)).toEqual(['2026-02-02T00:00:00.000Z', '2026-02-09T00:00:00.000Z', '2026-02-11T00:00:00.000Z']);
  });

  it('understands the descriptors and @every', () => {
    expect(firings('@hourly', '2026-01-01T00:30:00Z', 1)).toEqual(['2026-01-01T01:00:00.000Z']);
    expect(firings('@daily', '2026-01-01T00:30:00Z', 1)).toEqual(['2026-01-02T00:00:00.000Z']);
    expect(firings('@weekly', '2026-01-01T00:30:00Z', 1)).toEqual(['2026-01-04T00:00:00.000Z']); // Sunday
    expect(firings('@monthly', '2026-01-01T00:30:00Z', 1)).toEqual(['2026-02-01T00:00:00.000Z']);
    expect(firings('@yearly', '2026-01-01T00:30:00Z', 1)).toEqual(['2027-01-01T00:00:00.000Z']);
    expect(firings('@every 90s', '2026-01-01T00:00:00.400Z', 2)).toEqual(['2026-01-01T00:01:30.000Z', '2026-01-01T00:03:00.000Z']);
  });

  it('fires on the wall clock of a time zone, across daylight-saving changes', () => {
    // 09:00 in Paris is 08:00 UTC in winter, 07:00 UTC in summer.
    expect(firings('0 9 * * *', '2026-03-27T12:00:00Z', 3, 'Europe/Paris')).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
    expect(firings('0 0 * * *', '2026-01-01T12:00:00Z', 1, 'Asia/Kolkata')).toEqual(['2026-01-01T18:30:00.000Z']);
    // 02:30 does not exist in Paris on 2026-03-29: it fires after the gap, not a day later.
    expect(firings('30 2 * * *', '2026-03-28T12:00:00Z', 1, 'Europe/Paris')[0]).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses what the validation refuses, with robfig’s words', () => {
    expect(() => parseCron('61 * * * *')).toThrow('end of range (61) above maximum (59): 61');
    expect(() => parseCron('* * *')).toThrow('expected exactly 5 fields, found 3: [* * *]');
  });
});
