/** File writes that never leave half a key or half a token file behind after a crash. */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/** Owner read/write only: private keys, tokens, kubeconfigs holding tokens. */
export const PRIVATE_MODE = 0o600;
/** Certificates are public. */
export const PUBLIC_MODE = 0o644;

/** Writes `content` to a temporary file beside `path` with `mode`, then renames it into place. */
export async function writeFileAtomic(path: string, content: string, mode: number): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode, flag: 'wx' });
  try {
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** The file's text, or null when it does not exist. */
export async function readFileIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
