import { describe, expect, it } from 'vitest';
import { cronScheduleError } from './cron-schedule.js';

describe('cronScheduleError', () => {
  it.each(['* * * * *', '*/5 * * * *', '0 0 1 1 *', '0 9-17/2 * * mon-fri', '30 4 1,15 JAN,jul ?', '@hourly', '@every 1h30m', '5 4 * * sun'])('accepts %j', (schedule) => {
    expect(cronScheduleError(schedule)).toBeUndefined();
  });

  it.each<[string, string]>([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['every minute', 'expected exactly 5 fields, found 2: [every minute]'],
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every soon', 'failed to parse duration @every soon: time: invalid duration "soon"'],
  ])('refuses %j: %s', (schedule, want) => {
    expect(cronScheduleError(schedule)).toBe(want);
  });
});
