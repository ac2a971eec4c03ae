import { describe, expect, it } from 'vitest';
import { isValidPortName, isValidPortNum, validatePortNumOrName } from './ports.js';

describe('ports', () => {
  it.each([
    [80, []],
    [0, ['must be between 1 and 65535, inclusive']],
    [65536, ['must be between 1 and 65535, inclusive']],
  ])('number %j', (port, errors) => {
    expect(isValidPortNum(port)).toEqual(errors);
  });

  it.each([
    ['http', []],
    ['metrics-2', []],
    ['my--port', ['must not contain consecutive hyphens']],
    ['80', ['must contain at least one letter (a-z)']],
    ['a-very-long-port-name', ['must be no more than 15 characters']],
    ['-http', ['must not begin or end with a hyphen']],
  ])('name %j', (name, errors) => {
    expect(isValidPortName(name)).toEqual(errors);
  });

  it('takes a number or a name', () => {
    expect(validatePortNumOrName('http', 'p')).toEqual([]);
    expect(validatePortNumOrName(0, 'p').map((e) => e.message)).toEqual(['Invalid value: 0: must be between 1 and 65535, inclusive']);
  });
});
