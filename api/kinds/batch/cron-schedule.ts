/**
 * Cron schedule syntax as the CronJob controller accepts it (robfig/cron's standard parser: five
 * fields, names for months and weekdays, `*`, `?`, ranges, steps, lists, and `@hourly`-style
 * descriptors), with that parser's error wording, which kube-apiserver passes through verbatim.
 *
 * @example
 *   cronScheduleError('*\/5 * * * *') // undefined
 *   cronScheduleError('61 * * * *')   // 'end of range (61) above maximum (59): 61'
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: Bounds[] = [
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of month
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(WEEKDAYS.map((d, i) => [d, i])) },
];

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's `time.ParseDuration` grammar: signed sequence of decimal numbers with units. */
const GO_DURATION_RE = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;

class CronError extends Error {}

function parseNumber(text: string): number {
  if (!/^[-+]?\d+$/.test(text)) throw new CronError(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const n = Number(text);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${text}`);
  return n;
}

function parseValue(text: string, bounds: Bounds): number {
  return bounds.names?.[text.toLowerCase()] ?? parseNumber(text);
}

/** Checks one comma-separated item of a field: `*`, `?`, `n`, `a-b`, each optionally `/step`. */
function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseValue(lowAndHigh[0]!, bounds);
    if (lowAndHigh.length > 2) throw new CronError(`too many hyphens: ${expr}`);
    end = lowAndHigh.length === 2 ? parseValue(lowAndHigh[1]!, bounds) : start;
  }
  let step = 1;
  if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1]!);
    // "n/step" means "n-max/step".
    if (lowAndHigh.length === 1) end = bounds.max;
  }
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkSchedule(spec: string): void {
  if (spec === '') throw new CronError('empty spec string');
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    // Time zones in the schedule are refused separately; skip the prefix to check the rest.
    rest = rest.slice(rest.indexOf(' ') + 1).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.has(rest)) return;
    if (rest.startsWith('@every ')) {
      const duration = rest.slice('@every '.length);
      if (!GO_DURATION_RE.test(duration)) throw new CronError(`failed to parse duration ${rest}: time: invalid duration ${JSON.stringify(duration)}`);
      return;
    }
    throw new CronError(`unrecognized descriptor: ${rest}`);
  }
  const fields = rest.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) throw new CronError(`expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`);
  fields.forEach((field, i) => {
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, FIELDS[i]!);
  });
}

/** Why `schedule` is not a valid cron schedule, or undefined when it is one. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    checkSchedule(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
