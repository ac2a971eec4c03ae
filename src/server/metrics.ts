/**
 * The server's Prometheus metrics (`GET /metrics`, text format), named and labelled as
 * kube-apiserver's so its dashboards and alerts work:
 *
 *   apiserver_request_total{verb,group,version,resource,subresource,scope,component,code}
 *   apiserver_request_duration_seconds{verb,group,version,resource,subresource,scope,component}
 *   apiserver_longrunning_requests{verb,group,version,resource,subresource,scope,component}
 *   apiserver_registered_watchers{group,version,kind}, apiserver_watch_events_total{group,version,kind}
 *   etcd_request_duration_seconds{operation,type}     (the storage backend's latency, SQLite included)
 *   apiserver_watch_cache_objects / _events / _resource_version {group,resource}
 *   process_* and nodejs_*                            (prom-client's default metrics)
 *
 * Cardinality is bounded by construction: no label ever holds a tenant, namespace, name or user,
 * and every label value comes from a fixed set. A resource (or storage type) that is not built in —
 * a custom resource of any space, or a path that names no resource — is counted under group,
 * version and resource `other`, so a tenant creating CRDs creates no series. Subresources and
 * non-resource paths outside the known set are `other` too. The bound is printed by `seriesBound()`.
 *
 * Recording is on every request's path, so it pays once: each distinct label set's accumulators
 * are looked up by one string key in a Map and updated as plain numbers; prom-client (whose own
 * labelled calls hash the label set each time) sees them only when scraped.
 *
 * @example
 *   const metrics = new ApiMetrics(builtinKinds);
 *   const store = metrics.instrumentStore(await openStore(…));
 *   app.get('/metrics', async (_, reply) => reply.type(metrics.contentType).send(await metrics.render()));
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { Store } from '../../storage/store.js';
import type { RequestInfo } from './request-info.js';

/** Sample lines rendered per event-loop turn by `render()`. */
const RENDER_CHUNK_LINES = 2_000;

type Family = MetricObjectWithValues<MetricValue<string>>;

/** A registered metric as prom-client's formatter reads it (its declarations leave these out). */
interface FamilySource {
  get(): Promise<Family>;
  getForPromString?(): Promise<Family>;
}

/** prom-client's formatter of one metric family: a Registry method its declarations leave out. */
interface FamilyFormatter {
  getMetricsAsString(metric: FamilySource): Promise<string>;
}

/** kube-apiserver's buckets for apiserver_request_duration_seconds and etcd_request_duration_seconds. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** The label value for anything outside the fixed sets. */
export const OTHER = 'other';
const COMPONENT = 'apiserver';

/** kube-apiserver's metric verbs for our authorization verbs (`APPLY` for a server-side apply PATCH). */
const METRIC_VERBS: Record<string, string> = {
  get: 'GET', list: 'LIST', watch: 'WATCH', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETECOLLECTION',
};
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const KNOWN_SUBRESOURCES = new Set([
  'status', 'scale', 'finalize', 'binding', 'eviction', 'ephemeralcontainers', 'resize', 'log', 'exec', 'attach', 'portforward', 'proxy', 'token', 'approval',
]);
/** Subresources whose requests stay open (streams), counted in apiserver_longrunning_requests. */
const LONGRUNNING_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);
const KNOWN_PATH_ROOTS = new Set(['api', 'apis', 'healthz', 'livez', 'readyz', 'version', 'metrics', 'openapi']);
const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

type RequestLabel = 'verb' | 'group' | 'version' | 'resource' | 'subresource' | 'scope' | 'component';
const REQUEST_LABELS: RequestLabel[] = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

/** The label values of one request, minus the code. */
type RequestSeries = Record<RequestLabel, string>;
type WatchLabel = 'group' | 'version' | 'kind';

interface SeriesChildren {
  duration: HistogramSeries;
  /** apiserver_longrunning_requests now. */
  longrunning: number;
  /** apiserver_request_total by code. */
  byCode: Map<number, number>;
  labels: RequestSeries;
}

