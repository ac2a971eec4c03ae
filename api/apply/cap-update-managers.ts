/**
 * Keeps at most ten Update entries, as kube-apiserver does: past that, the oldest entries are
 * folded, per API version, into one `ancient-changes` entry, so controllers writing under many
 * names cannot grow managedFields without bound. Apply entries are never folded.
 *
 * @example
 *   capUpdateManagers(managers); // eleven Update entries → nine newest + one "ancient-changes"
 */
import { compareStrings } from './json-value.js';
import { managerIdentity, timeSeconds, type Managers } from './managed-fields.js';

const MAX_UPDATE_MANAGERS = 10;
const BUCKET_MANAGER = 'ancient-changes';

/** Folds the oldest Update entries in place until at most `MAX_UPDATE_MANAGERS` remain. */
export function capUpdateManagers(managers: Managers): void {
  const updaters = [...managers].filter(([, m]) => m.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort(([ia, a], [ib, b]) => Math.sign(timeSeconds(a.time) - timeSeconds(b.time)) || compareStrings(ia, ib));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, m] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, id);
      continue;
    }
    const bucketId = managerIdentity({ manager: BUCKET_MANAGER, operation: 'Update', apiVersion: m.apiVersion, subresource: undefined });
    // Folding the bucket into itself would drop it (kube-apiserver does); it simply stays.
    if (id === bucketId) continue;
    // The first entry of this version becomes the bucket unless there is one; later ones fold into it and lend it their time.
    let bucketFields = managers.get(bucketId)?.fields;
    if (bucketFields === undefined) {
      bucketFields = managers.get(first)?.fields ?? m.fields;
      managers.delete(first);
    }
    managers.set(bucketId, { manager: BUCKET_MANAGER, operation: 'Update', apiVersion: m.apiVersion, subresource: undefined, time: m.time, fields: m.fields.union(bucketFields) });
    managers.delete(id);
    count -= 1;
  }
}
