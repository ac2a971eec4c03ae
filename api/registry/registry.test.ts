import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { define, object } from '../schema/schema.js';
import { ResourceRegistry } from './registry.js';
import { defineKind } from './resource-definition.js';

const schema = define('io.kube-spaces.test.registry.Widget', object('A widget.', {}));
const widgets = defineKind({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', scope: 'namespace', schema });
const fakePods = defineKind({ group: '', version: 'v1', kind: 'Pod', resource: 'pods', scope: 'namespace', schema });

describe('ResourceRegistry views', () => {
  it('adds a space’s custom kinds to that space’s view only, after the built-in groups', () => {
    const registry = new ResourceRegistry(builtinKinds);
    registry.setSpaceKinds('t1', [widgets]);
    const t1 = registry.view('t1');
    expect(t1.lookup('example.com', 'v1', 'widgets')).toBe(widgets);
    expect(t1.all().at(-1)).toBe(widgets);
    expect(t1.groupVersions().at(-1)).toEqual({ group: 'example.com', version: 'v1' });
    expect(t1.lookup('', 'v1', 'tenants')).toBeUndefined();
    for (const other of ['t2', 'system', 'all']) {
      expect(registry.view(other).lookup('example.com', 'v1', 'widgets')).toBeUndefined();
      expect(registry.view(other).groupVersions()).not.toContainEqual({ group: 'example.com', version: 'v1' });
    }
    registry.setSpaceKinds('t1', []);
    expect(registry.view('t1').lookup('example.com', 'v1', 'widgets')).toBeUndefined();
  });

  it('keeps Tenants in the system space’s view beside its custom kinds, and built-in kinds over custom ones', () => {
    const registry = new ResourceRegistry(builtinKinds);
    registry.setSpaceKinds('system', [widgets, fakePods]);
    const system = registry.view('system');
    expect(system.lookup('', 'v1', 'tenants')?.kind).toBe('Tenant');
    expect(system.lookup('example.com', 'v1', 'widgets')).toBe(widgets);
    expect(system.lookup('', 'v1', 'pods')).not.toBe(fakePods);
    expect(system.all().filter((d) => d.resource === 'pods')).toHaveLength(1);
  });

  it('gives every space without custom kinds of its own one shared view (a space costs no view of its own), renewed when the shared kinds change', () => {
    const registry = new ResourceRegistry(builtinKinds);
    registry.setSpaceKinds('t3', [widgets]);
    const plain = registry.view('t1');
    expect(registry.view('t2')).toBe(plain);
    expect(registry.view('t3')).not.toBe(plain);
    expect(plain.lookup('', 'v1', 'tenants')).toBeUndefined();
    registry.setSharedKinds([widgets]);
    expect(registry.view('t1')).not.toBe(plain);
    expect(registry.view('t1').lookup('example.com', 'v1', 'widgets')).toBe(widgets);
    expect(registry.view('t2')).toBe(registry.view('t1'));
  });
});