/** One label set of a `CheapHistogram`: counts per bucket (not cumulative), sum and count. */
interface HistogramSeries {
  labels: Record<string, string>;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A histogram whose observation is a bucket search and three additions. prom-client's labelled
 * `observe` hashes the label set on every call (measured: about ten times our series lookup by one
 * string key), which would be paid by every request; this one is read by the registry only when
 * scraped, through the metric contract prom-client's registry calls (`get()`), in prom-client's
 * own output shape.
 */
class CheapHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series: HistogramSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Histogram);
  }

  seriesFor(labels: Record<string, string>): HistogramSeries {
    const series: HistogramSeries = { labels, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
    this.series.push(series);
    return series;
  }

  observe(series: HistogramSeries, value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i += 1;
    series.counts[i]! += 1;
    series.sum += value;
    series.count += 1;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> }> {
    const values = [];
    for (const s of this.series) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i += 1) {
        cumulative += s.counts[i]!;
        values.push({ labels: { le: i < this.bounds.length ? this.bounds[i]! : '+Inf', ...s.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** A watch stream's series: its registration and the events it sends. */
export interface WatchMetrics {
  eventSent(): void;
  stopped(): void;
}

/** What the watch-cache gauges read at scrape time. */
export interface WatchCacheStats {
  def: Pick<ResourceDefinition, 'group' | 'resource'>;
  objects: number;
  events: number;
  revision: number;
}

export class ApiMetrics {
  readonly registry = new Registry();
  /** `group/version/resource` of the built-in kinds: the only resources with series of their own. */
  private readonly builtin = new Set<string>();
  /** `group/resource` with the core group as `core`, for storage keys. */
  private readonly builtinStorageTypes = new Map<string, string>();
  private readonly builtinKinds = new Set<string>();
  private readonly series = new Map<string, SeriesChildren>();
  private readonly durations: CheapHistogram;
  private readonly watchers: Gauge<'group' | 'version' | 'kind'>;
  /** apiserver_watch_events_total by `group/version/kind`. */
  private readonly watchEvents = new Map<string, { labels: Record<WatchLabel, string>; sent: number }>();
  private readonly storage: CheapHistogram;
  private readonly storageChildren = new Map<string, HistogramSeries>();
  private watchCacheStats: () => WatchCacheStats[] = () => [];
  private readonly auditEvents: Counter;
  private readonly auditErrors: Counter.Internal;

  constructor(builtinKinds: readonly Pick<ResourceDefinition, 'group' | 'version' | 'resource' | 'kind'>[]) {
    for (const def of builtinKinds) {
      this.builtin.add(`${def.group}/${def.version}/${def.resource}`);
      this.builtinKinds.add(`${def.group}/${def.version}/${def.kind}`);
      this.builtinStorageTypes.set(`${def.group === '' ? 'core' : def.group}/${def.resource}`, `${def.resource}${def.group === '' ? '' : `.${def.group}`}`);
    }
    const registers = [this.registry];
    const series = this.series;
    // Counts kept in plain numbers per series, handed to prom-client at scrape time only.
    new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...REQUEST_LABELS, 'code'],
      registers,
      collect(this: Counter<RequestLabel | 'code'>) {
        this.reset();
        for (const s of series.values()) for (const [code, n] of s.byCode) this.inc({ ...s.labels, code: String(code) }, n);
      },
    });
    this.durations = new CheapHistogram('apiserver_request_duration_seconds', 'Response latency distribution in seconds for each verb, group, version, resource, subresource, scope and component.', REQUEST_DURATION_BUCKETS, this.registry);
    new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.',
      labelNames: REQUEST_LABELS,
      registers,
      collect(this: Gauge<RequestLabel>) {
        this.reset();
        for (const s of series.values()) if (isLongRunning(s.labels)) this.set(s.labels, s.longrunning);
      },
    });
    this.watchers = new Gauge({ name: 'apiserver_registered_watchers', help: 'Number of currently registered watchers for a given resources', labelNames: ['group', 'version', 'kind'], registers });
    const watchEvents = this.watchEvents;
    // Counted in plain numbers (an event goes to every watcher of its kind): prom-client's labelled
    // inc hashes the labels on every call, which showed in profiles of creates.
    new Counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'kind'],
      registers,
      collect(this: Counter<WatchLabel>) {
        this.reset();
        for (const { labels, sent } of watchEvents.values()) if (sent > 0) this.inc(labels, sent);
      },
    });
    this.storage = new CheapHistogram('etcd_request_duration_seconds', 'Storage request latency in seconds for each operation and object type (etcd, or the embedded SQLite store).', REQUEST_DURATION_BUCKETS, this.registry);
    const stats = () => this.watchCacheStats();
    const builtinResource = (def: Pick<ResourceDefinition, 'group' | 'resource'>) => this.builtinStorageTypes.has(`${def.group === '' ? 'core' : def.group}/${def.resource}`);
    // Collected at scrape time; custom resources of every space are summed (a maximum for revisions) under `other`.
    const cacheGauge = (name: string, help: string, value: (s: WatchCacheStats, current: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['group', 'resource'],
        registers,
        collect(this: Gauge<'group' | 'resource'>) {
          this.reset();
          const totals = new Map<string, { group: string; resource: string; value: number }>();
          for (const s of stats()) {
            const labels = builtinResource(s.def) ? { group: s.def.group, resource: s.def.resource } : { group: OTHER, resource: OTHER };
            const key = `${labels.group}/${labels.resource}`;
            const entry = totals.get(key) ?? { ...labels, value: 0 };
            entry.value = value(s, entry.value);
            totals.set(key, entry);
          }
          for (const { group, resource, value: v } of totals.values()) this.set({ group, resource }, v);
        },
      });
    cacheGauge('apiserver_watch_cache_objects', 'Number of objects held in the watch cache, by resource.', (s, sum) => sum + s.objects);
    cacheGauge('apiserver_watch_cache_events', 'Number of events held in the watch cache\'s window, by resource.', (s, sum) => sum + s.events);
    cacheGauge('apiserver_watch_cache_resource_version', 'The revision the watch cache has caught up with, by resource.', (s, max) => Math.max(max, s.revision));
    this.auditEvents = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers });
    this.auditErrors = new Counter({ name: 'apiserver_audit_error_total', help: 'Counter of audit events that failed to be audited properly (dropped: the buffer was full, or the write failed).', labelNames: ['plugin'], registers }).labels({ plugin: 'log' });
    collectDefaultMetrics({ register: this.registry });
  }

  /** One audit event was handed to the audit log. */
  auditEvent(): void {
    this.auditEvents.inc();
  }

  /** One audit event was lost (dropped or failed to write). */
  auditError(): void {
    this.auditErrors.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The text exposition, as `registry.metrics()` writes it, but at most RENDER_CHUNK_LINES sample
   * lines per event-loop turn: rendered at once, the request histograms' tens of thousands of
   * lines held the loop for 140 ms per scrape under the fuzzer. Each chunk goes through
   * prom-client's own formatter, so the bytes are its bytes.
   */
  async render(): Promise<string> {
    const formatter = this.registry as unknown as FamilyFormatter;
    const families: string[] = [];
    for (const metric of this.registry.getMetricsAsArray() as unknown as FamilySource[]) {
      // What prom-client's formatter reads: histograms give their lines through getForPromString.
      const family = await (metric.getForPromString ?? metric.get).call(metric);
      const parts: string[] = [];
      for (let from = 0; from === 0 || from < family.values.length; from += RENDER_CHUNK_LINES) {
        const values = family.values.slice(from, from + RENDER_CHUNK_LINES);
        const text = await formatter.getMetricsAsString({ get: async () => ({ ...family, values }) });
        // Every chunk is formatted with the family's HELP and TYPE lines; only the first keeps them.
        parts.push(from === 0 ? text : text.slice(text.indexOf('\n', text.indexOf('\n') + 1) + 1));
        await new Promise((resolve) => setImmediate(resolve));
      }
      families.push(parts.join('\n'));
    }
    return `${families.join('\n\n')}\n`;
  }

  /** The watch caches to report on at each scrape. */
  observeWatchCaches(stats: () => WatchCacheStats[]): void {
    this.watchCacheStats = stats;
  }

  /**
   * The series of a request, from what request-info parsed (before authentication, so refused
   * requests count too). Call `requestStarted` when it arrives and `requestEnded` when it is done.
   */
  requestStarted(info: RequestInfo | null, method: string, contentType: string | undefined): SeriesChildren {
    const labels = this.labelsOf(info, method, contentType);
    const key = `${labels.verb}|${labels.group}|${labels.version}|${labels.resource}|${labels.subresource}|${labels.scope}`;
    let children = this.series.get(key);
    if (children === undefined) {
      children = { duration: this.durations.seriesFor(labels), longrunning: 0, byCode: new Map(), labels };
      this.series.set(key, children);
    }
    if (isLongRunning(labels)) children.longrunning += 1;
    return children;
  }

  requestEnded(children: SeriesChildren, code: number, seconds: number): void {
    if (isLongRunning(children.labels)) children.longrunning -= 1;
    this.durations.observe(children.duration, seconds);
    children.byCode.set(code, (children.byCode.get(code) ?? 0) + 1);
  }

  /** A watch of `def` has started; the handle counts its events and its end. */
  watchStarted(def: Pick<ResourceDefinition, 'group' | 'version' | 'kind'>): WatchMetrics {
    const labels = this.builtinKinds.has(`${def.group}/${def.version}/${def.kind}`) ? { group: def.group, version: def.version, kind: def.kind } : { group: OTHER, version: OTHER, kind: OTHER };
    const registered = this.watchers.labels(labels);
    const id = `${labels.group}/${labels.version}/${labels.kind}`;
    let events = this.watchEvents.get(id);
    if (!events) {
      events = { labels, sent: 0 };
      this.watchEvents.set(id, events);
    }
    const counted = events;
    registered.inc();
    return { eventSent: () => void (counted.sent += 1), stopped: () => registered.dec() };
  }

  /** The store with every call but watches (which last) timed in etcd_request_duration_seconds. */
  instrumentStore(store: Store): Store {
    const timed = <T>(operation: string, key: string, call: () => Promise<T>): Promise<T> => {
      const series = this.storageChild(operation, key);
      const start = performance.now();
      return call().finally(() => this.storage.observe(series, (performance.now() - start) / 1000));
    };
    return {
      backend: store.backend,
      orderedProgress: store.orderedProgress,
      get: (key, opts) => timed('get', key, () => store.get(key, opts)),
      list: (prefix, opts) => timed('list', prefix, () => store.list(prefix, opts)),
      create: (key, value) => timed('create', key, () => store.create(key, value)),
      update: (key, value, expected) => timed('update', key, () => store.update(key, value, expected)),
      delete: (key, expected) => timed('delete', key, () => store.delete(key, expected)),
      watch: (prefix, opts, handler) => store.watch(prefix, opts, handler),
      currentRevision: () => timed('currentRevision', '', () => store.currentRevision()),
      compactedRevision: () => store.compactedRevision(),
      compact: (revision) => timed('compact', '', () => store.compact(revision)),
      ping: () => store.ping(),
      close: () => store.close(),
    };
  }

  private storageChild(operation: string, key: string): HistogramSeries {
    const type = this.storageType(key);
    const childKey = `${operation}|${type}`;
    let child = this.storageChildren.get(childKey);
    if (child === undefined) {
      child = this.storage.seriesFor({ operation, type });
      this.storageChildren.set(childKey, child);
    }
    return child;
  }

  /** `pods`, `deployments.apps`, from `/registry/<group>/<resource>/…`; `other` for what is not built in. */
  private storageType(key: string): string {
    if (key === '') return '';
    const [, root, group, resource] = key.split('/', 4);
    if (root !== 'registry' || group === undefined || resource === undefined) return OTHER;
    return this.builtinStorageTypes.get(`${group}/${resource}`) ?? OTHER;
  }

  private labelsOf(info: RequestInfo | null, method: string, contentType: string | undefined): RequestSeries {
    if (info === null || info.kind === 'nonresource') {
      const root = info?.path.split('/', 2)[1] ?? '';
      return {
        verb: HTTP_METHODS.has(method) ? method : OTHER,
        group: '',
        version: '',
        resource: '',
        subresource: KNOWN_PATH_ROOTS.has(root) ? `/${root}` : OTHER,
        scope: '',
        component: COMPONENT,
      };
    }
    const known = this.builtin.has(`${info.group}/${info.version}/${info.resource}`);
    let verb = METRIC_VERBS[info.verb] ?? OTHER;
    if (verb === 'PATCH' && contentType?.startsWith(APPLY_CONTENT_TYPE)) verb = 'APPLY';
    if (LONGRUNNING_SUBRESOURCES.has(info.subresource ?? '') && verb === 'POST') verb = 'CONNECT';
    return {
      verb,
      group: known ? info.group : OTHER,
      version: known ? info.version : OTHER,
      resource: known ? info.resource : OTHER,
      subresource: info.subresource === undefined ? '' : KNOWN_SUBRESOURCES.has(info.subresource) ? info.subresource : OTHER,
      scope: info.name !== undefined ? 'resource' : info.namespace !== undefined ? 'namespace' : 'cluster',
      component: COMPONENT,
    };
  }
}

function isLongRunning(labels: RequestSeries): boolean {
  return labels.verb === 'WATCH' || LONGRUNNING_SUBRESOURCES.has(labels.subresource);
}
