/**
 * The key that signs service-account tokens: an ECDSA P-256 private key in `sa.key` in the data
 * directory, created on first start (owner-only), reused afterwards so tokens survive restarts.
 *
 * @example
 *   const key = await ensureServiceAccountKey('/var/lib/kube-spaces', logger); // PEM (PKCS#8)
 */
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { BaseLogger } from 'pino';
import { PRIVATE_MODE, readFileIfExists, writeFileAtomic } from './atomic-file.js';

export const SERVICE_ACCOUNT_KEY_FILE = 'sa.key';

/** Returns the PEM private key, creating `sa.key` when absent. */
export async function ensureServiceAccountKey(dataDir: string, logger: BaseLogger): Promise<string> {
  const path = join(dataDir, SERVICE_ACCOUNT_KEY_FILE);
  const existing = await readFileIfExists(path);
  if (existing !== null) return existing;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await writeFileAtomic(path, pem, PRIVATE_MODE);
  logger.info({ path }, 'created the service-account signing key');
  return pem;
}
