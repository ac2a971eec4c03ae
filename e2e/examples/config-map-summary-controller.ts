/**
 * The example controller of docs/controller-authors.md: one watch of ConfigMaps over every
 * space, and in each space a ConfigMap `default/config-map-summary` saying how many ConfigMaps
 * the space holds. Level-based: events only mark a space dirty; the summary is written from the
 * current state, so a restart (or a relist after 410) converges like any other change.
 * Outside this repository, import from 'kube-spaces/client'.
 */
import { configMaps, keyOf, keyString, type KubeClient } from '../../src/client/index.js';

export const SUMMARY_NAME = 'config-map-summary';
const MANAGER = 'config-map-summary-controller';

export async function runConfigMapSummary(client: KubeClient, signal: AbortSignal): Promise<void> {
  const spaces = new Map<string, Set<string>>(); // tenant → keys of its ConfigMaps
  const dirty = new Set<string>();
  let writing: Promise<void> = Promise.resolve();

  const writeSummaries = async (): Promise<void> => {
    for (const tenant of [...dirty]) {
      dirty.delete(tenant);
      const count = String(spaces.get(tenant)?.size ?? 0);
      const summary = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: SUMMARY_NAME, namespace: 'default' }, data: { count } };
      try {
        await client.space(tenant).namespace('default').resource(configMaps).apply(summary, { fieldManager: MANAGER, force: true });
      } catch (err) {
        if (signal.aborted) return;
        console.warn(`summary of space ${tenant}: ${String(err)}; retrying`);
        dirty.add(tenant);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  };

  for await (const event of client.allSpaces().resource(configMaps).watch({ signal })) {
    if (event.type === 'BOOKMARK') continue;
    if (event.type === 'RELISTED') {
      for (const tenant of spaces.keys()) dirty.add(tenant);
      spaces.clear();
    }
    const changed = event.type === 'RELISTED' ? event.objects : [event.object];
    for (const cm of changed) {
      if (cm.metadata.name === SUMMARY_NAME) continue;
      const key = keyOf(cm);
      const keys = spaces.get(key.tenant) ?? new Set<string>();
      spaces.set(key.tenant, keys);
      if (event.type === 'DELETED') keys.delete(keyString(key));
      else keys.add(keyString(key));
      dirty.add(key.tenant);
    }
    writing = writing.then(writeSummaries);
  }
  await writing;
}
