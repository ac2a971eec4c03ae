import { describe, expect, it } from 'vitest';
import { compileExpression, evaluate, runtimeCost, schemaType, sizedType, toCel, type CelType, type CompiledExpression, type TypedSchema } from './index.js';

const spec: TypedSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    name: { type: 'string', maxLength: 63 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } },
    labels: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 10 } },
    port: { 'x-kubernetes-int-or-string': true },
    'x-y': { type: 'string' },
    started: { type: 'string', format: 'date-time' },
    timeout: { type: 'string', format: 'duration' },
  },
};
const self = schemaType(spec);
const INT_T: CelType = { kind: 'int' };

function compiled(source: string, vars: Record<string, CelType> = { self }): CompiledExpression {
  const c = compileExpression(source, vars);
  if ('errors' in c) throw new Error(c.errors);
  return c;
}

function run(source: string, value: unknown, type: CelType = self): unknown {
  const result = evaluate(compiled(source, { self: type }), { self: toCel(value, type) });
  return 'error' in result ? `error: ${result.error}` : result.value;
}

describe('compiling', () => {
  it('reports undeclared references and undefined fields as cel-go does', () => {
    expect(compileExpression('foo == 1', { self })).toEqual({ errors: "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^" });
    expect(compileExpression('self.foo == 1', { self })).toEqual({ errors: "ERROR: <input>:1:5: undefined field 'foo'\n | self.foo == 1\n | ....^" });
    expect(compileExpression('self.nope()', { self })).toEqual({ errors: "ERROR: <input>:1:10: undeclared reference to 'nope' (in container '')\n | self.nope()\n | .........^" });
  });

  it('reports a call where cel-go does, at its parenthesis (upstream test)', () => {
    const s: CelType = { kind: 'string', max: 10 };
    expect(compileExpression("'IP family %d'.format([nope(self).family()])", { self: s })).toHaveProperty('errors', expect.stringMatching(/^ERROR: <input>:1:28: undeclared reference to 'nope' \(in container ''\)/));
  });

  it('checks overloads against the schema types', () => {
    const c = compileExpression("self.replicas + 'a' > 1", { self });
    expect(c).toEqual({ errors: "ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(int, string)'\n | self.replicas + 'a' > 1\n | ..............^" });
    expect(compileExpression('self.name.contains(1)', { self })).toHaveProperty('errors', expect.stringContaining("found no matching overload for 'contains' applied to 'string.(int)'"));
    expect(compiled('self.replicas > 1').result).toEqual({ kind: 'bool' });
    expect(compiled("self.name + 'x'").result.kind).toBe('string');
  });

  it('reports syntax errors with their position', () => {
    expect(compileExpression('self.replicas >', { self })).toHaveProperty('errors', expect.stringMatching(/^ERROR: <input>:1:\d+: Syntax error: /));
    expect(compileExpression('self.?name.orValue("") == ""', { self })).toHaveProperty('errors', expect.stringContaining('optional field selection `.?` and `[?` are not supported by this server'));
  });

  it('escapes property names that are not identifiers, and int-or-string is dyn', () => {
    expect(run("self.x__dash__y == 'a'", { 'x-y': 'a' })).toBe(true);
    expect(run('self.port == 80', { port: 80 })).toBe(true);
    expect(run("self.port == 'http'", { port: 'http' })).toBe(true);
  });

  it('knows which variables an expression uses', () => {
    expect([...compiled('self == oldSelf', { self, oldSelf: self }).references].sort()).toEqual(['oldSelf', 'self']);
  });
});

describe('evaluating', () => {
  it('runs macros, has(), maps and timestamps', () => {
    expect(run("self.tags.all(t, t.startsWith('a'))", { tags: ['ab', 'ac'] })).toBe(true);
    expect(run("self.tags.exists_one(t, t == 'b')", { tags: ['a', 'b'] })).toBe(true);
    expect(run('self.tags.map(t, size(t)).filter(n, n > 1).size() == 1', { tags: ['a', 'bb'] })).toBe(true);
    expect(run('has(self.name) && !has(self.replicas)', { name: 'x' })).toBe(true);
    expect(run("self.labels.all(k, self.labels[k] != '')", { labels: { a: 'b' } })).toBe(true);
    expect(run("self.started < timestamp('2030-01-01T00:00:00Z')", { started: '2024-05-01T10:00:00Z' })).toBe(true);
    expect(run("self.timeout > duration('1m')", { timeout: '1h30m' })).toBe(true);
  });

  it('reports a missing field as cel-go does', () => {
    expect(run('self.name == "x"', {})).toBe('error: no such key: name');
  });

  it('has the strings extension', () => {
    const s: CelType = { kind: 'string', max: 100 };
    expect(run("self.lowerAscii() == 'abc' && self.upperAscii() == 'ABC'", 'aBc', s)).toBe(true);
    expect(run("self.charAt(1) == 'b' && self.indexOf('c') == 2 && self.substring(1, 2) == 'b'", 'abc', s)).toBe(true);
    expect(run("self.split(',') == ['a', 'b'] && ['a', 'b'].join('-') == 'a-b'", 'a,b', s)).toBe(true);
    expect(run("self.replace('a', 'x') == 'xbc' && ' a '.trim() == 'a'", 'abc', s)).toBe(true);
    expect(run("'%s is %d'.format([self, 3]) == 'abc is 3'", 'abc', s)).toBe(true);
    expect(run("self.matches('^a.c$')", 'abc', s)).toBe(true);
  });
});

