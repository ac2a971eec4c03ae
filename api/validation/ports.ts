/**
 * Port numbers and IANA service names (`http`, `metrics-2`), with apimachinery's wording.
 *
 * @example
 *   isValidPortNum(0)          // ['must be between 1 and 65535, inclusive']
 *   isValidPortName('my--port') // ['must not contain consecutive hyphens']
 */
import { fieldErrors, type FieldError } from '../registry/field-error.js';
import { maxLenError } from './names.js';

const PORT_NAME_MAX_LENGTH = 15;

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isValidPortName(name: string): string[] {
  const errs: string[] = [];
  if (name.length > PORT_NAME_MAX_LENGTH) errs.push(maxLenError(PORT_NAME_MAX_LENGTH));
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** An IntOrString port: a number in range, or a service name. */
export function validatePortNumOrName(port: number | string | undefined, path: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((msg) => fieldErrors.invalid(path, port, msg));
  return isValidPortNum(port ?? 0).map((msg) => fieldErrors.invalid(path, port ?? 0, msg));
}
