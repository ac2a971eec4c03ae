/**
 * The static token file (`--token-auth-file`): one credential per row,
 *
 *   token,user,uid,"group1,group2",tenant,tenantUid
 *
 * as Kubernetes' token file with a fifth column for the space and a sixth for the uid of the
 * Tenant the row was issued for (a row naming one works only for that incarnation of its tenant). Groups and tenant may be left out
 * (an identity without a tenant is refused later, never sent to `system`). Blank lines and lines
 * starting with `#` are ignored; malformed rows are logged and skipped, so one typo does not lock
 * everybody out. The file is re-read when it changes, so issuing a token needs no restart.
 *
 * @example
 *   const tokens = await TokenFile.load('/var/lib/kube-spaces/tokens.csv', logger);
 *   const user = await tokens.lookup('secret-token'); // UserInfo | null
 */
import { createHash } from 'node:crypto';
import type { BaseLogger } from 'pino';
import { ReloadingFile } from './reloading-file.js';
import { isTenantName } from './user.js';
import type { UserInfo } from '../api/access.js';

export interface TokenRow {
  token: string;
  user: UserInfo;
}

export interface TokenFileProblem {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

export interface ParsedTokenFile {
  rows: TokenRow[];
  problems: TokenFileProblem[];
}

/** Parses the file's text; never throws. */
export function parseTokenFile(text: string): ParsedTokenFile {
  const rows: TokenRow[] = [];
  const problems: TokenFileProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parsed = parseRow(line);
    if (typeof parsed === 'string') problems.push({ line: index + 1, reason: parsed });
    else rows.push(parsed);
  });
  return { rows, problems };
}

/** One row, or the reason it is malformed. */
function parseRow(line: string): TokenRow | string {
  const fields = splitCsvLine(line);
  if (fields === null) return 'unbalanced or misplaced quotes';
  if (fields.length < 3 || fields.length > 6) return `expected 3 to 6 columns (token,user,uid,groups,tenant,tenantUid), found ${fields.length}`;
  const [token, name, uid, groupList = '', tenant = '', tenantUid = ''] = fields as [string, string, string, string?, string?, string?];
  if (token === '') return 'empty token';
  if (name === '') return 'empty user name';
  if (tenant !== '' && !isTenantName(tenant)) return `invalid tenant ${JSON.stringify(tenant)}`;
  const groups = groupList.split(',').map((g) => g.trim()).filter((g) => g !== '');
  if (tenantUid !== '' && tenant === '') return 'a tenant uid without a tenant';
  return { token, user: { name, uid, groups, tenant: tenant === '' ? null : tenant, extra: {}, ...(tenantUid !== '' ? { tenantUid } : {}) } };
}

/**
 * Splits one CSV line (RFC 4180 quoting: `"a,b"`, `""` for a quote). Fields are trimmed. Returns
 * null for a stray or unterminated quote; a quoted field cannot span lines here.
 */
function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] !== '"') break;
          field += '"';
          i += 2;
        } else {
          field += line[i];
          i++;
        }
      }
      i++; // the closing quote
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (i < line.length && line[i] !== ',') return null;
    } else {
      const end = line.indexOf(',', i);
      field = line.slice(i, end === -1 ? line.length : end).trim();
      if (field.includes('"')) return null;
      i = end === -1 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/**
 * A token's SHA-256 digest (hex): tokens are looked up by it (see `TokenFile.lookup`), and it
 * names a token in the issued-credentials log and the revoked-credentials file, which never
 * hold the token itself.
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface TokenFileOptions {
  /** Check the file for changes at most this often (ms). Default 1000. */
  recheckIntervalMs?: number;
}

export class TokenFile {
  private constructor(private readonly file: ReloadingFile<Map<string, UserInfo>>) {}

  /** Reads the file; throws if it cannot be read (a server must not start without it). */
  static async load(path: string, logger: BaseLogger, options: TokenFileOptions = {}): Promise<TokenFile> {
    const parse = (text: string): Map<string, UserInfo> => {
      const { rows, problems } = parseTokenFile(text);
      for (const p of problems) logger.warn({ path, line: p.line, reason: p.reason }, 'skipping malformed token file row');
      const byDigest = new Map<string, UserInfo>();
      for (const row of rows) {
        const key = tokenDigest(row.token);
        if (byDigest.has(key)) logger.warn({ path, user: row.user.name }, 'duplicate token in the token file; the later row wins');
        byDigest.set(key, row.user);
      }
      return byDigest;
    };
    return new TokenFile(await ReloadingFile.load({ path, what: 'token file', parse, logger, recheckIntervalMs: options.recheckIntervalMs }));
  }

  /**
   * The identity a bearer token stands for, or null. The table is keyed by the token's digest,
   * so the lookup's timing depends on a hash the caller cannot steer, never on how many leading
   * characters of a real token a guess got right.
   */
  async lookup(token: string): Promise<UserInfo | null> {
    const user = (await this.file.current()).get(tokenDigest(token));
    return user ? { ...user, groups: [...user.groups], extra: {} } : null;
  }

  /** How many credentials the current table holds. */
  get size(): number {
    return this.file.loaded.size;
  }
}
