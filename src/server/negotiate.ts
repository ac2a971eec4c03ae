/**
 * Response negotiation and request body decoding, in one place. Answers are JSON, YAML, a
 * server-side Table (`application/json;as=Table;v=v1;g=meta.k8s.io`) or, for clients that prefer
 * it (client-go's typed clients send `application/vnd.kubernetes.protobuf,application/json`),
 * protobuf for built-in kinds; other kinds fall back to the client's next choice. Bodies arrive as
 * a Buffer whatever their type and are decoded here (`decodeBody`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringify as toYaml } from 'yaml';
import { goJsonValueName } from '../../api/schema/json-syntax.js';
import { YamlDecodeError } from '../../api/schema/yaml-body.js';
import { decodeObject, encodeObject, encodeWatchFrame, hasProtobufForm, PROTOBUF_MEDIA_TYPE, typeMetaOf, type TypedObject, type TypeMeta } from '../../api/protobuf/codec.js';
import { inGoFieldOrder, listItemInGoFieldOrder } from '../../api/protobuf/go-field-order.js';
import { ProtobufError } from '../../api/protobuf/protobuf-error.js';
import { encodeJson, goEscape, requestWantsPretty, sendText, utf8Bytes } from './json-body.js';
import { ApiError, type Status } from '../../api/status.js';
import { decodeJsonBody, decodeYamlBody } from './body-decoder.js';

/** `pretty`: the Accept range asked for indented JSON (`application/json;pretty=1`). */
export type TextFormat = { kind: 'json'; pretty?: true } | { kind: 'yaml' } | { kind: 'table'; version: 'v1' | 'v1beta1'; pretty?: true };

/** Protobuf carries its fallback: the client's next choice, for kinds without a protobuf form. */
export type ResponseFormat = TextFormat | { kind: 'protobuf'; otherwise: TextFormat };

/** The format a body (or a watch stream) goes out in, once its kind is known. */
export type BodyFormat = TextFormat | 'protobuf';

const JSON_FORMAT: TextFormat = { kind: 'json' };

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const parsed: Record<string, string> = {};
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq > 0) parsed[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    return { type: type.toLowerCase(), params: parsed };
  });
}

/** What one media range asks for, if we serve it. */
function formatOf(range: MediaRange, tableAllowed: boolean): BodyFormat | undefined {
  if (range.params['as'] === 'Table') {
    // Tables are served as JSON only; a protobuf Table range falls through to the next choice.
    if (!tableAllowed || range.type !== 'application/json' || range.params['g'] !== 'meta.k8s.io') return undefined;
    const version = range.params['v'];
    if (version !== 'v1' && version !== 'v1beta1') return undefined;
    return range.params['pretty'] === '1' ? { kind: 'table', version, pretty: true } : { kind: 'table', version };
  }
  if (range.params['as'] !== undefined) return undefined;
  if (range.type === PROTOBUF_MEDIA_TYPE) return 'protobuf';
  if (range.type === 'application/yaml') return { kind: 'yaml' };
  if (range.type === 'application/json' || range.type === '*/*' || range.type === 'application/*') return range.params['pretty'] === '1' ? { kind: 'json', pretty: true } : JSON_FORMAT;
  return undefined;
}

