/**
 * One watch of the garbage collector (Kubernetes' GC calls them monitors): one collected resource
 * in every space, or one space's own custom resource, with its informer and its work queue. The
 * collector starts and stops monitors as discovery changes (a CRD created or deleted in a space).
 *
 * @example
 *   const monitor = new Monitor(configMaps, 'all', clientSources(client)(configMaps, { kind: 'all' }), handlers, log);
 *   monitor.start();  // lists and watches
 *   monitor.run();    // workers, once the informer has listed
 *   await monitor.stop();
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, type ReconcileResult } from '../runtime/controller.js';
import { Informer, type EventSource } from '../runtime/informer.js';
import { resourceName, type CollectedResource } from './collected-kinds.js';

export interface MonitorHandlers {
  observe(resource: CollectedResource, key: ObjectKey, obj: KubeObject | undefined): void;
  reconcile(resource: CollectedResource, key: ObjectKey): Promise<ReconcileResult>;
}

type MonitorState = 'new' | 'watching' | 'running' | 'stopped';

export class Monitor {
  readonly informer: Informer;
  private readonly controller: Controller;
  private state: MonitorState = 'new';

  /** @param space `all`, or the one space whose own resource this is. */
  constructor(
    readonly resource: CollectedResource,
    readonly space: string,
    source: EventSource,
    handlers: MonitorHandlers,
    log: { error(obj: object, msg: string): void },
  ) {
    const name = `garbage-collector/${resourceName(resource)}@${space}`;
    this.informer = new Informer(name, source, (err) => log.error({ err, informer: name }, 'informer error'));
    this.informer.onChange((key, obj) => handlers.observe(resource, key, obj));
    this.controller = new Controller({ name, reconcile: (key) => handlers.reconcile(resource, key), log });
  }

  /** Lists and watches; the graph fills from the first listing on. */
  start(): void {
    if (this.state !== 'new') throw new Error(`monitor: start in state ${this.state}`);
    this.state = 'watching';
    this.informer.start();
  }

  /** Starts the workers once the informer has listed (at once when it has). */
  run(): void {
    void this.informer.waitForSync().then(() => {
      if (this.state !== 'watching') return;
      this.state = 'running';
      this.controller.start();
    });
  }

  enqueue(key: ObjectKey): void {
    this.controller.enqueue(key);
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.informer.stop();
    await this.controller.stop();
  }
}