describe('the Kubernetes lists library', () => {
  const ints: CelType = { kind: 'list', elem: { kind: 'int' }, max: 10 };
  it('has isSorted, sum, min, max, indexOf and lastIndexOf (upstream examples)', () => {
    expect(run('[1, 2, 3].isSorted() && !self.isSorted()', [3, 1], ints)).toBe(true);
    expect(run("['a', 'b', 'b', 'c'].isSorted()", [], ints)).toBe(true);
    expect(run('[1, 3].sum() == 4 && self.sum() == 6', [1, 2, 3], ints)).toBe(true);
    expect(run('[1.0, 3.0].sum() == 4.0', [], ints)).toBe(true);
    expect(run('[].sum() == 0', [], ints)).toBe(true);
    expect(run('[1, 3].min() == 1 && [1, 3].max() == 3', [], ints)).toBe(true);
    expect(run('self.min()', [], ints)).toBe('error: min called on empty list');
    expect(run("[1, 2, 2, 3].indexOf(2) == 1 && ['a', 'b', 'b', 'c'].lastIndexOf('b') == 2 && [1.0].indexOf(1.1) == -1", [], ints)).toBe(true);
  });
  it('types min and max by the list', () => {
    expect(compiled('self.max()', { self: ints }).result).toEqual({ kind: 'int' });
    expect(compileExpression('self.max() == "a"', { self: ints })).toHaveProperty('errors');
  });
});

describe('the Kubernetes URL library', () => {
  const s: CelType = { kind: 'string', max: 100 };
  it('parses as upstream documents', () => {
    expect(run("url('https://example.com:80/path?query=val#fragment').getScheme() == 'https'", '', s)).toBe(true);
    expect(run("url('https://example.com:80/').getHost() == 'example.com:80'", '', s)).toBe(true);
    expect(run("url('https://[::1]:80/').getHostname() == '::1'", '', s)).toBe(true);
    expect(run("url('https://example.com:80/').getPort() == '80' && url('https://example.com/').getPort() == ''", '', s)).toBe(true);
    expect(run("url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'", '', s)).toBe(true);
    expect(run("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}", '', s)).toBe(true);
    expect(run("isURL('https://example.com') && isURL('/absolute-path') && !isURL('../relative-path') && !isURL('example.com')", '', s)).toBe(true);
    expect(run("url('relative').getScheme()", '', s)).toMatch(/^error: URL parse error/);
  });
  it('keeps a URL a type of its own when compiling', () => {
    expect(compileExpression("'https://a'.getHost() == 'a'", { self: s })).toHaveProperty('errors', expect.stringContaining("found no matching overload for 'getHost' applied to 'string.()'"));
  });
});

describe('the Kubernetes IP and CIDR libraries', () => {
  const s: CelType = { kind: 'string', max: 100 };
  it('answers as upstream documents', () => {
    expect(run("isIP('127.0.0.1') && isIP('::1') && !isIP('1.2.3') && !isIP('127.0.0.1%eth0')", '', s)).toBe(true);
    expect(run("ip('127.0.0.1').family() == 4 && ip('::1').family() == 6", '', s)).toBe(true);
    expect(run("ip('0.0.0.0').isUnspecified() && ip('127.0.0.1').isLoopback() && ip('::1').isLoopback()", '', s)).toBe(true);
    expect(run("ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast()", '', s)).toBe(true);
    expect(run("ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()", '', s)).toBe(true);
    expect(run("ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast()", '', s)).toBe(true);
    expect(run("ip('2001:DB8:0:0::1') == ip('2001:db8::1') && string(ip('2001:db8:0:0:0:0:0:1')) == '2001:db8::1'", '', s)).toBe(true);
    expect(run("ip('::ffff:1.2.3.4').family()", '', s)).toMatch(/^error: IPv4-mapped IPv6 address/);
    expect(run("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && cidr('192.168.0.0/24').containsIP('192.168.0.1') && !cidr('192.168.0.0/24').containsIP('192.168.1.1')", '', s)).toBe(true);
    expect(run("cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24')) && !cidr('192.168.0.0/24').containsCIDR('192.168.0.0/16')", '', s)).toBe(true);
    expect(run("cidr('192.168.0.1/24').ip() == ip('192.168.0.1') && cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24') && cidr('::1/128').prefixLength() == 128", '', s)).toBe(true);
    expect(run("isCIDR('192.168.0.0/24') && !isCIDR('192.168.0.0/33') && !isCIDR('192.168.0.0')", '', s)).toBe(true);
  });
  it('keeps addresses and strings apart when compiling', () => {
    expect(compileExpression("'1.2.3.4'.family() == 4", { self: s })).toHaveProperty('errors', expect.stringContaining("found no matching overload for 'family' applied to 'string.()'"));
    expect(compileExpression("ip('1.2.3.4') == '1.2.3.4'", { self: s })).toHaveProperty('errors', expect.stringContaining("found no matching overload for '_==_' applied to '(net.IP, string)'"));
  });
});

