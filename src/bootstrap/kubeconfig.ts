/**
 * Kubeconfig files for kube-spaces: one cluster (the server URL and our CA), one user with a
 * bearer token or a client certificate, one selected context.
 *
 * @example
 *   renderKubeconfig({ server: 'https://127.0.0.1:6443', caCert: pem, userName: 'admin', token: 'secret' })
 *   renderKubeconfig({ server, caCert: pem, userName: 'alice', clientCertificate: { cert, key } })
 */
import { isMap, isSeq, parseDocument, stringify } from 'yaml';
import type { CertificateAndKey } from './certificates.js';

const CLUSTER_NAME = 'kube-spaces';

/** How the user proves who they are: a bearer token, or a client certificate with its key. */
export type KubeconfigCredential = { token: string } | { clientCertificate: CertificateAndKey };

export type KubeconfigSpec = KubeconfigCredential & {
  /** `https://host:port`, optionally with a path such as `/tenants/t1`. */
  server: string;
  /** PEM of the CA that signed the serving certificate. */
  caCert: string;
  userName: string;
};

export function renderKubeconfig(spec: KubeconfigSpec): string {
  const context = `${spec.userName}@${CLUSTER_NAME}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CLUSTER_NAME, cluster: { server: spec.server, 'certificate-authority-data': base64(spec.caCert) } }],
    users: [{ name: spec.userName, user: userEntry(spec) }],
    contexts: [{ name: context, context: { cluster: CLUSTER_NAME, user: spec.userName } }],
    'current-context': context,
  });
}

function userEntry(credential: KubeconfigCredential): Record<string, string> {
  if ('token' in credential) return { token: credential.token };
  return {
    'client-certificate-data': base64(credential.clientCertificate.cert),
    'client-key-data': base64(credential.clientCertificate.key),
  };
}

/**
 * Points the `kube-spaces` cluster entry of an existing kubeconfig at `server` and `caCert`,
 * keeping everything else (and its comments) as it was. Returns null when nothing changed or the
 * file has no such entry.
 */
export function retargetKubeconfig(text: string, cluster: Pick<KubeconfigSpec, 'server' | 'caCert'>): string | null {
  const doc = parseDocument(text);
  const clusters = doc.get('clusters');
  if (!isSeq(clusters)) return null;
  let changed = false;
  for (const entry of clusters.items) {
    if (!isMap(entry) || entry.get('name') !== CLUSTER_NAME) continue;
    const wanted = { server: cluster.server, 'certificate-authority-data': base64(cluster.caCert) };
    for (const [field, value] of Object.entries(wanted)) {
      if (entry.getIn(['cluster', field]) !== value) {
        entry.setIn(['cluster', field], value);
        changed = true;
      }
    }
  }
  return changed ? doc.toString() : null;
}

function base64(pem: string): string {
  return Buffer.from(pem).toString('base64');
}
