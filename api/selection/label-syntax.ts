/**
 * Syntax checks for label keys and values, with Kubernetes' messages (apimachinery
 * `validation.IsQualifiedName` / `IsValidLabelValue`). Used by selectors and metadata validation.
 */
const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** Why `key` is not a qualified name (`prefix/name`), or undefined when it is one. */
export function qualifiedNameError(key: string): string | undefined {
  const slash = key.split('/');
  let name = key;
  if (slash.length === 2) {
    const prefix = slash[0]!;
    name = slash[1]!;
    if (prefix.length === 0) return 'prefix part must be non-empty';
    if (prefix.length > 253) return 'prefix part must be no more than 253 characters';
    if (!DNS1123_SUBDOMAIN_RE.test(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    }
  } else if (slash.length > 2) {
    return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!NAME_RE.test(name)) return NAME_MSG;
  return undefined;
}

/** Why `value` is not a label value, or undefined when it is one. */
export function labelValueError(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (value !== '' && !NAME_RE.test(value)) return VALUE_MSG;
  return undefined;
}
