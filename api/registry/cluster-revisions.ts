/**
 * resourceVersions of views across storage clusters (`tenants/all` with `--storage-cluster`).
 * Each cluster counts its own revisions, so one number cannot say where a listing or a watch
 * stands: these resourceVersions name every cluster's revision, `default=120,east=45`, the ids in
 * the server's order. A watch resumes each cluster after its own revision; a list's
 * resourceVersion is such a vector, and so is every watch event's (its own cluster's revision, and
 * the others' last delivered), so client-go resumes from either. A plain number still names one
 * cluster's revision: an object's own resourceVersion, as a precondition, is its cluster's
 * component (`ownRevision`). Clients never parse resourceVersions; kubectl passes them back as is.
 */
import { badRequest } from './api-errors.js';

/** Each cluster's revision, keyed by cluster id. */
export type ClusterRevisions = ReadonlyMap<string, number>;

export function formatClusterRevisions(ids: readonly string[], revisions: ClusterRevisions): string {
  return ids.map((id) => `${id}=${revisions.get(id) ?? 0}`).join(',');
}

/** Whether a resourceVersion names clusters (rather than one revision). */
export function isClusterRevisions(rv: string): boolean {
  return rv.includes('=');
}

/**
 * A vector naming exactly the clusters `ids`, each once; kube's 400 for anything else, as for any
 * resourceVersion that does not parse. "0" and "" (any state) are every cluster at 0.
 */
export function parseClusterRevisions(ids: readonly string[], rv: string): Map<string, number> {
  const revisions = new Map<string, number>();
  if (rv === '' || rv === '0') {
    for (const id of ids) revisions.set(id, 0);
    return revisions;
  }
  for (const part of rv.split(',')) {
    const m = /^([a-z0-9-]+)=(\d{1,16})$/.exec(part);
    const revision = m ? Number(m[2]) : NaN;
    if (!m || !ids.includes(m[1]!) || revisions.has(m[1]!) || !Number.isSafeInteger(revision)) throw badRequest(`invalid resource version "${rv}"`);
    revisions.set(m[1]!, revision);
  }
  if (revisions.size !== ids.length) throw badRequest(`invalid resource version "${rv}"`);
  return revisions;
}

/**
 * The revision a resourceVersion gives `cluster`: a vector's component for it, a plain number as
 * is. A vector that does not name the cluster is returned whole, so it matches nothing.
 */
export function ownRevision(rv: string, cluster: string): string {
  if (!isClusterRevisions(rv)) return rv;
  const m = new RegExp(`(?:^|,)${cluster}=(\\d+)(?:,|$)`).exec(rv);
  return m ? m[1]! : rv;
}