describe('the Kubernetes quantity library', () => {
  const s: CelType = { kind: 'string', max: 100 };
  it('answers as upstream documents', () => {
    expect(run("isQuantity('1.3G') && isQuantity('1.3Gi') && !isQuantity('1,3Gi') && !isQuantity('10Gib')", '', s)).toBe(true);
    expect(run("quantity('50k').isInteger() && !quantity('50m').isInteger() && quantity('9999').asInteger() == 9999", '', s)).toBe(true);
    expect(run("quantity('50.703k').asApproximateFloat() == 50703.0 && quantity('1Ki').asInteger() == 1024", '', s)).toBe(true);
    expect(run("quantity('50k').sign() == 1 && quantity('-50k').sign() == -1 && quantity('0').sign() == 0", '', s)).toBe(true);
    expect(run("quantity('50k').add(quantity('20k')) == quantity('70k') && quantity('50k').add(20) == quantity('50020')", '', s)).toBe(true);
    expect(run("quantity('50k').sub(quantity('20k')) == quantity('30k') && quantity('50k').sub(20) == quantity('49980')", '', s)).toBe(true);
    expect(run("quantity('50M').isLessThan(quantity('50G')) && quantity('50Mi').isGreaterThan(quantity('50M')) && quantity('200M').compareTo(quantity('0.2G')) == 0", '', s)).toBe(true);
    expect(run("quantity('1') == quantity('1000m') && quantity('1e3') == quantity('1k')", '', s)).toBe(true);
    expect(run("quantity('50m').asInteger()", '', s)).toBe('error: cannot convert value to integer');
  });
});

describe('optional values', () => {
  it('has optional.of, optional.none, hasValue, value, orValue and or', () => {
    expect(run('optional.of(1).hasValue() && !optional.none().hasValue() && optional.of(2).value() == 2', 0, INT_T)).toBe(true);
    expect(run('optional.none().orValue(3) == 3 && optional.of(4).orValue(3) == 4', 0, INT_T)).toBe(true);
    expect(run('optional.none().or(optional.of(5)).value() == 5 && !optional.ofNonZeroValue(0).hasValue()', 0, INT_T)).toBe(true);
    expect(run('optional.none().value() == 1', 0, INT_T)).toBe('error: optional.none() dereference');
  });
  it('types the value of an optional', () => {
    const optionalInt: CelType = { kind: 'optional', elem: { kind: 'int' } };
    expect(compileExpression("oldSelf.value() == 'a'", { oldSelf: optionalInt })).toHaveProperty('errors', expect.stringContaining("found no matching overload for '_==_' applied to '(int, string)'"));
    expect(compileExpression('[1].hasValue()', {})).toHaveProperty('errors', expect.stringContaining("found no matching overload for 'hasValue' applied to 'list(int).()'"));
  });
});

describe('cost', () => {
  const bounded: TypedSchema = { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 64 } };
  const unbounded: TypedSchema = { type: 'array', items: { type: 'string' } };

  it('grows with the declared bounds, and without them with the request size', () => {
    const small = compiled("self.exists(x, x == 'a')", { self: schemaType(bounded) }).cost;
    expect(small).toBeGreaterThan(10_000);
    expect(small).toBeLessThan(1_000_000);
    expect(compiled("self.exists(x, x == 'a')", { self: schemaType(unbounded) }).cost).toBeGreaterThan(1_000_000);
    expect(compiled('self.all(x, self.exists(y, y == x))', { self: schemaType(bounded) }).cost).toBeGreaterThan(100_000_000);
  });

  it('is charged at run time with the sizes the value has', () => {
    const type = schemaType(bounded);
    const c = compiled("self.exists(x, x == 'a')", { self: type });
    expect(runtimeCost(c, { self: sizedType(type, ['b', 'c']) })).toBeLessThan(20);
  });

  it('a walk of 10,000 strings takes well under 200 ms once warm (a nested one is refused by its cost, above)', () => {
    const type = schemaType(bounded);
    const c = compiled("self.exists(x, x == 'zzz') || self.all(x, x.startsWith('item'))", { self: type });
    const value = Array.from({ length: 10_000 }, (_, i) => `item-${i}`);
    // As in a running server, where the evaluator's code is already compiled by the JIT.
    for (let i = 0; i < 5; i++) evaluate(c, { self: toCel(value, type) });
    const started = performance.now();
    expect(evaluate(c, { self: toCel(value, type) })).toEqual({ value: true });
    expect(performance.now() - started).toBeLessThan(200);
  });
});
