/**
 * WATCH: a chunked stream of events, flushed one by one: newline-delimited JSON (python's client
 * needs the newline), or length-prefixed protobuf frames for clients that prefer protobuf. Ends on
 * `timeoutSeconds`, when the client goes away, or when the server closes; a failure after the
 * headers went out is sent as an ERROR event.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiWatchEvent } from '../../../api/registry/watch.js';
import { toTable } from '../../../api/registry/table.js';
import type { HandlerDeps } from './handler-deps.js';
import { ApiError } from '../../../api/status.js';
import { encodeJson } from '../json-body.js';
import { encodeWatchEvent, negotiateFormat, watchContentType, watchFormat } from '../negotiate.js';
import { boolParam, fieldSelectorParam, includeObjectParam, intParam, labelSelectorParam, param, validateListOptions, type Query } from './query.js';
import type { ResourceRequest } from './resolve-resource.js';
import { compileFieldSelector } from '../../../api/selection/field-selector.js';
import { selectableFields } from './query.js';
import { seesSharedDefaults, sharedDefaultsWatch } from './shared-defaults.js';
import { narrowedToSpace, seesPartAboveSpaces } from './above-spaces.js';

const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * A watcher that reads slower than events come is cut when its unsent live events pass this size
 * or it has taken no byte for MAX_WATCH_BLOCKED_MS, as kube-apiserver's cacher drops an
 * unresponsive watcher: its buffer would grow without bound. Its client re-watches from its last
 * event. The initial state (sent at once, however large) does not count against the size, only
 * against the time: a client reading it slowly but steadily keeps its watch.
 */
export const MAX_WATCH_BUFFER_BYTES = 16 * 1024 * 1024;
export const MAX_WATCH_BLOCKED_MS = 30_000;

export async function handleWatch(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  // The legacy `/watch/` prefix names the verb whatever the method, as in kube-apiserver, whose
  // watch routes answer GET only; a HEAD could carry no stream (and would hold its connection).
  if (request.method !== 'GET') {
    throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', { causes: [{ reason: 'UnexpectedServerResponse', message: '405: Method Not Allowed' }] });
  }
  const query = request.query as Query;
  validateListOptions(query, 'watch');
  const format = negotiateFormat(request.headers.accept, true);
  let fieldMatch = fieldSelectorParam(query, req.def);
  if (req.name !== undefined) {
    // `/watch/.../pods/p` watches one object: a name selector.
    const byName = compileFieldSelector([{ field: 'metadata.name', operator: '=', value: req.name }], selectableFields(req.def));
    const other = fieldMatch;
    fieldMatch = other ? (o) => byName(o) && other(o) : byName;
  }
  const timeoutSeconds = intParam(query, 'timeoutSeconds');
  const includeObject = includeObjectParam(query);

  const streamFormat = watchFormat(format, req.def);
  const encode = (event: ApiWatchEvent): string | Buffer => {
    if (format.kind !== 'table' || event.type === 'ERROR' || event.type === 'BOOKMARK') return encodeWatchEvent(streamFormat, event);
    const table = toTable(req.def, [event.object], { includeObject, acrossSpaces: req.acrossSpaces, metadata: { resourceVersion: event.object.metadata.resourceVersion } });
    return encodeJson({ type: event.type, object: format.version === 'v1beta1' ? { ...table, apiVersion: 'meta.k8s.io/v1beta1' } : table });
  };

  const raw = reply.raw;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  /** Set while written bytes wait for the client: the next check that it took some. */
  let blocked: NodeJS.Timeout | undefined;
  /** Bytes handed to the response, and how many of them the client had taken at the last check. */
  let written = 0;
  let takenAtCheck = 0;
  /** While the initial state is written, and what of it was still unsent afterwards. */
  let sendingInitialState = true;
  let initialBacklog = 0;
  const counted = deps.metrics?.watchStarted(req.def);
  const stream = {
    close: (): void => {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      if (blocked) clearTimeout(blocked);
      counted?.stopped();
      active?.stop();
      deps.watches.delete(stream);
      if (!raw.writableEnded) raw.end();
    },
  };
  /** Ends a watcher too slow to keep up: the unsent events are dropped with its stream (HTTP/2) or connection (HTTP/1.1). */
  const cutSlowWatcher = (): void => {
    request.log.warn({ bufferedBytes: raw.writableLength }, 'watcher too slow to keep up with its events; ending it');
    stream.close();
    raw.destroy();
  };
  const taken = (): number => written - raw.writableLength;
  const watchProgress = (): void => {
    takenAtCheck = taken();
    blocked = setTimeout(() => {
      blocked = undefined;
      if (raw.writableLength === 0) return;
      if (taken() === takenAtCheck) return cutSlowWatcher();
      watchProgress();
    }, MAX_WATCH_BLOCKED_MS);
  };
  const write = (chunk: string | Buffer): void => {
    written += Buffer.byteLength(chunk);
    if (raw.write(chunk)) return;
    if (!sendingInitialState && raw.writableLength > initialBacklog + MAX_WATCH_BUFFER_BYTES) return cutSlowWatcher();
    if (!blocked) watchProgress();
  };

  let tenant = req.tenant;
  if (seesSharedDefaults(req)) ({ tenant, fieldMatch } = sharedDefaultsWatch(req, fieldMatch));
  if (seesPartAboveSpaces(req)) fieldMatch = narrowedToSpace(req, deps.nodeUsage, fieldMatch);
  const active = await deps.watchCaches
    .startWatch(
      req.def,
      { tenant, namespace: req.namespace },
      {
        labelSelector: labelSelectorParam(query),
        fieldMatch,
        resourceVersion: param(query, 'resourceVersion'),
        resourceVersionMatch: param(query, 'resourceVersionMatch'),
        sendInitialEvents: boolParam(query, 'sendInitialEvents'),
        allowWatchBookmarks: boolParam(query, 'allowWatchBookmarks') ?? false,
      },
      {
        send: (event) => {
          if (closed) return;
          if (!raw.headersSent) startStream();
          write(encode(event));
          counted?.eventSent();
        },
        end: () => stream.close(),
      },
    )
    .catch((err: unknown) => {
      // Refused before anything was sent: the watcher never registered.
      closed = true;
      counted?.stopped();
      throw err;
    });
  // The cache wrote the initial state within startWatch; live events count from here.
  sendingInitialState = false;
  initialBacklog = raw.writableLength;
  // A watch holds its seats only for its initial state (kube-apiserver's watch initialization).
  request.kube?.seats?.release();

  function startStream(): void {
    const warning = reply.getHeader('warning');
    reply.hijack();
    // No Transfer-Encoding: Node chunks an HTTP/1.1 answer of unknown length by itself, and the
    // header is forbidden over HTTP/2 (setting it throws).
    raw.writeHead(200, {
      'Content-Type': watchContentType(streamFormat),
      'Cache-Control': 'no-cache, private',
      ...(warning !== undefined ? { Warning: warning } : {}),
    });
    raw.flushHeaders();
  }

  if (!raw.headersSent) startStream();
  deps.watches.add(stream);
  request.raw.on('close', stream.close);
  raw.on('close', stream.close);
  // Node fires a timer past 2^31-1 ms (24.8 days) at once, so longer timeouts wait that long.
  if (timeoutSeconds !== undefined && timeoutSeconds > 0) timer = setTimeout(stream.close, Math.min(timeoutSeconds * 1000, MAX_TIMER_MS));
  return reply;
}
