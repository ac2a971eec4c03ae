/**
 * The one check of a URL path segment that names something stored: a tenant, a namespace or an
 * object. kube-apiserver's rule (`path.IsValidPathSegmentName`: not `.` or `..`, no `/` or `%`)
 * with its wording, plus what no name we store can hold: empty, longer than any name rule allows,
 * control characters, non-ASCII. Every segment of a request passes here before it reaches a
 * storage key, so the key guard in `storage/keys.ts` never fires from a request.
 *
 * @example
 *   pathSegmentProblems('..')    // ["may not be '..'"]
 *   pathSegmentProblems('a/b')   // ["may not contain '/'"]
 *   pathSegmentProblems('web-1') // []
 */
import { byteLength, DNS1123_SUBDOMAIN_MAX_LENGTH, emptyError, isValidPathSegmentName, maxLenError } from './names.js';

/** The longest name any kind accepts (an RFC 1123 subdomain); nothing longer can be stored. */
export const PATH_SEGMENT_MAX_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const NON_ASCII = /[^\u0000-\u007f]/;

/** The problems with one decoded path segment; empty when it may name a stored object. */
export function pathSegmentProblems(segment: string): string[] {
  if (segment === '') return [emptyError()];
  const problems = isValidPathSegmentName(segment);
  if (byteLength(segment) > PATH_SEGMENT_MAX_LENGTH) problems.push(maxLenError(PATH_SEGMENT_MAX_LENGTH));
  if (CONTROL_CHARACTER.test(segment)) problems.push('may not contain control characters');
  if (NON_ASCII.test(segment)) problems.push('may not contain non-ASCII characters');
  return problems;
}
