import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../../api/kinds/index.js';
import { ApiMetrics } from './metrics.js';
import { parseRequestInfo } from './request-info.js';

/** The sample lines of one family in the text format. */
function samples(text: string, family: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${family}{`) || line.startsWith(`${family} `));
}

function request(metrics: ApiMetrics, method: string, path: string, code: number, contentType?: string): void {
  const series = metrics.requestStarted(parseRequestInfo(method, path, {}), method, contentType);
  metrics.requestEnded(series, code, 0.01);
}

describe('ApiMetrics', () => {
  it('renders what prom-client renders, one metric family per event-loop turn', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    // Enough series for the duration histogram to be rendered in several chunks.
    for (const def of builtinKinds.slice(0, 60)) {
      const base = def.group === '' ? `/api/${def.version}` : `/apis/${def.group}/${def.version}`;
      for (const path of [`${base}/namespaces/ns/${def.resource}`, `${base}/namespaces/ns/${def.resource}/x`]) {
        for (const method of ['GET', 'DELETE']) request(metrics, method, path, 200);
      }
    }
    let otherWorkRan = false;
    const rendering = metrics.render();
    setImmediate(() => (otherWorkRan = true));
    const text = await rendering;
    expect(otherWorkRan).toBe(true);
    expect(samples(text, 'apiserver_request_duration_seconds_bucket').length).toBeGreaterThan(4_000);
    // The process and Node.js families move between two renderings; every other line is the same.
    const steady = (exposition: string) => exposition.split('\n').filter((line) => !/^(# (HELP|TYPE) )?(process|nodejs)_/.test(line));
    expect(steady(text)).toEqual(steady(await (metrics as unknown as { registry: { metrics(): Promise<string> } }).registry.metrics()));
    expect(text.endsWith('\n')).toBe(true);
  });

  it('counts requests with kube-apiserver\'s labels: verb, group, version, resource, subresource, scope, component, code', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    request(metrics, 'GET', '/api/v1/tenants/t1/namespaces/ns1/pods', 200);
    request(metrics, 'GET', '/apis/apps/v1/namespaces/ns1/deployments/web', 404);
    request(metrics, 'PATCH', '/api/v1/namespaces/ns1/configmaps/cm', 200, 'application/apply-patch+yaml');
    request(metrics, 'PUT', '/api/v1/namespaces/ns1/pods/p/status', 200);
    request(metrics, 'GET', '/readyz', 200);
    const text = await metrics.render();
    const total = samples(text, 'apiserver_request_total');
    expect(total).toContain('apiserver_request_total{verb="LIST",group="",version="v1",resource="pods",subresource="",scope="namespace",component="apiserver",code="200"} 1');
    expect(total).toContain('apiserver_request_total{verb="GET",group="apps",version="v1",resource="deployments",subresource="",scope="resource",component="apiserver",code="404"} 1');
    expect(total).toContain('apiserver_request_total{verb="APPLY",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="200"} 1');
    expect(total).toContain('apiserver_request_total{verb="PUT",group="",version="v1",resource="pods",subresource="status",scope="resource",component="apiserver",code="200"} 1');
    expect(total).toContain('apiserver_request_total{verb="GET",group="",version="",resource="",subresource="/readyz",scope="",component="apiserver",code="200"} 1');
    // kube-apiserver's bucket boundaries.
    expect(text).toContain('apiserver_request_duration_seconds_bucket{le="0.005",verb="LIST"');
    expect(text).toContain('le="60",verb="LIST"');
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  });

  it('never makes a series per space, custom resource, subresource or path a caller names', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    for (let i = 0; i < 50; i += 1) {
      request(metrics, 'GET', `/apis/group${i}.example.com/v${i}/tenants/t${i}/namespaces/ns${i}/widgets${i}`, 200);
      request(metrics, 'GET', `/api/v1/tenants/t${i}/namespaces/ns${i}/pods/p${i}/sub${i}`, 404);
      request(metrics, 'GET', `/random${i}`, 404);
    }
    const total = samples(await metrics.render(), 'apiserver_request_total');
    expect(total).toEqual([
      'apiserver_request_total{verb="LIST",group="other",version="other",resource="other",subresource="",scope="namespace",component="apiserver",code="200"} 50',
      'apiserver_request_total{verb="GET",group="",version="v1",resource="pods",subresource="other",scope="resource",component="apiserver",code="404"} 50',
      'apiserver_request_total{verb="GET",group="",version="",resource="",subresource="other",scope="",component="apiserver",code="404"} 50',
    ]);
  });

  it('counts long-running requests while they last, and watchers with the events they are sent', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    const watch = metrics.requestStarted(parseRequestInfo('GET', '/api/v1/namespaces/ns1/configmaps', { watch: 'true' }), 'GET', undefined);
    const configMaps = builtinKinds.find((d) => d.resource === 'configmaps')!;
    const watcher = metrics.watchStarted(configMaps);
    watcher.eventSent();
    watcher.eventSent();
    let text = await metrics.render();
    expect(samples(text, 'apiserver_longrunning_requests')).toEqual(['apiserver_longrunning_requests{verb="WATCH",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"} 1']);
    expect(samples(text, 'apiserver_registered_watchers')).toEqual(['apiserver_registered_watchers{group="",version="v1",kind="ConfigMap"} 1']);
    expect(samples(text, 'apiserver_watch_events_total')).toEqual(['apiserver_watch_events_total{group="",version="v1",kind="ConfigMap"} 2']);
    watcher.stopped();
    metrics.requestEnded(watch, 200, 5);
    text = await metrics.render();
    expect(samples(text, 'apiserver_longrunning_requests')[0]).toMatch(/ 0$/);
    expect(samples(text, 'apiserver_registered_watchers')[0]).toMatch(/ 0$/);
  });

  it('times storage calls by operation and built-in type, custom resources under other', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    const calls: string[] = [];
    const fake = {
      backend: 'sqlite' as const,
      get: async (key: string) => (calls.push(key), { kv: null, revision: 1 }),
    };
    const store = metrics.instrumentStore(fake as never);
    await store.get('/registry/core/pods/t1/ns1/p');
    await store.get('/registry/apps/deployments/t1/ns1/d');
    await store.get('/registry/example.com/widgets/t1/ns1/w');
    expect(calls).toHaveLength(3);
    const counts = samples(await metrics.render(), 'etcd_request_duration_seconds_count');
    expect(counts).toEqual([
      'etcd_request_duration_seconds_count{operation="get",type="pods"} 1',
      'etcd_request_duration_seconds_count{operation="get",type="deployments.apps"} 1',
      'etcd_request_duration_seconds_count{operation="get",type="other"} 1',
    ]);
  });

  it('reports watch-cache sizes and revisions, custom resources summed under other', async () => {
    const metrics = new ApiMetrics(builtinKinds);
    metrics.observeWatchCaches(() => [
      { def: { group: '', resource: 'pods' }, objects: 3, events: 7, revision: 40 },
      { def: { group: 'a.example.com', resource: 'widgets' }, objects: 2, events: 1, revision: 30 },
      { def: { group: 'b.example.com', resource: 'gadgets' }, objects: 5, events: 1, revision: 35 },
    ]);
    const text = await metrics.render();
    expect(samples(text, 'apiserver_watch_cache_objects')).toEqual(['apiserver_watch_cache_objects{group="",resource="pods"} 3', 'apiserver_watch_cache_objects{group="other",resource="other"} 7']);
    expect(samples(text, 'apiserver_watch_cache_resource_version')).toContain('apiserver_watch_cache_resource_version{group="other",resource="other"} 35');
  });
});
