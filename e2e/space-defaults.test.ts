/**
 * What every space holds from the start, as kube-apiserver and kube-controller-manager keep it in
 * every cluster, seen with stock kubectl (1.27 sends JSON, 1.33 protobuf): the `kubernetes`
 * Service on 10.96.0.1 with its Endpoints at the server's advertised address, `kube-root-ca.crt`
 * with the server's CA in every namespace (back when deleted), and Services refused a changed
 * cluster IP with Kubernetes' message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertiseAddress } from '../src/bootstrap/advertise-address.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { service } from './harness/manifests.js';
import { eventually, userKubeconfig, waitForTenantPhase, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

describe.each(backendCases(kubectlPath !== undefined))('space defaults on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let admin: UserCredentials;

    /** Creates a tenant and a kubeconfig of its `admin` user, who manages the space from the start. */
    async function newSpace(name: string): Promise<UserCredentials> {
      const created = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name } } });
      expect(created.status, created.body).toBe(201);
      await waitForTenantPhase(cluster, name, 'Active');
      const user = await userKubeconfig(cluster, { tenant: name, user: 'admin' });
      await eventually(`admin to manage ${name}`, async () => (await user.api.request('GET', '/api/v1/namespaces')).status === 200);
      return user;
    }

    async function run(args: string[], version?: KubectlVersion) {
      return kubectl.run(args, { kubeconfig: admin.kubeconfig, version });
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      admin = await newSpace('t1');
    });

    afterAll(async () => {
      admin?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('shows the kubernetes Service of a new space on the first IP', async () => {
      for (const version of VERSIONS) {
        const result = await run(['get', 'svc', '-n', 'default'], version);
        expect(result.code, result.stderr).toBe(0);
        const table = parseTable(result.stdout);
        expect(table.names()).toEqual(['kubernetes']);
        expect(table.row('kubernetes')).toMatchObject({ TYPE: 'ClusterIP', 'CLUSTER-IP': '10.96.0.1', 'EXTERNAL-IP': '<none>', 'PORT(S)': '443/TCP' });
      }
      const all = await run(['get', 'all', '-n', 'default', '-o', 'name']);
      expect(all.stdout.trim()).toBe('service/kubernetes');
    });

    it('shows the server’s advertised address and port as its endpoints', async () => {
      const address = advertiseAddress('127.0.0.1');
      for (const version of VERSIONS) {
        const result = await run(['get', 'endpoints', 'kubernetes', '-n', 'default'], version);
        if (address === undefined) {
          // A loopback-only host has nothing an Endpoints may hold, so there is none (as kube-apiserver fails to write it).
          expect(result.stderr).toContain('endpoints "kubernetes" not found');
          continue;
        }
        expect(result.code, result.stderr).toBe(0);
        expect(parseTable(result.stdout).row('kubernetes')['ENDPOINTS']).toBe(`${address}:${cluster.server.port}`);
      }
      const slice = await run(['get', 'endpointslice', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.metadata.labels.kubernetes\\.io/service-name} {.ports[0].port}']);
      if (address !== undefined) expect(slice.stdout).toBe(`kubernetes ${cluster.server.port}`);
    });

    it('publishes the server CA as kube-root-ca.crt in a new namespace, and again after deletion', async () => {
      const ns = await run(['create', 'namespace', 'ns1']);
      expect(ns.code, ns.stderr).toBe(0);
      const readCa = async (version?: KubectlVersion) => (await run(['get', 'cm', 'kube-root-ca.crt', '-n', 'ns1', '-o', 'jsonpath={.data.ca\\.crt}'], version)).stdout;
      await eventually('kube-root-ca.crt in ns1', async () => (await readCa()) !== '');
      for (const version of VERSIONS) expect(await readCa(version)).toBe(cluster.server.caCert);
      const deleted = await run(['delete', 'cm', 'kube-root-ca.crt', '-n', 'ns1']);
      expect(deleted.code, deleted.stderr).toBe(0);
      await eventually('kube-root-ca.crt back in ns1', async () => (await readCa()) === cluster.server.caCert);
    });

    it('never gives the first IP to a user Service of a new space', async () => {
      const fresh = await newSpace('t2');
      try {
        const asking = { ...service('default', 'first'), spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } };
        const refused = await fresh.api.request('POST', '/api/v1/namespaces/default/services', { json: asking });
        expect(refused.status, refused.body).toBe(422);
        expect(refused.json<{ message: string }>().message).toBe('Service "first" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.1": provided IP is already allocated');
        for (const name of ['a', 'b', 'c']) {
          const created = await fresh.api.request('POST', '/api/v1/namespaces/default/services', { json: service('default', name) });
          expect(created.status, created.body).toBe(201);
          expect(created.json<{ spec: { clusterIP: string } }>().spec.clusterIP).not.toBe('10.96.0.1');
        }
      } finally {
        fresh.api.close();
      }
    });

    it('refuses a changed cluster IP with Kubernetes’ message', async () => {
      const created = await run(['create', 'service', 'clusterip', 'web', '-n', 'ns1', '--tcp', '80']);
      expect(created.code, created.stderr).toBe(0);
      const ip = (await run(['get', 'svc', 'web', '-n', 'ns1', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
      const other = ip === '10.96.0.50' ? '10.96.0.51' : '10.96.0.50';
      for (const version of VERSIONS) {
        for (const patch of [{ clusterIP: other }, { clusterIP: other, clusterIPs: [other] }]) {
          const result = await run(['patch', 'svc', 'web', '-n', 'ns1', '-p', JSON.stringify({ spec: patch })], version);
          expect(result.code).not.toBe(0);
          expect(result.stderr.trim()).toBe(`The Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["${other}"]: may not change once set`);
        }
      }
    });
  });
});
