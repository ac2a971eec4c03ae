/**
 * Periodic compaction for stores that do not compact themselves (etcd): like kube-apiserver, each
 * tick compacts to the revision seen at the previous tick, so clients always have at least one
 * interval of history to resume watches and continue lists from. Several servers sharing one etcd
 * may all run it; compacting to an already compacted revision does nothing.
 */
import type { Store } from './store.js';

export interface Compactor {
  stop(): void;
}

export function startCompactor(store: Store, intervalMs: number, onError: (err: unknown) => void): Compactor {
  let previous = 0;
  let running = false;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const current = await store.currentRevision();
      if (previous > 0) await store.compact(previous);
      previous = current;
    } catch (err) {
      onError(err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
