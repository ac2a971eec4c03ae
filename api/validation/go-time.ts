/**
 * Go's `time.Parse` for the two layouts Kubernetes decodes timestamps with — `metav1.Time`
 * (`time.RFC3339`) and `metav1.MicroTime` (RFC 3339 with exactly six fraction digits) — reduced to
 * what a decoder needs: whether a string parses, and if not, Go's `ParseError` text, which
 * kube-apiserver answers with (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x"
 * as "2006"`). The layout is walked element by element as Go walks it: a literal separator, then a
 * number or zone element; values out of range say which field is.
 *
 * @example
 *   goTimeParseError('2024-13-01T00:00:00Z', 'seconds') // 'parsing time "2024-13-01T00:00:00Z": month out of range'
 *   goTimeParseError('2024-01-01T00:00:00Z', 'seconds') // undefined
 */

/** `seconds`: metav1.Time's layout; `micro`: metav1.MicroTime's. */
export type GoTimeLayout = 'seconds' | 'micro';

const LAYOUTS: Record<GoTimeLayout, string> = {
  seconds: '2006-01-02T15:04:05Z07:00',
  micro: '2006-01-02T15:04:05.000000Z07:00',
};

/** Each element of a layout: the literal before it, and the element itself. */
type Element = { prefix: string; std: '2006' | '01' | '02' | '15' | '04' | '05' | '.000000' | 'Z07:00' };

/** RFC 3339's date and time of day, which both layouts start with. */
const DATE_TIME: Element[] = [
  { prefix: '', std: '2006' },
  { prefix: '-', std: '01' },
  { prefix: '-', std: '02' },
  { prefix: 'T', std: '15' },
  { prefix: ':', std: '04' },
  { prefix: ':', std: '05' },
];
const ZONE: Element = { prefix: '', std: 'Z07:00' };

const ELEMENTS: Record<GoTimeLayout, Element[]> = {
  seconds: [...DATE_TIME, ZONE],
  micro: [...DATE_TIME, { prefix: '', std: '.000000' }, ZONE],
};

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's `getnum`: one or two digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The time package's `quote`: `"` and `\\` escaped, control and non-ASCII characters as `\\x` and their UTF-8 bytes. */
function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) for (const byte of Buffer.from(c)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return `${out}"`;
}

/** Go's error for `value` parsed with the layout, or undefined when it parses. */
export function goTimeParseError(value: string, layout: GoTimeLayout): string | undefined {
  const quoted = quote(value);
  const cannot = (rest: string, elem: string): string => `parsing time ${quoted} as ${quote(LAYOUTS[layout])}: cannot parse ${quote(rest)} as ${quote(elem)}`;
  const outOfRange = (what: string): string => `parsing time ${quoted}: ${what} out of range`;
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const { prefix, std } of ELEMENTS[layout]) {
    if (prefix !== '') {
      if (!rest.startsWith(prefix)) return cannot(rest, prefix);
      rest = rest.slice(prefix.length);
    }
    const hold = rest;
    switch (std) {
      case '2006': {
        if (rest.length < 4 || !/^\d{4}/.test(rest)) return cannot(hold, std);
        year = Number(rest.slice(0, 4));
        rest = rest.slice(4);
        break;
      }
      case '05': {
        const got = getnum(rest, true);
        if (!got) return cannot(hold, std);
        rest = got[1];
        if (got[0] > 59) return outOfRange('second');
        // A fraction the layout does not name is taken here (RFC3339 accepts any number of digits).
        if (layout === 'seconds' && /^[.,]\d/.test(rest)) rest = rest.replace(/^[.,]\d+/, '');
        break;
      }
      case '.000000': {
        if (rest.length < 7 || !/^[.,]\d{6}/.test(rest)) return cannot(hold, std);
        rest = rest.slice(7);
        break;
      }
      case 'Z07:00': {
        if (rest.startsWith('Z')) {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':' || !/^[+-]\d\d:\d\d/.test(rest)) return cannot(hold, std);
        rest = rest.slice(6);
        break;
      }
      default: {
        // 01, 02 and 04 take exactly two digits; 15 one or two.
        const got = getnum(rest, std !== '15');
        if (!got) return cannot(hold, std);
        rest = got[1];
        const n = got[0];
        if (std === '01' && (n < 1 || n > 12)) return outOfRange('month');
        if (std === '15' && n > 23) return outOfRange('hour');
        if (std === '04' && n > 59) return outOfRange('minute');
        if (std === '01') month = n;
        if (std === '02') day = n;
      }
    }
  }
  if (rest !== '') return `parsing time ${quoted}: extra text: ${quote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return undefined;
}
