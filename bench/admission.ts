/**
 * Admission benchmark: what a space's admission costs a create, measured through the built server
 * (`dist/`) on the embedded store and, when an etcd binary is present, on etcd. In one space:
 *   - no admission configuration (measured first and last; the baseline is their mean, so a
 *     warming server favours no subject);
 *   - 1 ValidatingAdmissionPolicy (with its binding) matching ConfigMap creates;
 *   - 10 such policies;
 *   - 1 validating webhook (HTTPS on loopback, in this process) matching ConfigMap creates.
 * For each: ConfigMap creates/s at 64 in flight and the median latency of creates one at a time,
 * both as ratios against no admission.
 *
 *   npm run bench:admission
 *   BENCH_ADMISSION_SMALL=1 npm run bench:admission   # a tenth of every count, for development
 *
 * Every loop is bounded; servers, etcd and the webhook server are stopped at the end.
 */
import { performance } from 'node:perf_hooks';
import { Agent } from 'node:https';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { findEtcdBinary, startEtcd, type EtcdProcess } from '../e2e/harness/etcd.js';
import { startServer, type ServerProcess } from '../e2e/harness/server.js';
import { startWebhookServer, type WebhookServer } from '../e2e/harness/webhook-server.js';
import { load, send, type Answer, type Target } from './http-load.js';

const SCALE = process.env.BENCH_ADMISSION_SMALL ? 10 : 1;
const CREATES = 3_000 / SCALE;
const IN_FLIGHT = 64;
const SERIAL_CREATES = 500 / SCALE;
const SPACE = 'admission-bench';
const GROUP_PATH = `/tenants/${SPACE}/apis/admissionregistration.k8s.io/v1`;
const CONFIG_MAPS = `/tenants/${SPACE}/api/v1/namespaces/default/configmaps`;
const DEADLINE_MS = 60_000;

const configMap = (name: string, labels: Record<string, string> = { app: 'bench' }) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { key: 'v'.repeat(512) } });

const CONFIG_MAP_RULE = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] };

/** Policy `i` refuses ConfigMaps labelled `deny-<i>`: every create evaluates it, none is refused. */
function policy(i: number): unknown {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: `deny-${i}` },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [CONFIG_MAP_RULE] },
      validations: [{ expression: `!has(object.metadata.labels) || !('deny-${i}' in object.metadata.labels)`, message: `labelled deny-${i}` }],
    },
  };
}

const binding = (i: number): unknown => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: `deny-${i}` },
  spec: { policyName: `deny-${i}`, validationActions: ['Deny'] },
});

const webhookConfiguration = (hooks: WebhookServer): unknown => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'deny-labelled' },
  webhooks: [
    {
      name: 'deny-labelled.bench.example.com',
      clientConfig: { url: hooks.url('/deny-labelled'), caBundle: hooks.caBundle },
      rules: [CONFIG_MAP_RULE],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    },
  ],
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  perSecond: number;
  serialMedianMs: number;
}

class Bench {
  private readonly agent: Agent;
  private created = 0;

  constructor(private readonly target: Target) {
    this.agent = new Agent({ ca: target.ca, keepAlive: true, maxSockets: 1 });
  }

  send(method: string, path: string, body?: string): Promise<Answer> {
    return send(this.agent, this.target, method, path, body);
  }

  async expect(method: string, path: string, status: number, body?: unknown): Promise<void> {
    const answer = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
  }

  /** Waits until a dry-run create labelled `label` is refused (or accepted): the configuration just written (or deleted) is in force. */
  async until(outcome: 'refused' | 'accepted', label: string): Promise<void> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const answer = await this.send('POST', `${CONFIG_MAPS}?dryRun=All`, configMap('probe', { [label]: 'yes' }));
      if ((answer.status === 201) === (outcome === 'accepted')) return;
      if (Date.now() > deadline) throw new Error(`a ConfigMap labelled ${label} is still not ${outcome}: ${answer.status} ${answer.body.slice(0, 300)}`);
      await sleep(20);
    }
  }

  async measure(): Promise<Figures> {
    const base = this.created;
    this.created += CREATES + SERIAL_CREATES;
    const { perSecond } = await load(this.target, IN_FLIGHT, CREATES, 201, (i) => ({ method: 'POST', path: CONFIG_MAPS, body: configMap(`cm-${base + i}`) }));
    const latencies: number[] = [];
    for (let i = 0; i < SERIAL_CREATES; i += 1) {
      const t0 = performance.now();
      await this.expect('POST', CONFIG_MAPS, 201, JSON.parse(configMap(`cm-${base + CREATES + i}`)));
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    return { perSecond, serialMedianMs: latencies[Math.floor(latencies.length / 2)]! };
  }

  close(): void {
    this.agent.destroy();
  }
}

