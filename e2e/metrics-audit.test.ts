/**
 * Operating the server (issue 16, items 1 and 2): `/metrics` in Prometheus text format for the
 * system admin and the system:monitoring group, never for a tenant's users (not even its admin,
 * whose `cluster-admin` holds every non-resource URL of its space); and the audit log written as
 * an audit.k8s.io/v1 Policy says, a tenant user's requests with user, tenant, verb, objectRef and
 * code at the level of the first matching rule, `None` rules dropping what they match; PodSecurity's
 * audit annotations on a pod's create.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { certificateKubeconfig, createTenants, eventually, grantAndWait, type CertificateCredentials } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher']);

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
  - level: None
    resources: [{ group: "", resources: [events] }, { group: "events.k8s.io", resources: [events] }]
  - level: RequestResponse
    tenants: [t1]
    omitManagedFields: true
    resources: [{ group: "", resources: [configmaps] }]
  - level: Metadata
`;

interface AuditEvent {
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username: string; groups?: string[] };
  objectRef?: { resource: string; namespace?: string; name?: string; apiVersion: string; tenant?: string };
  responseStatus?: { code: number };
  requestObject?: { data?: Record<string, string>; metadata?: Record<string, unknown> };
  responseObject?: { metadata?: Record<string, unknown> };
  annotations: Record<string, string>;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

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
    let auditDir: string;

    async function auditEvents(): Promise<AuditEvent[]> {
      const text = await readFile(join(auditDir, 'audit.log'), 'utf8').catch(() => '');
      // The server may be mid-append: only lines ended by their newline are whole.
      const lines = text.split('\n').slice(0, -1);
      return lines.map((l) => JSON.parse(l) as AuditEvent);
    }

    /** Waits for events that `match` picks, as the log is written in the background. */
    async function eventsWhere(match: (e: AuditEvent) => boolean): Promise<AuditEvent[]> {
      await eventually('audit events', async () => (await auditEvents()).some(match));
      return (await auditEvents()).filter(match);
    }

    beforeAll(async () => {
      auditDir = await mkdtemp(join(tmpdir(), 'kube-spaces-audit-'));
      await writeFile(join(auditDir, 'policy.yaml'), AUDIT_POLICY);
      cluster = await startCluster(backend, { extraArgs: [`--audit-policy-file=${join(auditDir, 'policy.yaml')}`, `--audit-log-path=${join(auditDir, 'audit.log')}`] });
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
      if (auditDir) await rm(auditDir, { recursive: true, force: true });
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

    it('audits a tenant user\'s write at RequestResponse: user, tenant, verb, objectRef, code and bodies', async () => {
      const created = await kubectl.run(['create', 'configmap', 'audited', '-n', 'default', '--from-literal=colour=blue'], { kubeconfig: t1Admin.kubeconfig });
      expect(created.code, created.stderr).toBe(0);
      // The admin's own (the root CA publisher creates configmaps in t1 too).
      const [event, ...more] = await eventsWhere((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.objectRef.tenant === 't1' && e.user.username === 'admin');
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'RequestResponse',
        stage: 'ResponseComplete',
        requestURI: '/tenants/t1/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict',
        user: { username: 'admin' },
        objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1', tenant: 't1' },
        responseStatus: { code: 201 },
        requestObject: { data: { colour: 'blue' } },
        annotations: { 'authorization.k8s.io/decision': 'allow', 'kube-spaces.io/tenant': 't1' },
      });
      expect(event!.annotations['authorization.k8s.io/reason']).toMatch(/^RBAC: allowed by ClusterRoleBinding/);
      expect(event!.responseObject?.metadata?.uid).toEqual(expect.any(String));
      expect(event!.responseObject?.metadata).not.toHaveProperty('managedFields');
      expect(event!.stageTimestamp >= event!.requestReceivedTimestamp).toBe(true);
      expect(event!.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    });

    it('audits another resource at Metadata, without bodies, and names the request by its Audit-Id', async () => {
      const res = await t1Admin.api.request('GET', '/api/v1/namespaces/default/secrets');
      expect(res.status).toBe(200);
      const auditId = res.headers['audit-id'];
      expect(auditId).toMatch(/^[0-9a-f-]{36}$/);
      const [event] = await eventsWhere((e) => e.auditID === auditId);
      expect(event).toMatchObject({ level: 'Metadata', verb: 'list', objectRef: { resource: 'secrets', namespace: 'default', tenant: 't1' }, responseStatus: { code: 200 } });
      expect(event).not.toHaveProperty('requestObject');
      expect(event).not.toHaveProperty('responseObject');
    });

    it('audits a refusal with its code and the forbid decision', async () => {
      const res = await t1Admin.api.request('GET', '/metrics');
      expect(res.status).toBe(403);
      const [event] = await eventsWhere((e) => e.auditID === res.headers['audit-id']);
      expect(event).toMatchObject({ level: 'Metadata', verb: 'get', requestURI: '/metrics', user: { username: 'admin' }, responseStatus: { code: 403 } });
      expect(event!.annotations['authorization.k8s.io/decision']).toBe('forbid');
    });

    it('carries PodSecurity\'s audit annotations: the enforce policy and the audit level\'s violations', async () => {
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'audited', labels: { 'pod-security.kubernetes.io/audit': 'restricted' } } };
      expect((await t1Admin.api.request('POST', '/api/v1/namespaces', { json: ns })).status).toBe(201);
      const created = await kubectl.run(['run', 'plain', '--image=nginx', '-n', 'audited'], { kubeconfig: t1Admin.kubeconfig });
      expect(created.code, created.stderr).toBe(0);
      // Audit mode neither refuses nor warns.
      expect(created.stderr).toBe('');
      const [event] = await eventsWhere((e) => e.verb === 'create' && e.objectRef?.resource === 'pods' && e.objectRef.namespace === 'audited' && e.objectRef.tenant === 't1');
      expect(event!.annotations['pod-security.kubernetes.io/enforce-policy']).toBe('privileged:latest');
      expect(event!.annotations['pod-security.kubernetes.io/audit-violations']).toBe(
        'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "plain" must set securityContext.allowPrivilegeEscalation=false), ' +
          'unrestricted capabilities (container "plain" must set securityContext.capabilities.drop=["ALL"]), ' +
          'runAsNonRoot != true (pod or container "plain" must set securityContext.runAsNonRoot=true), ' +
          'seccompProfile (pod or container "plain" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
      );
    });

    it('drops what None rules match, and the stages the policy omits', async () => {
      const ready = await t1Admin.api.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      // A later request's event is out, so the earlier one would be too.
      const later = await t1Admin.api.request('GET', '/api/v1/namespaces/default/configmaps');
      await eventsWhere((e) => e.auditID === later.headers['audit-id']);
      const events = await auditEvents();
      expect(events.filter((e) => e.auditID === ready.headers['audit-id'])).toEqual([]);
      expect(events.filter((e) => e.objectRef?.resource === 'events')).toEqual([]);
      expect(events.filter((e) => e.stage === 'RequestReceived')).toEqual([]);
    });
  });
});
