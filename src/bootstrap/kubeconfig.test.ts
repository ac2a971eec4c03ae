import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderKubeconfig, retargetKubeconfig } from './kubeconfig.js';

const spec = { server: 'https://127.0.0.1:6443', caCert: 'PEM', userName: 'alice', token: 't0k' };

describe('kubeconfig', () => {
  it('renders one cluster, user and selected context', () => {
    expect(parse(renderKubeconfig(spec))).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'kube-spaces', cluster: { server: spec.server, 'certificate-authority-data': 'UEVN' } }],
      users: [{ name: 'alice', user: { token: 't0k' } }],
      contexts: [{ name: 'alice@kube-spaces', context: { cluster: 'kube-spaces', user: 'alice' } }],
      'current-context': 'alice@kube-spaces',
    });
  });

  it('renders a client certificate and key instead of a token', () => {
    const rendered = parse(renderKubeconfig({ server: spec.server, caCert: 'PEM', userName: 'alice', clientCertificate: { cert: 'CERT', key: 'KEY' } }));
    expect(rendered.users).toEqual([{ name: 'alice', user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' } }]);
  });

  it('retargets the kube-spaces cluster, keeping comments and other entries', () => {
    const text = `# mine\n${renderKubeconfig(spec)}`;
    expect(retargetKubeconfig(text, { server: spec.server, caCert: 'PEM' })).toBeNull();
    const moved = retargetKubeconfig(text, { server: 'https://127.0.0.1:7443', caCert: 'PEM' });
    expect(moved).toContain('# mine');
    expect(parse(moved!)).toEqual({ ...parse(text), clusters: [{ name: 'kube-spaces', cluster: { server: 'https://127.0.0.1:7443', 'certificate-authority-data': 'UEVN' } }] });
    expect(retargetKubeconfig('clusters: []\n', { server: 'x', caCert: 'y' })).toBeNull();
  });
});
