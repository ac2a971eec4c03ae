/**
 * The example controller of docs/controller-authors.md: one watch of ConfigMaps over every
 * space, and in each space a ConfigMap `default/config-map-summary` saying how many ConfigMaps
 * the space holds and a digest of their data. Level-based: events only queue a space; the
 * summary is written from the current state, so a restart (or a relist after 410) converges like
 * any other change. A failed write is queued again with a growing delay, so it is retried even
 * when nothing else happens.
 * Outside this repository, import from 'kube-spaces/client' and 'kube-spaces/runtime'.
 */
import { createHash } from 'node:crypto';
import { configMaps, isNotFound, keyOf, type ConfigMap, type KubeClient, type ObjectKey } from '../../src/client/index.js';
import { WorkQueue } from '../../controllers/runtime/index.js';

export const SUMMARY_NAME = 'config-map-summary';
const MANAGER = 'config-map-summary-controller';
const WORKERS = 4;

export const isSummary = (cm: ConfigMap): boolean => cm.metadata.name === SUMMARY_NAME && cm.metadata.namespace === 'default';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** A digest of a ConfigMap's data, keys sorted. */
export const dataDigest = (cm: ConfigMap): string => sha256(JSON.stringify(Object.entries(cm.data ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))));

/** The summary's data: how many ConfigMaps, and a digest of their `namespace/name dataDigest` lines, sorted. */
export function summaryData(digests: ReadonlyMap<string, string>): Record<string, string> {
  const lines = [...digests.keys()].sort().map((key) => `${key} ${digests.get(key)}\n`);
  return { count: String(digests.size), digest: sha256(lines.join('')) };
}

export async function runConfigMapSummary(client: KubeClient, signal: AbortSignal): Promise<void> {
  const spaces = new Map<string, Map<string, string>>(); // tenant → `namespace/name` → dataDigest
  const queue = new WorkQueue(500, 30_000); // failures retried after 0.5 s, 1 s, 2 s, … 30 s
  const summaryKey = (tenant: string): ObjectKey => ({ tenant, namespace: 'default', name: SUMMARY_NAME });

  const writeSummary = async (key: ObjectKey): Promise<void> => {
    const data = summaryData(spaces.get(key.tenant) ?? new Map());
    const summary = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: SUMMARY_NAME, namespace: 'default' }, data };
    await client.space(key.tenant).namespace('default').resource(configMaps).apply(summary, { fieldManager: MANAGER, force: true });
  };
  const work = async (): Promise<void> => {
    for (let key = await queue.get(); key !== null; key = await queue.get()) {
      try {
        await writeSummary(key);
        queue.forget(key);
      } catch (err) {
        // Gone with its space (or its namespace): new ConfigMaps there will queue it again.
        if (!signal.aborted && !isNotFound(err)) {
          console.warn(`summary of space ${key.tenant}: ${String(err)}; retrying`);
          queue.addRateLimited(key);
        }
      } finally {
        queue.done(key);
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, work);

  try {
    for await (const event of client.allSpaces().resource(configMaps).watch({ signal })) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'RELISTED') {
        for (const tenant of spaces.keys()) queue.add(summaryKey(tenant));
        spaces.clear();
      }
      const changed = event.type === 'RELISTED' ? event.objects : [event.object];
      for (const cm of changed) {
        const { tenant, namespace, name } = keyOf(cm);
        if (isSummary(cm)) {
          if (event.type === 'DELETED') queue.add(summaryKey(tenant)); // someone deleted it: write it again
          continue;
        }
        const digests = spaces.get(tenant) ?? new Map<string, string>();
        spaces.set(tenant, digests);
        if (event.type === 'DELETED') digests.delete(`${namespace}/${name}`);
        else digests.set(`${namespace}/${name}`, dataDigest(cm));
        queue.add(summaryKey(tenant));
      }
    }
  } finally {
    queue.shutDown();
    await Promise.all(workers);
  }
}
