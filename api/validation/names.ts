/**
 * Name syntax with apimachinery's exact wording: RFC 1123 labels and subdomains, RFC 1035 labels,
 * path segments, and the name rule of each kind (`ValidateNameFunc`). Each check returns the list
 * of problems (empty when the value is fine), so callers can wrap them in field errors.
 *
 * @example
 *   isDNS1123Subdomain('Foo')
 *   // ["a lowercase RFC 1123 subdomain must consist of ... regex used for validation is '...')"]
 */
import type { NameRule } from '../registry/resource-definition.js';

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';

const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);

const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/**
 * apimachinery's RegexError wording. The doubled space before `or` is Kubernetes' own (each example
 * ends in ", " and the separator adds " or "), kept so messages match byte for byte.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

/** Go measures strings in bytes; so do the length limits. */
export function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a label can only differ by its dots (length was checked above).
    errs.push(DNS1123_SUBDOMAIN_RE.test(value) ? 'must not contain dots' : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** A name that is safe as one URL path segment: not `.` or `..`, no `/` or `%`. */
export function isValidPathSegmentName(value: string): string[] {
  for (const illegal of ['.', '..']) {
    if (value === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(value);
}

/** The prefix form (generateName): only the characters are checked. */
export function isValidPathSegmentPrefix(value: string): string[] {
  return ['/', '%'].filter((illegal) => value.includes(illegal)).map((illegal) => `may not contain '${illegal}'`);
}

/** A generateName may end in '-' because a suffix follows; check it as if it ended in a letter. */
function maskTrailingDash(value: string): string {
  return value.length > 1 && value.endsWith('-') ? `${value.slice(0, -1)}a` : value;
}

/**
 * The problems with `name` under a kind's name rule. `prefix` is true for `metadata.generateName`,
 * which the server completes with a random suffix.
 */
export function nameErrors(rule: NameRule, name: string, prefix: boolean): string[] {
  switch (rule) {
    case 'dns1123-subdomain':
      return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
    case 'dns1123-label':
      return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
    case 'path-segment':
      return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
  }
}
