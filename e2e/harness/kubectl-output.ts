/**
 * Reading kubectl's human output the way a user reads it: a table is a header of upper-case
 * column names and rows aligned under them (kubectl's tabwriter pads with spaces, so column
 * positions come from the header and empty cells stay empty).
 *
 * @example
 *   const table = parseTable('NAME   DATA   AGE\ncm1    2      5s\n');
 *   table.header;            // ['NAME', 'DATA', 'AGE']
 *   table.row('cm1');        // { NAME: 'cm1', DATA: '2', AGE: '5s' }
 */

export interface Table {
  header: string[];
  /** Every row as column → cell. */
  rows: Array<Record<string, string>>;
  /** The row whose NAME cell is `name`; throws (listing the table) when there is none. */
  row(name: string): Record<string, string>;
  /** The NAME cells in output order. */
  names(): string[];
}

/** Parses the first table in `text` (lines before the header, and blank lines, are skipped). */
export function parseTable(text: string): Table {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const headerIndex = lines.findIndex((line) => /^[A-Z][A-Z0-9()_\-/. ]*$/.test(line.trim()) && /\bNAME\b/.test(line));
  if (headerIndex < 0) throw new Error(`no table header in kubectl output:\n${text}`);
  const headerLine = lines[headerIndex]!;
  // Column names may hold single spaces (`NOMINATED NODE`); columns are separated by two or more.
  const starts: number[] = [];
  const header: string[] = [];
  for (const match of headerLine.matchAll(/\S+(?: \S+)*/g)) {
    starts.push(match.index);
    header.push(match[0]);
  }
  const rows = lines.slice(headerIndex + 1).map((line) => {
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      row[name] = line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim();
    });
    return row;
  });
  return {
    header,
    rows,
    row(name) {
      const found = rows.find((r) => r['NAME'] === name);
      if (!found) throw new Error(`no row named ${name} in:\n${text}`);
      return found;
    },
    names: () => rows.map((r) => r['NAME'] ?? ''),
  };
}

/** `describe` output as `Key: value` pairs of its top-level lines (indented lines are left out). */
export function describeFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z][A-Za-z -]*):\s*(.*)$/.exec(line);
    if (match) fields[match[1]!] = match[2]!.trim();
  }
  return fields;
}

/** kubectl's AGE cell for something created moments ago (`0s` … `2m`, no clock skew tolerated beyond that). */
export const FRESH_AGE = /^(\d+s|[12]m\d*s?)$/;
