/**
 * The admin credential in the token file: on first start the file is created holding one row,
 * a random token for user `admin` in group `system:masters` and tenant `system`. Later starts
 * find that row again for the admin kubeconfig.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { BaseLogger } from 'pino';
import { parseTokenFile } from '../../authz/token-file.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { PRIVATE_MODE, readFileIfExists, writeFileAtomic } from './atomic-file.js';

export const ADMIN_USER = 'admin';
const ADMIN_GROUP = 'system:masters';

/**
 * Creates the token file when absent; returns the admin row's token, or null when the file (one
 * the operator wrote) has no such row.
 */
export async function ensureAdminToken(tokenFile: string, logger: BaseLogger): Promise<string | null> {
  let text = await readFileIfExists(tokenFile);
  if (text === null) {
    const token = randomBytes(32).toString('base64url');
    text = `${token},${ADMIN_USER},${randomUUID()},"${ADMIN_GROUP}",${SYSTEM_TENANT}\n`;
    await writeFileAtomic(tokenFile, text, PRIVATE_MODE);
    logger.info({ path: tokenFile }, 'created the token file with an admin token');
  }
  const admin = parseTokenFile(text).rows.find(
    ({ user }) => user.name === ADMIN_USER && user.tenant === SYSTEM_TENANT && user.groups.includes(ADMIN_GROUP),
  );
  return admin?.token ?? null;
}
