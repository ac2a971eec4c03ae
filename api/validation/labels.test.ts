import { describe, expect, it } from 'vitest';
import type { FieldError } from '../registry/field-error.js';
import { isQualifiedName, isValidLabelValue, TOTAL_ANNOTATION_SIZE_LIMIT, validateAnnotations, validateLabels } from './labels.js';

const messages = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.message}`);

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('qualified names', () => {
  it.each([
    ['app', []],
    ['app.kubernetes.io/name', []],
    ['example.com/My_Name', []],
    ['-app', [NAME_PART]],
    ['/app', ['prefix part must be non-empty']],
    ['example.com/', ['name part must be non-empty', NAME_PART]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
  ])('%j', (value, errors) => {
    expect(isQualifiedName(value)).toEqual(errors);
  });

  it('refuses more than one slash', () => {
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  });
});

describe('label values', () => {
  it.each([
    ['', []],
    ['v1.2_x', []],
    ['-x', [VALUE]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ])('%j', (value, errors) => {
    expect(isValidLabelValue(value)).toEqual(errors);
  });

  it('reports keys and values at the map path', () => {
    expect(messages(validateLabels({ '-bad': 'ok', good: '-bad' }, 'metadata.labels'))).toEqual([
      `metadata.labels: Invalid value: "-bad": ${NAME_PART}`,
      `metadata.labels: Invalid value: "-bad": ${VALUE}`,
    ]);
  });
});

describe('annotations', () => {
  it('accepts upper-case keys and long values', () => {
    expect(validateAnnotations({ 'Example.com/Note': 'x'.repeat(1000) }, 'metadata.annotations')).toEqual([]);
  });

  it('limits keys and values together to 256 KiB', () => {
    const big = { a: 'x'.repeat(TOTAL_ANNOTATION_SIZE_LIMIT) };
    expect(messages(validateAnnotations(big, 'metadata.annotations'))).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
  });
});