/** Picks the first acceptable representation in the client's order, as kube-apiserver does. */
export function negotiateFormat(accept: string | undefined, tableAllowed: boolean): ResponseFormat {
  if (!accept) return JSON_FORMAT;
  const ranges = parseAccept(accept);
  for (const [i, range] of ranges.entries()) {
    const format = formatOf(range, tableAllowed);
    if (format === 'protobuf') {
      // A protobuf-only client of a kind without protobuf gets JSON rather than a 406 after the
      // work is done (kube-apiserver refuses it up front).
      const otherwise = ranges.slice(i + 1).map((r) => formatOf(r, tableAllowed)).find((f): f is TextFormat => f !== undefined && f !== 'protobuf');
      return { kind: 'protobuf', otherwise: otherwise ?? JSON_FORMAT };
    }
    if (format) return format;
  }
  throw new ApiError(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
}

/** The format for a body of `type`: protobuf only when the kind has a protobuf form. */
function formatFor(format: ResponseFormat, type: TypeMeta | undefined): BodyFormat {
  if (format.kind !== 'protobuf') return format;
  return type && hasProtobufForm(type) ? 'protobuf' : format.otherwise;
}

/**
 * Whether kube-apiserver would indent a JSON answer to this request: `pretty=1` in the Accept
 * range, else the `pretty` query parameter, else a curl, wget or browser User-Agent.
 */
function prettyFor(request: FastifyRequest, format: TextFormat): boolean {
  return (format.kind !== 'yaml' && format.pretty === true) || requestWantsPretty(request);
}

/**
 * Sends a body in the negotiated format (Table conversion happens before, in the handler). JSON
 * (objects, lists, Tables, Status) goes out with Go's bytes, indented for curl-like clients.
 */
export function sendFormatted(reply: FastifyReply, code: number, format: ResponseFormat, body: unknown): FastifyReply {
  reply.code(code);
  // Kept (a reference, nothing copied) for the audit log's responseObject, whatever the format.
  if (reply.request.kube) reply.request.kube.responseBody = body;
  const chosen = formatFor(format, typeMetaOf(body));
  if (chosen === 'protobuf') return reply.type(PROTOBUF_MEDIA_TYPE).send(encodeObject(body as TypedObject));
  if (chosen.kind === 'yaml') return sendText(reply, 'application/yaml', toYaml(body));
  if (prettyFor(reply.request, chosen)) return sendText(reply, 'application/json', encodeJson(inGoFieldOrder(body), { pretty: true }));
  return reply.type('application/json').send(goJson(body));
}

/**
 * Go's JSON of a body on one line, as UTF-8. A frozen object (the watch cache's) is encoded once,
 * and so is each frozen item of a list: a LIST of the cache's objects copies their bytes.
 */
function goJson(body: unknown): Buffer {
  if (typeof body !== 'object' || body === null) return utf8Bytes(encodeJson(body));
  if (Array.isArray((body as { items?: unknown }).items)) return listJson(body as { items: unknown[] });
  return encodedOnce(body, 'json', () => utf8Bytes(encodeJson(inGoFieldOrder(body)), Object.isFrozen(body)));
}

const ITEMS = '"items":[';
const COMMA = Buffer.from(',');

/**
 * A list's JSON: its other fields encoded around an empty `items`, which takes the items' own
 * encodings, each as `inGoFieldOrder` writes it inside the list (so the bytes are the whole
 * list's). Items encode the same in every list of one kind, whose name keys them. Buffers, not
 * strings: joining 10,000 strings and encoding the result measured ten times the copy.
 */
function listJson(list: { items: unknown[] }): Buffer {
  const head = encodeJson(inGoFieldOrder({ ...list, items: [] }));
  // Only the list's own key can read `"items":[]`: in a string its quotes would be escaped.
  const at = head.indexOf(`${ITEMS}]`);
  if (at < 0 || at !== head.lastIndexOf(`${ITEMS}]`)) return utf8Bytes(encodeJson(inGoFieldOrder(list)));
  const inOrder = listItemInGoFieldOrder(list);
  const meta = typeMetaOf(list);
  const form = `item of ${meta?.apiVersion} ${meta?.kind}`;
  const parts = [utf8Bytes(head.slice(0, at + ITEMS.length))];
  for (const item of list.items) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(encodedOnce(item, form, () => utf8Bytes(goEscape(JSON.stringify(inOrder(item))), Object.isFrozen(item))));
  }
  parts.push(utf8Bytes(head.slice(at + ITEMS.length)));
  return Buffer.concat(parts);
}

/**
 * Sends a Status error: in protobuf to clients that prefer it (client-go decodes the error it
 * negotiated), otherwise JSON, whatever else the request asked for.
 */