async function measureBackend(server: ServerProcess, hooks: WebhookServer): Promise<Array<[string, Figures]>> {
  const bench = new Bench({ url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) });
  try {
    await bench.expect('POST', '/api/v1/tenants', 201, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: SPACE } });
    // The space is ready once a create in it is admitted (its default namespace exists).
    await bench.until('accepted', 'ready');
    const before = await bench.measure();

    await bench.expect('POST', `${GROUP_PATH}/validatingadmissionpolicies`, 201, policy(0));
    await bench.expect('POST', `${GROUP_PATH}/validatingadmissionpolicybindings`, 201, binding(0));
    await bench.until('refused', 'deny-0');
    const onePolicy = await bench.measure();

    for (let i = 1; i < 10; i += 1) {
      await bench.expect('POST', `${GROUP_PATH}/validatingadmissionpolicies`, 201, policy(i));
      await bench.expect('POST', `${GROUP_PATH}/validatingadmissionpolicybindings`, 201, binding(i));
    }
    await bench.until('refused', 'deny-9');
    const tenPolicies = await bench.measure();

    await bench.expect('DELETE', `${GROUP_PATH}/validatingadmissionpolicybindings`, 200);
    await bench.expect('DELETE', `${GROUP_PATH}/validatingadmissionpolicies`, 200);
    await bench.expect('POST', `${GROUP_PATH}/validatingwebhookconfigurations`, 201, webhookConfiguration(hooks));
    await bench.until('refused', 'deny');
    const oneWebhook = await bench.measure();

    await bench.expect('DELETE', `${GROUP_PATH}/validatingwebhookconfigurations/deny-labelled`, 200);
    await bench.until('accepted', 'deny');
    const after = await bench.measure();
    const none = { perSecond: (before.perSecond + after.perSecond) / 2, serialMedianMs: (before.serialMedianMs + after.serialMedianMs) / 2 };
    return [
      ['no admission', none],
      ['1 policy', onePolicy],
      ['10 policies', tenPolicies],
      ['1 webhook', oneWebhook],
    ];
  } finally {
    bench.close();
  }
}

async function main(): Promise<void> {
  const results: Array<[string, Array<[string, Figures]>]> = [];
  const hooks = await startWebhookServer();
  try {
    for (const backend of findEtcdBinary() ? (['sqlite', 'etcd'] as const) : (['sqlite'] as const)) {
      let etcd: EtcdProcess | undefined;
      let server: ServerProcess | undefined;
      try {
        if (backend === 'etcd') etcd = await startEtcd();
        server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [] });
        results.push([backend, await measureBackend(server, hooks)]);
      } finally {
        await server?.cleanup();
        await etcd?.cleanup();
      }
      hooks.reviews.length = 0;
    }
  } finally {
    await hooks.close();
  }
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(`\nAdmission benchmark: ConfigMap creates in one space (${f(CREATES)} at ${IN_FLIGHT} in flight; ${f(SERIAL_CREATES)} one at a time)\n`);
  console.log('| backend | admission | creates/s | ratio | median create, one at a time | ratio |');
  console.log('|---|---|---|---|---|---|');
  for (const [backend, rows] of results) {
    const none = rows[0]![1];
    for (const [name, r] of rows) {
      console.log(`| ${backend} | ${name} | ${f(r.perSecond)} | ${f(r.perSecond / none.perSecond, 2)}x | ${f(r.serialMedianMs, 2)} ms | ${f(r.serialMedianMs / none.serialMedianMs, 2)}x |`);
    }
  }
  console.log('\nratios against no admission in the same run and space (its figure is the mean of a run before and after the others)');
}

await main();
