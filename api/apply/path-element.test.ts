import { describe, expect, it } from 'vitest';
import { comparePathElements, goQuote, parsePathElement, pathToString, serializePathElement, type PathElement } from './path-element.js';

describe('path elements', () => {
  it.each<[string, PathElement]>([
    ['f:metadata', { field: 'metadata' }],
    ['f:example.com/owner', { field: 'example.com/owner' }],
    ['k:{"containerPort":80,"protocol":"TCP"}', { key: [['containerPort', 80], ['protocol', 'TCP']] }],
    ['v:"example.com/finalizer"', { value: 'example.com/finalizer' }],
    ['v:5', { value: 5 }],
    ['i:3', { index: 3 }],
  ])('%s', (serialized, pe) => {
    expect(serializePathElement(pe)).toBe(serialized);
    expect(parsePathElement(serialized)).toEqual(pe);
  });

  it('sorts the key fields of a parsed key by name', () => {
    expect(parsePathElement('k:{"protocol":"TCP","containerPort":80}')).toEqual({ key: [['containerPort', 80], ['protocol', 'TCP']] });
  });

  it('orders fields, then keys, then values, then indexes', () => {
    const elements: PathElement[] = [{ index: 0 }, { value: 'a' }, { key: [['name', 'a']] }, { field: 'z' }];
    const sorted = elements.sort(comparePathElements);
    expect(sorted.map(serializePathElement)).toEqual(['f:z', 'k:{"name":"a"}', 'v:"a"', 'i:0']);
  });

  it('renders paths as conflicts name them', () => {
    expect(pathToString([{ field: 'spec' }, { field: 'replicas' }])).toBe('.spec.replicas');
    expect(pathToString([{ field: 'spec' }, { field: 'containers' }, { key: [['name', 'nginx']] }, { field: 'image' }])).toBe('.spec.containers[name="nginx"].image');
    expect(pathToString([{ field: 'ports' }, { key: [['containerPort', 80], ['protocol', 'TCP']] }])).toBe('.ports[containerPort=80,protocol="TCP"]');
    expect(pathToString([{ field: 'finalizers' }, { value: 'a"b' }])).toBe('.finalizers[="a\\"b"]');
    expect(pathToString([{ field: 'args' }, { index: 2 }])).toBe('.args[2]');
  });

  it.each([
    ['plain', '"plain"'],
    ['ünïcödé', '"ünïcödé"'],
    ['a"b\\c', String.raw`"a\"b\\c"`],
    ['tab\there\n', String.raw`"tab\there\n"`],
    ['\x01\x7f', String.raw`"\x01\x7f"`],
    ['\u0085\u00ad\u2028', String.raw`"\u0085\u00ad\u2028"`],
    ['\u{e0001}', String.raw`"\U000e0001"`],
    ['\ud800', '"\ufffd"'],
  ])('quotes %j as Go’s %%q does', (text, quoted) => {
    expect(goQuote(text)).toBe(quoted);
  });
});
