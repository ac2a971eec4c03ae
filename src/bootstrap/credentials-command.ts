/**
 * `kube-spaces credentials list|revoke`: what was issued from a data directory (the
 * issued-credentials log), and revoking it (rows added to the revoked-credentials file, which a
 * running server re-reads within a second). Revoking by user revokes every credential the log
 * holds for that user of that tenant.
 *
 * @example
 *   kube-spaces credentials list --data-dir .kube-spaces
 *   kube-spaces credentials revoke --data-dir .kube-spaces --tenant t1 --user alice
 *   kube-spaces credentials revoke --data-dir .kube-spaces 5f0c…   # a serial or token digest from the list
 */
import { join } from 'node:path';
import { appendRevokedCredentials, parseRevokedCredentials, type CredentialKind } from '../../authz/revoked-credentials.js';
import { readFileIfExists } from './atomic-file.js';
import { readIssuedCredentials, type IssuedCredential } from './issued-credentials.js';

/** The default of `--revoked-credentials-file`. */
export function revokedCredentialsPath(dataDir: string): string {
  return join(dataDir, 'revoked.csv');
}

async function revokedKeys(revokedFile: string): Promise<Set<string>> {
  return parseRevokedCredentials((await readFileIfExists(revokedFile)) ?? '').keys;
}

const keyOf = (c: Pick<IssuedCredential, 'kind' | 'id'>): string => `${c.kind}:${c.id}`;

/** The issued credentials as a table (tab-separated, a header first), each marked revoked or not. */
export async function listCredentials(dataDir: string, revokedFile: string): Promise<string> {
  const revoked = await revokedKeys(revokedFile);
  const rows = (await readIssuedCredentials(dataDir)).map((c) =>
    [c.kind, c.id, c.tenant, c.user, c.groups.join(',') || '<none>', c.source, c.issuedAt, c.notAfter ?? '<none>', revoked.has(keyOf(c)) ? 'yes' : 'no'].join('\t'),
  );
  return [['KIND', 'ID', 'TENANT', 'USER', 'GROUPS', 'SOURCE', 'ISSUED', 'EXPIRES', 'REVOKED'].join('\t'), ...rows].join('\n') + '\n';
}

export interface RevokeSelection {
  /** Serials or token digests, as `list` shows them. */
  ids: readonly string[];
  /** Every credential of this user of `tenant`. */
  user?: string | undefined;
  tenant?: string | undefined;
}

/**
 * Adds the selected credentials of the log to the revoked-credentials file and returns them;
 * throws when an id is not in the log (a typo must not pass for a revocation).
 */
export async function revokeCredentials(dataDir: string, revokedFile: string, selection: RevokeSelection): Promise<Array<{ kind: CredentialKind; id: string }>> {
  const issued = await readIssuedCredentials(dataDir);
  const chosen = new Map<string, { kind: CredentialKind; id: string }>();
  for (const id of selection.ids) {
    const matches = issued.filter((c) => c.id === id.toLowerCase());
    if (matches.length === 0) throw new Error(`${id} is not in ${dataDir}'s issued-credentials log (see kube-spaces credentials list)`);
    for (const c of matches) chosen.set(keyOf(c), { kind: c.kind, id: c.id });
  }
  if (selection.user !== undefined) {
    const mine = issued.filter((c) => c.user === selection.user && c.tenant === selection.tenant);
    if (mine.length === 0) throw new Error(`no credentials of user ${JSON.stringify(selection.user)} of tenant ${JSON.stringify(selection.tenant)} in ${dataDir}'s issued-credentials log`);
    for (const c of mine) chosen.set(keyOf(c), { kind: c.kind, id: c.id });
  }
  const already = await revokedKeys(revokedFile);
  const entries = [...chosen.entries()].filter(([key]) => !already.has(key)).map(([, entry]) => entry);
  if (entries.length > 0) await appendRevokedCredentials(revokedFile, entries);
  return [...chosen.values()];
}
