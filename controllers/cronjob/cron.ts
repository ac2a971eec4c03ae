/**
 * When a cron schedule fires next, as robfig/cron's standard parser and `SpecSchedule.Next` (what
 * kube's CronJob controller uses): five fields, names, `*`/`?`, ranges, steps, lists, the `@hourly`
 * descriptors and `@every <duration>`; day-of-month and day-of-week are OR-ed unless one is `*`.
 * Times are read on the wall clock of an IANA zone (through Intl), so `0 9 * * *` in
 * `Europe/Paris` fires at 09:00 Paris time across daylight-saving changes. Syntax is checked by
 * `cronScheduleError` (api/kinds/batch/cron-schedule.ts) first.
 *
 * @example
 *   const schedule = parseCron('*\/5 * * * *');
 *   schedule.next(Date.parse('2026-01-01T00:03:00Z'), 'UTC') // 2026-01-01T00:05:00Z
 */
import { cronScheduleError } from '../../api/kinds/batch/cron-schedule.js';
import { parseGoDuration } from '../../api/protobuf/well-known-types.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const BOUNDS: Array<{ min: number; max: number; names?: string[]; nameBase?: number }> = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 6, names: WEEKDAYS, nameBase: 0 },
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export interface CronSchedule {
  /** The first firing strictly after `after` (ms), on the wall clock of `timeZone`. */
  next(after: number, timeZone: string): number;
}

interface Field {
  values: Set<number>;
  /** Written as `*` or `?` (without a step above 1): robfig's star bit. */
  star: boolean;
}

function parseField(text: string, i: number): Field {
  const b = BOUNDS[i]!;
  const values = new Set<number>();
  let star = false;
  const value = (t: string) => {
    const named = b.names?.indexOf(t.toLowerCase()) ?? -1;
    return named >= 0 ? named + (b.nameBase ?? 0) : Number(t);
  };
  for (const item of text.split(',').filter(Boolean)) {
    const [range = '', stepText] = item.split('/');
    const [low = '', high] = range.split('-');
    let start: number;
    let end: number;
    let itemStar = false;
    if (low === '*' || low === '?') {
      start = b.min;
      end = b.max;
      itemStar = true;
    } else {
      start = value(low);
      end = high === undefined ? start : value(high);
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (stepText !== undefined && high === undefined && !itemStar) end = b.max;
    if (step > 1) itemStar = false;
    star ||= itemStar;
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return { values, star };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of an instant in a zone. */
export function wallClock(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf((parts.weekday ?? '').toLowerCase().slice(0, 3)),
  };
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock time (given as if UTC) has in the zone; a time in a DST gap moves forward. */
function instantOf(wallAsUtc: number, timeZone: string): number {
  const guess = wallAsUtc - offsetAt(wallAsUtc, timeZone);
  return wallAsUtc - offsetAt(guess, timeZone);
}

class SpecSchedule implements CronSchedule {
  constructor(private readonly fields: Field[]) {}

  private dayMatches(year: number, month: number, day: number): boolean {
    const [, , dom, , dow] = this.fields as [Field, Field, Field, Field, Field];
    const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    const domMatch = dom.values.has(day);
    const dowMatch = dow.values.has(weekday) || (weekday === 0 && dow.values.has(7));
    return dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  }

  next(after: number, timeZone: string): number {
    const [minutes, hours, , months] = this.fields as [Field, Field, Field, Field, Field];
    const w = wallClock(after, timeZone);
    // Wall-clock time, kept as if it were UTC for arithmetic: the next whole minute after `after`.
    let t = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) + 60_000;
    const limit = t + 5 * 366 * 86_400_000;
    while (t < limit) {
      const d = new Date(t);
      const [year, month, day, hour, minute] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];
      if (!months.values.has(month)) {
        t = Date.UTC(year, month, 1); // first day of the next month
        continue;
      }
      if (!this.dayMatches(year, month, day)) {
        t = Date.UTC(year, month - 1, day + 1);
        continue;
      }
      if (!hours.values.has(hour)) {
        t = Date.UTC(year, month - 1, day, hour + 1);
        continue;
      }
      if (!minutes.values.has(minute)) {
        t += 60_000;
        continue;
      }
      const instant = instantOf(t, timeZone);
      // A wall time repeated when clocks go back may map before `after`: keep looking.
      if (instant > after) return instant;
      t += 60_000;
    }
    throw new Error('cron schedule never fires');
  }
}

class EverySchedule implements CronSchedule {
  constructor(private readonly delayMs: number) {}

  next(after: number): number {
    // robfig: at least a second, whole seconds, from the whole second of `after`.
    const delay = Math.max(1000, Math.floor(this.delayMs / 1000) * 1000);
    return Math.floor(after / 1000) * 1000 + delay;
  }
}

/** Parses a schedule; throws with robfig's message when it is not one. */
export function parseCron(schedule: string): CronSchedule {
  const problem = cronScheduleError(schedule);
  if (problem) throw new Error(problem);
  let text = schedule.trim();
  if (text.startsWith('@every ')) return new EverySchedule(Number(parseGoDuration(text.slice('@every '.length).trim()) / 1_000_000n));
  text = DESCRIPTORS[text] ?? text;
  const parts = text.split(/\s+/).filter(Boolean);
  return new SpecSchedule(parts.map((p, i) => parseField(p, i)));
}

/** The zone the controller uses when a CronJob names none: the controller manager's own, as kube. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
