/**
 * The field manager of a write, as kube-apiserver names it: the `fieldManager` query parameter
 * when given (kubectl always sends one for its writes: `kubectl-client-side-apply`,
 * `kubectl-edit`, `kubectl`...), otherwise the User-Agent up to its first `/`, without
 * unprintable characters and cut to 128 bytes. An empty name is recorded as `unknown`.
 *
 * @example
 *   fieldManagerName(undefined, 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc'); // → 'kubectl'
 *   fieldManagerName('helm', 'Go-http-client/2.0');                              // → 'helm'
 */
const MAX_BYTES = 128;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function fieldManagerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  let name = '';
  let bytes = 0;
  for (const ch of (userAgent ?? '').split('/')[0] ?? '') {
    if (!PRINTABLE.test(ch)) continue;
    const size = Buffer.byteLength(ch);
    if (bytes + size > MAX_BYTES) break;
    name += ch;
    bytes += size;
  }
  return name || 'unknown';
}
