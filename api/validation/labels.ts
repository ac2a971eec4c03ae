/**
 * Label and annotation syntax with apimachinery's wording: qualified names (`prefix/name`, used for
 * label keys, annotation keys and finalizers), label values, and the 256 KiB annotation budget.
 *
 * @example
 *   validateLabels({ 'app.kubernetes.io/name': 'web!' }, 'metadata.labels')
 *   // [{ field: 'metadata.labels', message: 'Invalid value: "web!": a valid label must be ...' }]
 */
import { fieldErrors, type FieldError } from '../registry/field-error.js';
import { byteLength, emptyError, isDNS1123Subdomain, maxLenError, regexError } from './names.js';

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LABEL_VALUE_MAX_LENGTH = 63;

/** All annotations of one object, keys and values together, must fit in 256 KiB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** A key of the form `name` or `dns-subdomain/name`, the name part at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((msg) => `prefix part ${msg}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** A qualified name at `path` (label keys, condition types, finalizers, resource names). */
export function validateQualifiedName(value: string, path: string): FieldError[] {
  return isQualifiedName(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/**
 * Every key and value of a label map. Kubernetes reports these at the map's own path (not per
 * key), with the offending key or value as the bad value.
 */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateQualifiedName(k, path));
    errs.push(...isValidLabelValue(v).map((msg) => fieldErrors.invalid(path, v, msg)));
  }
  return errs;
}

/** Annotation keys are qualified names regardless of case; values are free, but bounded in total. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((msg) => fieldErrors.invalid(path, k, msg)));
    total += byteLength(k) + byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldErrors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}
