/**
 * Label selectors in their string form (`app=web,tier in (fe,be),!legacy`), parsed once per request
 * and matched against every object's labels. The grammar and the messages for bad input follow
 * Kubernetes' `labels.Parse`; a bad selector is the caller's error (400 BadRequest).
 *
 * @example
 *   const sel = parseLabelSelector('app=web,env notin (dev)');
 *   sel.matches({ app: 'web', env: 'prod' }); // true
 */
import { isQualifiedName, isValidLabelValue } from '../validation/labels.js';

const labelValueError = (value: string): string | undefined => isValidLabelValue(value)[0];
const qualifiedNameError = (key: string): string | undefined => isQualifiedName(key)[0];

export type LabelOperator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector selects everything (the empty selector). */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  toString(): string;
}

type Token =
  | { kind: 'ident'; text: string }
  | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '>' | '<' | '(' | ')' | ',' }
  | { kind: 'end' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
    } else if (c === '=' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '==' });
      i += 2;
    } else if (c === '!' && input[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=' });
      i += 2;
    } else if (SPECIAL.has(c)) {
      tokens.push({ kind: 'op', text: c as '=' | '!' | '(' | ')' | ',' | '>' | '<' });
      i += 1;
    } else {
      let j = i;
      while (j < input.length && !SPECIAL.has(input[j]!) && !/\s/.test(input[j]!)) j += 1;
      tokens.push({ kind: 'ident', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

function describe(t: Token): string {
  return t.kind === 'end' ? 'EOS' : t.text;
}

/** Parses a label selector string; throws SelectorParseError with a Kubernetes-like message. */
export function parseLabelSelector(input: string): LabelSelector {
  const tokens = tokenize(input);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const next = (): Token => tokens[pos++]!;
  const requirements: LabelRequirement[] = [];

  const readValue = (key: string): string => {
    const t = peek();
    // An empty value is legal: `key=` selects labels whose value is ''.
    if (t.kind !== 'ident') return '';
    pos += 1;
    const problem = labelValueError(t.text);
    if (problem) throw new SelectorParseError(`unable to parse requirement: values[0][${key}]: Invalid value: "${t.text}": ${problem}`);
    return t.text;
  };

  const readSet = (key: string): string[] => {
    const open = next();
    if (open.kind !== 'op' || open.text !== '(') throw new SelectorParseError(`found '${describe(open)}', expected: '('`);
    const values: string[] = [];
    for (;;) {
      const t = next();
      if (t.kind === 'ident') {
        const problem = labelValueError(t.text);
        if (problem) throw new SelectorParseError(`unable to parse requirement: values[${values.length}][${key}]: Invalid value: "${t.text}": ${problem}`);
        values.push(t.text);
        const sep = next();
        if (sep.kind === 'op' && sep.text === ')') return values;
        if (sep.kind !== 'op' || sep.text !== ',') throw new SelectorParseError(`found '${describe(sep)}', expected: ',' or ')'`);
      } else if (t.kind === 'op' && t.text === ')' && values.length === 0) {
        throw new SelectorParseError(`for 'in', 'notin' operators, values set can't be empty`);
      } else {
        throw new SelectorParseError(`found '${describe(t)}', expected: identifier`);
      }
    }
  };

  if (peek().kind === 'end') return makeSelector([]);
  for (;;) {
    let t = next();
    let negated = false;
    if (t.kind === 'op' && t.text === '!') {
      negated = true;
      t = next();
    }
    if (t.kind !== 'ident') throw new SelectorParseError(`found '${describe(t)}', expected: !, identifier, or 'end of string'`);
    const key = t.text;
    const keyProblem = qualifiedNameError(key);
    if (keyProblem) throw new SelectorParseError(`unable to parse requirement: key: Invalid value: "${key}": ${keyProblem}`);

    const op = peek();
    if (negated) {
      requirements.push({ key, operator: '!', values: [] });
    } else if (op.kind === 'end' || (op.kind === 'op' && op.text === ',')) {
      requirements.push({ key, operator: 'exists', values: [] });
    } else if (op.kind === 'op' && (op.text === '=' || op.text === '==' || op.text === '!=')) {
      pos += 1;
      requirements.push({ key, operator: op.text === '!=' ? '!=' : '=', values: [readValue(key)] });
    } else if (op.kind === 'op' && (op.text === '>' || op.text === '<')) {
      pos += 1;
      const v = next();
      if (v.kind !== 'ident' || !/^-?\d+$/.test(v.text)) {
        throw new SelectorParseError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
      }
      requirements.push({ key, operator: op.text === '>' ? 'gt' : 'lt', values: [v.text] });
    } else if (op.kind === 'ident' && (op.text === 'in' || op.text === 'notin')) {
      pos += 1;
      requirements.push({ key, operator: op.text, values: readSet(key) });
    } else {
      throw new SelectorParseError(`found '${describe(op)}', expected: in, notin, =, ==, !=, gt, lt`);
    }

    const sep = next();
    if (sep.kind === 'end') break;
    if (sep.kind !== 'op' || sep.text !== ',') throw new SelectorParseError(`found '${describe(sep)}', expected: ',' or 'end of string'`);
  }
  return makeSelector(requirements);
}

function matchesRequirement(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case '=':
      return has && value === r.values[0];
    case '!=':
      return !has || value !== r.values[0];
    case 'in':
      return has && r.values.includes(value!);
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === 'gt' ? n > bound : n < bound;
    }
  }
}

function requirementString(r: LabelRequirement): string {
  switch (r.operator) {
    case '=':
    case '!=':
      return `${r.key}${r.operator}${r.values[0]}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
  }
}

export function makeSelector(requirements: LabelRequirement[]): LabelSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchesRequirement(r, labels ?? {})),
    toString: () => requirements.map(requirementString).join(','),
  };
}

/** The selector every object matches. */
export const everything: LabelSelector = makeSelector([]);

/** A structured `LabelSelector` (matchLabels + matchExpressions), as workloads carry it. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key?: string; operator?: string; values?: string[] }>;
}

const expressionOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** Converts a structured selector; an absent one selects nothing, an empty one everything (as Kubernetes). */
export function fromSelectorObject(sel: LabelSelectorObject | undefined | null): LabelSelector | null {
  if (!sel) return null;
  const reqs: LabelRequirement[] = Object.entries(sel.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, operator: '=' as const, values: [value] }));
  for (const e of sel.matchExpressions ?? []) {
    const operator = expressionOperators[e.operator ?? ''];
    // An unknown operator matches nothing, as apimachinery refuses to build such a selector.
    if (!operator) return makeSelector([{ key: e.key ?? '', operator: 'in', values: [] }]);
    reqs.push({ key: e.key ?? '', operator, values: [...(e.values ?? [])].sort() });
  }
  return makeSelector(reqs);
}
