/**
 * Runs a reconciler over a work queue fed by informers. A reconcile names an object, never an
 * event, and reads current state; it answers done, requeue (with backoff) or requeue-after.
 */
import type { ObjectKey } from '../../src/client/object-key.js';
import { WorkQueue } from './work-queue.js';

export type ReconcileResult = { kind: 'done' } | { kind: 'requeue' } | { kind: 'after'; ms: number };

export const done: ReconcileResult = { kind: 'done' };
export const requeue: ReconcileResult = { kind: 'requeue' };
export const requeueAfter = (ms: number): ReconcileResult => ({ kind: 'after', ms });

export interface ControllerOptions {
  name: string;
  reconcile(key: ObjectKey): Promise<ReconcileResult>;
  workers?: number;
  log: { error(obj: object, msg: string): void };
}

export class Controller {
  readonly queue = new WorkQueue();
  private running: Promise<void>[] = [];

  constructor(private readonly options: ControllerOptions) {}

  enqueue = (key: ObjectKey): void => this.queue.add(key);

  start(): void {
    for (let i = 0; i < (this.options.workers ?? 1); i += 1) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all(this.running);
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (!key) return;
      try {
        const result = await this.options.reconcile(key);
        if (result.kind === 'done') this.queue.forget(key);
        else if (result.kind === 'after') {
          this.queue.forget(key);
          this.queue.addAfter(key, result.ms);
        } else this.queue.addRateLimited(key);
      } catch (err) {
        this.options.log.error({ err, controller: this.options.name, key }, 'reconcile failed');
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
  }
}
