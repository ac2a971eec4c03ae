import { describe, expect, it } from 'vitest';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isValidPathSegmentName, nameErrors } from './names.js';

const SUBDOMAIN_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_ERROR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_ERROR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('DNS names', () => {
  it.each([
    ['web', []],
    ['web.example.com', []],
    ['0abc', []],
    ['Foo', [SUBDOMAIN_ERROR]],
    ['-web', [SUBDOMAIN_ERROR]],
    ['web..x', [SUBDOMAIN_ERROR]],
    ['a'.repeat(254), ['must be no more than 253 characters']],
  ])('subdomain %j', (value, errors) => {
    expect(isDNS1123Subdomain(value)).toEqual(errors);
  });

  it.each([
    ['my-name', []],
    ['123-abc', []],
    ['my.name', ['must not contain dots']],
    ['my_name', [LABEL_ERROR]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ])('label %j', (value, errors) => {
    expect(isDNS1123Label(value)).toEqual(errors);
  });

  it.each([
    ['my-name', []],
    ['1abc', [DNS1035_ERROR]],
  ])('DNS-1035 label %j', (value, errors) => {
    expect(isDNS1035Label(value)).toEqual(errors);
  });
});

describe('path segment names', () => {
  it.each([
    ['web-0.17a8b7c5e1d2f3a4', []],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b%c', ["may not contain '/'", "may not contain '%'"]],
  ])('%j', (value, errors) => {
    expect(isValidPathSegmentName(value)).toEqual(errors);
  });
});

describe('nameErrors', () => {
  it('accepts a generateName ending in a dash, as a suffix follows', () => {
    expect(nameErrors('dns1123-label', 'web-', true)).toEqual([]);
    expect(nameErrors('dns1123-label', 'web-', false)).toEqual([LABEL_ERROR]);
    expect(nameErrors('dns1123-subdomain', 'Web-', true)).toEqual([SUBDOMAIN_ERROR]);
  });
});
