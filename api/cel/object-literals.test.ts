import { describe, expect, it } from 'vitest';
import { celToJson, compileExpression, evaluate, toCel } from './index.js';
import { DYN } from './types.js';

describe('object construction read as maps', () => {
  it('builds JSON from Object{…} and JSONPatch{…}, which plain compilation refuses', () => {
    const source = "Object{metadata: Object.metadata{labels: {'team': object.metadata.name}}, spec: Object.spec{replicas: 2}}";
    expect(compileExpression(source, { object: DYN })).toEqual({ errors: expect.stringContaining("undeclared reference to 'Object'") });
    const compiled = compileExpression(source, { object: DYN }, { objectLiteralsAsMaps: true });
    if ('errors' in compiled) throw new Error(compiled.errors);
    const result = evaluate(compiled, { object: toCel({ metadata: { name: 'web' } }, DYN) });
    expect('value' in result && celToJson(result.value)).toEqual({ metadata: { labels: { team: 'web' } }, spec: { replicas: 2 } });
    const patch = compileExpression("[JSONPatch{op: 'add', path: '/a', value: [1, 'x', true]}]", {}, { objectLiteralsAsMaps: true });
    if ('errors' in patch) throw new Error(patch.errors);
    const ops = evaluate(patch, {});
    expect('value' in ops && celToJson(ops.value)).toEqual([{ op: 'add', path: '/a', value: [1, 'x', true] }]);
  });
});