export function sendStatus(request: FastifyRequest, reply: FastifyReply, body: Status): FastifyReply {
  let format: ResponseFormat = JSON_FORMAT;
  try {
    format = negotiateFormat(request.headers.accept, false);
  } catch {
    // An unacceptable Accept header is itself answered, in JSON.
  }
  return sendFormatted(reply, body.code, format.kind === 'protobuf' || format.kind === 'json' ? format : JSON_FORMAT, body);
}

/** The format a watch of `type` streams in (protobuf only for kinds with a protobuf form). */
export function watchFormat(format: ResponseFormat, type: TypeMeta): BodyFormat {
  return formatFor(format, type);
}

/** The Content-Type of a watch stream: client-go picks its stream decoder by it. */
export function watchContentType(format: BodyFormat): string {
  return format === 'protobuf' ? `${PROTOBUF_MEDIA_TYPE};stream=watch` : 'application/json';
}

/**
 * Encodings of frozen objects, by object and form: watch events (by format and event type), list
 * items (by list kind), whole bodies. The watch cache hands every reader and watcher the same
 * frozen object, so each form is encoded once however many read it, and dropped with the object;
 * unfrozen objects (which could still change) are encoded each time.
 */
const encodings = new WeakMap<object, Map<string, string | Buffer>>();

function encodedOnce<T extends string | Buffer>(object: unknown, form: string, encode: () => T): T {
  if (typeof object !== 'object' || object === null || !Object.isFrozen(object)) return encode();
  let forms = encodings.get(object);
  if (!forms) {
    forms = new Map();
    encodings.set(object, forms);
  }
  let encoded = forms.get(form) as T | undefined;
  if (encoded === undefined) {
    encoded = encode();
    forms.set(form, encoded);
  }
  return encoded;
}

/** One watch event as the stream carries it: a length-prefixed protobuf frame, or a JSON line. */
export function encodeWatchEvent(format: BodyFormat, event: { type: string; object: unknown }): string | Buffer {
  // Every format but protobuf streams JSON lines.
  return encodedOnce(event.object, `${format === 'protobuf' ? 'protobuf' : 'json'} ${event.type} event`, () => encodeWatchEventOnce(format, event));
}

function encodeWatchEventOnce(format: BodyFormat, event: { type: string; object: unknown }): string | Buffer {
  // Watch lines are never indented, as kube-apiserver's stream serializer.
  if (format !== 'protobuf') return encodeJson({ type: event.type, object: inGoFieldOrder(event.object) });
  if (!typeMetaOf(event.object)) throw new Error(`a ${event.type} watch event object has no kind and apiVersion`);
  return encodeWatchFrame({ type: event.type, object: event.object as TypedObject });
}

/** The media type of a request body, without parameters. */
export function contentType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * kube-apiserver's text for a body that is no object of `kind` (`transformDecodeError`): the
 * decoder's error and the body's first 30 bytes, as text when it starts like an object, else hex.
 */
function unrecognizedObject(kind: string, error: string, body: Buffer): ApiError {
  const head = body.subarray(0, 30);
  const summary = body.length === 0 ? '<empty>' : (body[0] === 0x7b ? head.toString('utf8') : head.toString('hex')) + (body.length > 30 ? ' ...' : '');
  return new ApiError(400, 'BadRequest', `the object provided is unrecognized (must be of type ${kind}): ${error} (${summary})`);
}

function isYaml(type: string): boolean {
  return type === 'application/yaml' || type === 'application/apply-patch+yaml';
}

/** The struct kube-apiserver's decoder reads apiVersion and kind into first (`SimpleMetaFactory.Interpret`), as Go prints its type. */
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** Whether the request has a body at all (a DELETE may come without one). */
export function hasBody(request: FastifyRequest): boolean {
  return Buffer.isBuffer(request.body) && request.body.length > 0;
}

/**
 * A body that must be an object of `kind` (a create's or update's object, DeleteOptions, a Binding
 * …), decoded as kube-apiserver's decoder reads it: its apiVersion and kind are read into a Go
 * struct first, so a body that is no object, a non-string `kind` or `apiVersion`, or an apiVersion
 * of more than two parts is "the object provided is unrecognized" in Go's words; `null` (and an
 * empty YAML body) is an empty object, as Go's decoder leaves its target untouched.
 */
