import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import { Indexer, NAMESPACE_INDEX, TENANT_INDEX, namespaceIndexValue } from './indexer.js';

const obj = (tenant: string, namespace: string, name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { tenant, namespace, name, ...extra },
});
const names = (objects: KubeObject[]) => objects.map((o) => `${o.metadata.tenant}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();

describe('Indexer', () => {
  it('keeps two same-named objects of different spaces apart', () => {
    const indexer = new Indexer();
    indexer.upsert(obj('t1', 'default', 'dup', { uid: 'a' }));
    indexer.upsert(obj('t2', 'default', 'dup', { uid: 'b' }));
    expect(indexer.size).toBe(2);
    expect(indexer.get({ tenant: 't1', namespace: 'default', name: 'dup' })?.metadata.uid).toBe('a');
    expect(indexer.get({ tenant: 't2', namespace: 'default', name: 'dup' })?.metadata.uid).toBe('b');
    expect(names(indexer.byIndex(NAMESPACE_INDEX, namespaceIndexValue('t1', 'default')))).toEqual(['t1/default/dup']);
    indexer.delete({ tenant: 't1', namespace: 'default', name: 'dup' });
    expect(indexer.get({ tenant: 't2', namespace: 'default', name: 'dup' })?.metadata.uid).toBe('b');
  });

  it('indexes by tenant, and by namespace of a tenant for namespaced objects only', () => {
    const indexer = new Indexer();
    indexer.upsert(obj('t1', 'a', 'x'));
    indexer.upsert(obj('t1', 'b', 'y'));
    indexer.upsert(obj('t2', 'a', 'z'));
    indexer.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { tenant: 't1', name: 'a' } });
    expect(names(indexer.byIndex(TENANT_INDEX, 't1'))).toEqual(['t1//a', 't1/a/x', 't1/b/y']);
    expect(names(indexer.byIndex(NAMESPACE_INDEX, namespaceIndexValue('t1', 'a')))).toEqual(['t1/a/x']);
    expect(indexer.byIndex(NAMESPACE_INDEX, namespaceIndexValue('t3', 'a'))).toEqual([]);
  });

  it('moves an object between index values when it changes, and drops it on delete', () => {
    const indexer = new Indexer({ byApp: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    indexer.upsert(obj('t1', 'ns', 'x', { labels: { app: 'web' } }));
    expect(names(indexer.byIndex('byApp', 'web'))).toEqual(['t1/ns/x']);
    indexer.upsert(obj('t1', 'ns', 'x', { labels: { app: 'db' } }));
    expect(indexer.byIndex('byApp', 'web')).toEqual([]);
    expect(names(indexer.byIndex('byApp', 'db'))).toEqual(['t1/ns/x']);
    indexer.delete({ tenant: 't1', namespace: 'ns', name: 'x' });
    expect(indexer.byIndex('byApp', 'db')).toEqual([]);
    expect(indexer.byIndex(TENANT_INDEX, 't1')).toEqual([]);
  });

  it('refuses an unknown index, a duplicate one, and indexers added once it holds objects', () => {
    const indexer = new Indexer();
    expect(() => indexer.byIndex('nope', 'x')).toThrow(/no index nope/);
    expect(() => indexer.addIndexers({ [TENANT_INDEX]: () => [] })).toThrow(/exists already/);
    indexer.upsert(obj('t1', 'ns', 'x'));
    expect(() => indexer.addIndexers({ late: () => [] })).toThrow(/before the first object/);
  });
});
