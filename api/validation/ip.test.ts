import { describe, expect, it } from 'vitest';
import { validateCIDR, validateIP, validateNonSpecialIP } from './ip.js';

describe('IP addresses', () => {
  it('checks syntax', () => {
    expect(validateIP('10.0.0.1', 'ip')).toEqual([]);
    expect(validateIP('10.0.0.300', 'ip').map((e) => e.message)).toEqual(['Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  });

  it.each([
    ['10.1.2.3', []],
    ['0.0.0.0', ['may not be unspecified (0.0.0.0)']],
    ['127.0.0.1', ['may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['169.254.1.1', ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
    ['224.0.0.5', ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']],
    ['fe80::1', ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']],
  ])('refuses special address %j', (ip, errors) => {
    expect(validateNonSpecialIP(ip, 'ip').map((e) => e.message.replace(/^Invalid value: "[^"]*": /, ''))).toEqual(errors);
  });
});

describe('CIDRs', () => {
  it.each([
    ['10.0.0.0/8', true],
    ['2001:db8::/64', true],
    ['10.0.0.0', false],
    ['10.0.0.0/33', false],
    ['x/8', false],
  ])('%j valid: %j', (cidr, valid) => {
    expect(validateCIDR(cidr, 'c').length === 0).toBe(valid);
  });
});
