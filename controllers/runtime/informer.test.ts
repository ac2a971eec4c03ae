import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import type { WatchEvent } from '../../src/client/watch-events.js';
import { Informer, type EventSource } from './informer.js';
import { InformerFactory } from './informer-factory.js';

const cm = (tenant: string, name: string, resourceVersion: string, namespace = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { tenant, namespace, name, resourceVersion },
});

/** A source whose streams the test feeds event by event; `fail` ends the current stream with an error. */
class ScriptedSource {
  streams = 0;
  private queue: Array<WatchEvent<KubeObject> | Error> = [];
  private wake: (() => void) | undefined;

  readonly source: EventSource = (signal) => {
    this.streams += 1;
    const self = this;
    return (async function* () {
      while (!signal.aborted) {
        const next = self.queue.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            self.wake = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
          continue;
        }
        if (next instanceof Error) throw next;
        yield next;
      }
    })();
  };

  send(event: WatchEvent<KubeObject> | Error): void {
    this.queue.push(event);
    this.wake?.();
  }
}

type Seen = [string, string | undefined, string | undefined];
function recorder(informer: Informer, options = {}): Seen[] {
  const seen: Seen[] = [];
  const keyText = (k: ObjectKey) => `${k.tenant}/${k.namespace}/${k.name}`;
  informer.onChange((key, obj, previous) => seen.push([keyText(key), obj?.metadata.resourceVersion, previous?.metadata.resourceVersion]), options);
  return seen;
}

describe('Informer', () => {
  it('caches the listing, then applies events, announcing the object and the one it replaced', async () => {
    const scripted = new ScriptedSource();
    const informer = new Informer('cms', scripted.source);
    const seen = recorder(informer);
    informer.start();
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'a', '1')], resourceVersion: '1' });
    await informer.waitForSync();
    scripted.send({ type: 'MODIFIED', object: cm('t1', 'a', '2') });
    scripted.send({ type: 'BOOKMARK', resourceVersion: '3', initialEventsEnd: false });
    scripted.send({ type: 'DELETED', object: cm('t1', 'a', '4') });
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen).toEqual([
      ['t1/default/a', '1', undefined],
      ['t1/default/a', '2', '1'],
      ['t1/default/a', undefined, '2'],
    ]);
    expect(informer.get({ tenant: 't1', namespace: 'default', name: 'a' })).toBeUndefined();
    informer.stop();
  });

  it('keeps two same-named objects of different spaces apart, in the cache and in its lister', async () => {
    const scripted = new ScriptedSource();
    const informer = new Informer('cms', scripted.source);
    informer.start();
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'dup', '1'), cm('t2', 'dup', '2')], resourceVersion: '2' });
    await informer.waitForSync();
    scripted.send({ type: 'DELETED', object: cm('t1', 'dup', '3') });
    await vi.waitFor(() => expect(informer.lister().list()).toHaveLength(1));
    const lister = informer.lister();
    expect(lister.get({ tenant: 't2', namespace: 'default', name: 'dup' })?.metadata.resourceVersion).toBe('2');
    expect(lister.list({ tenant: 't1' })).toEqual([]);
    expect(lister.list({ tenant: 't2', namespace: 'default' }).map((o) => o.metadata.tenant)).toEqual(['t2']);
    informer.stop();
  });

  it('on a relist announces what changed and what is gone, not what stayed the same', async () => {
    const scripted = new ScriptedSource();
    const informer = new Informer('cms', scripted.source);
    const seen = recorder(informer);
    informer.start();
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'same', '1'), cm('t1', 'changed', '2'), cm('t1', 'gone', '3')], resourceVersion: '3' });
    await informer.waitForSync();
    seen.length = 0;
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'same', '1'), cm('t1', 'changed', '5'), cm('t2', 'new', '6')], resourceVersion: '6' });
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen.sort()).toEqual([
      ['t1/default/changed', '5', '2'],
      ['t1/default/gone', undefined, '3'],
      ['t2/default/new', '6', undefined],
    ]);
    informer.stop();
  });

  it('reports a failed stream and starts a new one, which relists', async () => {
    const scripted = new ScriptedSource();
    const errors: Error[] = [];
    const informer = new Informer('cms', scripted.source, (err) => errors.push(err));
    informer.start();
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'a', '1')], resourceVersion: '1' });
    await informer.waitForSync();
    scripted.send(new Error('connection refused'));
    await vi.waitFor(() => expect(errors.map((e) => e.message)).toEqual(['connection refused']));
    await vi.waitFor(() => expect(scripted.streams).toBe(2), { timeout: 3_000 });
    scripted.send({ type: 'RELISTED', objects: [], resourceVersion: '7' });
    await vi.waitFor(() => expect(informer.lister().list()).toEqual([]));
    informer.stop();
  });

  it('hands every cached object to a handler again each resync period, as old and new at once', async () => {
    vi.useFakeTimers();
    try {
      const scripted = new ScriptedSource();
      const informer = new Informer('cms', scripted.source);
      const seen = recorder(informer, { resyncMs: 1_000 });
      const withoutResync = recorder(informer);
      informer.start();
      scripted.send({ type: 'RELISTED', objects: [cm('t1', 'a', '1'), cm('t2', 'a', '2')], resourceVersion: '2' });
      await informer.waitForSync();
      seen.length = 0;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(seen.sort()).toEqual([
        ['t1/default/a', '1', '1'],
        ['t2/default/a', '2', '2'],
      ]);
      expect(withoutResync).toHaveLength(2);
      informer.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes custom indexers before start only', async () => {
    const scripted = new ScriptedSource();
    const informer = new Informer('cms', scripted.source);
    informer.addIndexers({ byName: (o) => [o.metadata.name ?? ''] });
    informer.start();
    expect(() => informer.addIndexers({ late: () => [] })).toThrow(/before start/);
    scripted.send({ type: 'RELISTED', objects: [cm('t1', 'a', '1'), cm('t2', 'a', '2'), cm('t1', 'b', '3')], resourceVersion: '3' });
    await informer.waitForSync();
    expect(informer.lister().byIndex('byName', 'a').map((o) => o.metadata.tenant).sort()).toEqual(['t1', 't2']);
    informer.stop();
  });
});

describe('InformerFactory', () => {
  it('shares one informer per resource and space', () => {
    const opened: string[] = [];
    const factory = new InformerFactory((resource, space) => {
      opened.push(`${resource.resource}@${space.kind === 'space' ? space.tenant : space.kind}`);
      return new ScriptedSource().source;
    }, () => undefined);
    const configMaps = { group: '', version: 'v1', resource: 'configmaps' };
    expect(factory.informerFor(configMaps)).toBe(factory.informerFor({ ...configMaps }));
    expect(factory.informerFor(configMaps, { kind: 'space', tenant: 't1' })).not.toBe(factory.informerFor(configMaps));
    expect(opened).toEqual(['configmaps@all', 'configmaps@t1']);
    factory.start();
    expect(() => factory.informerFor({ group: 'apps', version: 'v1', resource: 'deployments' })).toThrow(/after start/);
    factory.stop();
  });
});