export async function decodeObjectBody(request: FastifyRequest, kind: string): Promise<Record<string, unknown>> {
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const type = contentType(request);
  const unreadable = (error: string): ApiError => unrecognizedObject(kind, `couldn't get version/kind; json parse error: ${error}`, raw);
  if (raw.length === 0 && !isYaml(type)) throw unreadable('unexpected end of JSON input');
  const value = await decodeBody(request, kind);
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw unreadable(`json: cannot unmarshal ${goJsonValueName(value)} into Go value of type ${TYPE_META_STRUCT}`);
  const object = value as Record<string, unknown>;
  if (type === PROTOBUF_MEDIA_TYPE) return object;
  for (const [key, field] of Object.entries(object)) {
    // Go matches struct fields case-insensitively.
    const name = { kind: 'kind', apiversion: 'apiVersion' }[key.toLowerCase()];
    if (name !== undefined && field !== null && typeof field !== 'string') {
      throw unreadable(`json: cannot unmarshal ${goJsonValueName(field)} into Go struct field .${name} of type string`);
    }
  }
  if (typeof object.apiVersion === 'string' && object.apiVersion.split('/').length > 2) {
    throw unrecognizedObject(kind, `unexpected GroupVersion string: ${object.apiVersion}`, raw);
  }
  return object;
}

/**
 * Decodes a request body into a JSON value; a body that does not decode is 400 BadRequest, worded
 * as kube-apiserver words it: for an object body (`kind` given) "the object provided is
 * unrecognized", for a patch Go's decoder error alone, for apply "error decoding YAML". JSON is
 * scanned first (syntax, nesting, duplicate keys: `json-syntax.ts`), so every walk after parsing
 * is bounded; YAML that is JSON (kubectl's apply sends JSON) takes the same path, other YAML goes
 * through `body-decoder.ts`. Keys a JSON or YAML object body held twice land in
 * `request.kube.duplicateFields` for fieldValidation. A protobuf body keeps its envelope's kind
 * and apiVersion, which the registry checks against the URL.
 */
export async function decodeBody(request: FastifyRequest, kind?: string): Promise<unknown> {
  const decoded = await decodeBodyOf(request, kind);
  // Kept for the audit log's requestObject, whatever the body's format.
  if (request.kube) request.kube.decodedBody = decoded;
  return decoded;
}

async function decodeBodyOf(request: FastifyRequest, kind?: string): Promise<unknown> {
  const body = request.body;
  if (!Buffer.isBuffer(body) || body.length === 0) return null;
  const type = contentType(request);
  if (type === PROTOBUF_MEDIA_TYPE) {
    try {
      return decodeObject(body);
    } catch (err) {
      if (err instanceof ProtobufError) throw new ApiError(400, 'BadRequest', `error decoding protobuf: ${err.message}`);
      throw err;
    }
  }
  const text = body.toString('utf8');
  const json = await decodeJsonBody(text);
  const syntaxError = json.error;
  if (syntaxError === undefined) {
    // Duplicates matter only where fieldValidation applies: object bodies and apply configurations.
    if ((type === 'application/json' || isYaml(type)) && request.kube) request.kube.duplicateFields = json.duplicateFields;
    return json.value;
  }
  if (!isYaml(type)) {
    if (kind) throw unrecognizedObject(kind, `couldn't get version/kind; json parse error: ${syntaxError}`, body);
    throw new ApiError(400, 'BadRequest', syntaxError);
  }
  try {
    const decoded = await decodeYamlBody(text);
    if (request.kube) request.kube.duplicateFields = decoded.duplicateFields;
    return decoded.value;
  } catch (err) {
    if (!(err instanceof YamlDecodeError)) throw err;
    if (kind) throw unrecognizedObject(kind, `error converting YAML to JSON: ${err.message}`, body);
    throw new ApiError(400, 'BadRequest', `error decoding YAML: ${err.message}`);
  }
}
