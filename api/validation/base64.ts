/**
 * Standard base64 as Kubernetes carries bytes in JSON (Secret `data`, ConfigMap `binaryData`):
 * padded, line breaks ignored, as Go's `encoding/base64.StdEncoding` accepts it.
 *
 * @example
 *   decodedLength('aGVsbG8=') // 5
 *   decodedLength('aGVsbG8')  // undefined (missing padding)
 */
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const BASE64_ERROR = 'must be base64-encoded bytes';

/** The number of bytes `value` decodes to, or undefined when it is not valid base64. */
export function decodedLength(value: string): number | undefined {
  const compact = value.replace(/[\r\n]/g, '');
  if (!BASE64_RE.test(compact)) return undefined;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return (compact.length / 4) * 3 - padding;
}
