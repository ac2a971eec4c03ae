/**
 * IP address and CIDR checks for endpoints, external IPs, load balancer source ranges and pod DNS
 * settings, worded as Kubernetes' `validation.IsValidIP`, `IsValidCIDR` and `ValidateNonSpecialIP`.
 *
 * @example
 *   validateIP('10.0.0.300', 'subsets[0].addresses[0].ip')
 *   // [{ message: 'Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' }]
 */
import { isIP } from 'node:net';
import { fieldErrors, type FieldError } from '../registry/field-error.js';

export function validateIP(value: string, path: string): FieldError[] {
  return isIP(value) === 0 ? [fieldErrors.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')] : [];
}

function ipv4Octets(value: string): number[] | undefined {
  if (isIP(value) !== 4) return undefined;
  return value.split('.').map(Number);
}

/** Unspecified, loopback and link-local addresses make no sense as service or endpoint addresses. */
export function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const family = isIP(value);
  if (family === 0) return [fieldErrors.invalid(path, value, 'must be a valid IP address')];
  const v4 = ipv4Octets(value);
  const v6 = family === 6 ? value.toLowerCase() : '';
  const errs: FieldError[] = [];
  if ((v4 && v4.every((o) => o === 0)) || v6 === '::') errs.push(fieldErrors.invalid(path, value, `may not be unspecified (${value})`));
  if ((v4 && v4[0] === 127) || v6 === '::1') errs.push(fieldErrors.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if ((v4 && v4[0] === 169 && v4[1] === 254) || /^fe[89ab]/.test(v6)) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if ((v4 && v4[0] === 224 && v4[1] === 0 && v4[2] === 0) || v6.startsWith('ff02:')) {
    errs.push(fieldErrors.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/** A CIDR such as `10.0.0.0/8` or `2001:db8::/64`, worded as Kubernetes' `IsValidCIDR`. */
export function validateCIDR(value: string, path: string): FieldError[] {
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  const maxBits = family === 6 ? 128 : 32;
  const valid = family !== 0 && rest.length === 0 && bits !== undefined && /^\d+$/.test(bits) && Number(bits) <= maxBits;
  return valid ? [] : [fieldErrors.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}
