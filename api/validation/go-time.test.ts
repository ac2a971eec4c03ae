import { describe, expect, it } from 'vitest';
import { goTimeParseError, type GoTimeLayout } from './go-time.js';

const SECONDS = '"2006-01-02T15:04:05Z07:00"';
const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';

describe('goTimeParseError (Go’s time.Parse with metav1.Time’s and MicroTime’s layouts)', () => {
  it.each<[string, GoTimeLayout]>([
    ['2024-01-01T00:00:00Z', 'seconds'],
    ['2024-02-29T23:59:59+05:30', 'seconds'],
    ['2024-01-01T00:00:00.5Z', 'seconds'],
    ['2024-01-01T7:00:00Z', 'seconds'],
    ['2024-01-01T00:00:00.123456Z', 'micro'],
    ['2024-01-01T00:00:00.123456-07:00', 'micro'],
  ])('parses %s (%s)', (value, layout) => {
    expect(goTimeParseError(value, layout)).toBeUndefined();
  });

  it.each<[string, GoTimeLayout, string]>([
    ['yesterday', 'seconds', `parsing time "yesterday" as ${SECONDS}: cannot parse "yesterday" as "2006"`],
    ['2024/01/01', 'seconds', `parsing time "2024/01/01" as ${SECONDS}: cannot parse "/01/01" as "-"`],
    ['2024-1-01T00:00:00Z', 'seconds', `parsing time "2024-1-01T00:00:00Z" as ${SECONDS}: cannot parse "1-01T00:00:00Z" as "01"`],
    ['2024-13-01T00:00:00Z', 'seconds', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'seconds', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01T24:00:00Z', 'seconds', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    ['2024-01-01 00:00:00Z', 'seconds', `parsing time "2024-01-01 00:00:00Z" as ${SECONDS}: cannot parse " 00:00:00Z" as "T"`],
    ['2024-01-01T00:00:00', 'seconds', `parsing time "2024-01-01T00:00:00" as ${SECONDS}: cannot parse "" as "Z07:00"`],
    ['2024-01-01T00:00:00Zjunk', 'seconds', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ['2024-01-01T00:00:00Z', 'micro', `parsing time "2024-01-01T00:00:00Z" as ${MICRO}: cannot parse "Z" as ".000000"`],
    ['2024-01-01T00:00:00.123Z', 'micro', `parsing time "2024-01-01T00:00:00.123Z" as ${MICRO}: cannot parse ".123Z" as ".000000"`],
    ['é', 'seconds', `parsing time "\\xc3\\xa9" as ${SECONDS}: cannot parse "\\xc3\\xa9" as "2006"`],
  ])('refuses %s (%s) in Go’s words', (value, layout, message) => {
    expect(goTimeParseError(value, layout)).toBe(message);
  });
});
