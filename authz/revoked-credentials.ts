/**
 * The revoked-credentials file (`--revoked-credentials-file`, default `<data-dir>/revoked.csv`):
 * a denylist, one credential per row,
 *
 *   certificate,<serial number in hex>
 *   token,<SHA-256 of the token in hex>
 *
 * optionally followed by more columns (when, why) that the server ignores. Blank lines and `#`
 * lines are skipped, malformed rows logged and skipped. The server re-reads the file about once
 * a second, so a revoked credential is refused (401) within a second of its row being written,
 * with no restart; `kube-spaces credentials revoke` writes rows. A missing file revokes nothing.
 *
 * @example
 *   const revoked = await RevokedCredentials.load('.kube-spaces/revoked.csv', logger);
 *   await revoked.isRevoked('token', tokenDigest(token)); // boolean
 */
import { appendFile } from 'node:fs/promises';
import type { BaseLogger } from 'pino';
import type { Authenticator } from './authenticate.js';
import { bearerToken } from './authenticate.js';
import { ReloadingFile } from './reloading-file.js';
import { tokenDigest } from './token-file.js';

export type CredentialKind = 'certificate' | 'token';

/** A certificate serial as one spelling: lower-case hex without leading zeros (openssl and Node differ). */
export function normalizeSerial(hex: string): string {
  return hex.toLowerCase().replace(/^0+(?=.)/, '');
}

/** The denylist's key of a credential. */
function entryKey(kind: CredentialKind, id: string): string {
  return `${kind}:${kind === 'certificate' ? normalizeSerial(id) : id.toLowerCase()}`;
}

const HEX = /^[0-9a-fA-F]+$/;

/** The rows' keys, and the problems of the rows skipped (1-based line numbers). */
export function parseRevokedCredentials(text: string): { keys: Set<string>; problems: Array<{ line: number; reason: string }> } {
  const keys = new Set<string>();
  const problems: Array<{ line: number; reason: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [kind = '', id = ''] = line.split(',').map((f) => f.trim());
    if (kind !== 'certificate' && kind !== 'token') problems.push({ line: index + 1, reason: `unknown kind ${JSON.stringify(kind)}: certificate or token` });
    else if (!HEX.test(id)) problems.push({ line: index + 1, reason: `${kind} id must be hex, got ${JSON.stringify(id)}` });
    else keys.add(entryKey(kind, id));
  });
  return { keys, problems };
}

export class RevokedCredentials {
  private constructor(private readonly file: ReloadingFile<Set<string>>) {}

  static async load(path: string, logger: BaseLogger, options: { recheckIntervalMs?: number } = {}): Promise<RevokedCredentials> {
    const parse = (text: string): Set<string> => {
      const { keys, problems } = parseRevokedCredentials(text);
      for (const p of problems) logger.warn({ path, line: p.line, reason: p.reason }, 'skipping malformed revoked-credentials row');
      return keys;
    };
    return new RevokedCredentials(await ReloadingFile.load({ path, what: 'revoked-credentials file', parse, logger, optional: true, recheckIntervalMs: options.recheckIntervalMs }));
  }

  async isRevoked(kind: CredentialKind, id: string): Promise<boolean> {
    return (await this.file.current()).has(entryKey(kind, id));
  }
}

/** Appends rows to the revoked-credentials file (one write, so the server never reads half of them). */
export async function appendRevokedCredentials(path: string, entries: ReadonlyArray<{ kind: CredentialKind; id: string }>, revokedAt = new Date()): Promise<void> {
  const rows = entries.map((e) => `${e.kind},${e.id},${revokedAt.toISOString()}\n`).join('');
  await appendFile(path, rows, { mode: 0o600 });
}

/**
 * Wraps a bearer-token authenticator so that a revoked token proves nothing, whatever would
 * accept it (the token file, a service-account token).
 */
export function unlessTokenRevoked(revoked: RevokedCredentials, authenticate: Authenticator): Authenticator {
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (token !== null && (await revoked.isRevoked('token', tokenDigest(token)))) return null;
    return authenticate(request);
  };
}
