/**
 * Operating the server (issue 16, items 1 and 2): `/metrics` in Prometheus text format for the
 * system admin and the system:monitoring group, never for a tenant's users (not even its admin,
 * whose `cluster-admin` holds every non-resource URL of its space).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { certificateKubeconfig, createTenants, grantAndWait, type CertificateCredentials } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher']);

const FAMILIES = [
  'apiserver_request_total',
  'apiserver_request_duration_seconds',
  'apiserver_longrunning_requests',
  'apiserver_registered_watchers',
  'apiserver_watch_events_total',
  'etcd_request_duration_seconds',
  'apiserver_watch_cache_objects',
  'apiserver_watch_cache_resource_version',
  'process_cpu_seconds_total',
  'nodejs_heap_size_used_bytes',
];

describe.each(backendCases(kubectlPath !== undefined))('metrics on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let t1Admin: CertificateCredentials;
    let monitor: CertificateCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1');
      t1Admin = await certificateKubeconfig(cluster, { tenant: 't1', user: 'admin' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'admin' }, t1Admin.api, '/api/v1/namespaces');
      monitor = await certificateKubeconfig(cluster, { tenant: 'system', user: 'prometheus', groups: ['system:monitoring'] });
    });

    afterAll(async () => {
      t1Admin?.api.close();
      monitor?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('shows the system admin every family, in the text format', async () => {
      // A tenant's request and a refused one, so their series exist.
      await t1Admin.api.request('GET', '/api/v1/namespaces/default/configmaps');
      const result = await kubectl.run(['get', '--raw', '/metrics']);
      expect(result.code, result.stderr).toBe(0);
      for (const family of FAMILIES) expect(result.stdout, family).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
      expect(result.stdout).toMatch(/^apiserver_request_total\{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"\} \d+$/m);
      expect(result.stdout).toMatch(/^apiserver_registered_watchers\{group="",version="v1",kind="Namespace"\} [1-9]/m);
      // No label anywhere holds a tenant.
      expect(result.stdout).not.toMatch(/"t1"/);
    });

    it('lets the system:monitoring group of the system space scrape', async () => {
      const res = await monitor.api.request('GET', '/metrics');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    });

    it('answers a tenant\'s admin 403, in kube-apiserver\'s words', async () => {
      const result = await kubectl.run(['get', '--raw', '/metrics'], { kubeconfig: t1Admin.kubeconfig });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/forbidden: User "admin" cannot get path "\/metrics"/);
      const res = await cluster.api.request('GET', '/metrics');
      expect(res.status).toBe(200);
      expect(res.body).toMatch(/apiserver_request_total\{verb="GET",group="",version="",resource="",subresource="\/metrics",scope="",component="apiserver",code="403"\} [1-9]/);
    });
  });
});
