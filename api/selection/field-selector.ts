/**
 * Field selectors (`metadata.name=web,status.phase!=Running`): only `=`, `==` and `!=`, terms joined
 * by `,`, with `\` escaping `,`, `=` and `\` in values (Kubernetes' `fields.ParseSelector`). Which
 * fields may be selected is the kind's business: `compileFieldSelector` checks them against it.
 */
import { SelectorParseError } from './label-selector.js';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** Splits on unescaped `sep`, keeping escapes for the next stage. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < input.length; i += 1) {
    const c = input[i]!;
    if (c === '\\' && i + 1 < input.length) {
      current += c + input[i + 1]!;
      i += 1;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  terms.push(current);
  return terms;
}

function unescape(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i]!;
    if (c === '\\') {
      const n = value[i + 1];
      if (n !== '\\' && n !== ',' && n !== '=') throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${n ?? ''}`);
      out += n;
      i += 1;
    } else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped ${c} in value`);
    } else {
      out += c;
    }
  }
  return out;
}

export function parseFieldSelector(input: string): FieldRequirement[] {
  if (input.trim() === '') return [];
  return splitTerms(input).map((term) => {
    for (const [token, operator] of [['!=', '!='], ['==', '='], ['=', '=']] as const) {
      const at = term.indexOf(token);
      if (at > 0) return { field: term.slice(0, at).trim(), operator, value: unescape(term.slice(at + token.length)) };
    }
    throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${term}'`);
  });
}

export type FieldGetter<T> = (obj: T) => string | undefined;

/**
 * A predicate over objects for a parsed field selector, given the fields the kind allows.
 * An unknown field is refused with Kubernetes' `field label not supported` message.
 */
export function compileFieldSelector<T>(reqs: FieldRequirement[], fields: Readonly<Record<string, FieldGetter<T>>>): (obj: T) => boolean {
  const checks = reqs.map((r) => {
    const get = fields[r.field];
    if (!get) throw new SelectorParseError(`field label not supported: ${r.field}`);
    return r.operator === '=' ? (o: T) => (get(o) ?? '') === r.value : (o: T) => (get(o) ?? '') !== r.value;
  });
  return (obj) => checks.every((c) => c(obj));
}

/** The value a selector pins a field to with `=` (e.g. `metadata.name=x` for single-object watches). */
export function pinnedValue(reqs: FieldRequirement[], field: string): string | undefined {
  return reqs.find((r) => r.field === field && r.operator === '=')?.value;
}
