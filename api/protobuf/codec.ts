/**
 * Kubernetes' protobuf wire format (`application/vnd.kubernetes.protobuf`) for built-in kinds.
 *
 * A body is the 4 bytes `k8s\0` followed by a `runtime.Unknown` envelope: the object's
 * `typeMeta{apiVersion, kind}` and `raw`, the object's message (k8s.io/api field numbers). A watch
 * stream is a sequence of frames, each a 4-byte big-endian length and a bare `meta/v1.WatchEvent`
 * whose `object.raw` is the event object's own `k8s\0` body — apimachinery's protobuf stream
 * serializer writes the event raw and the embedded object with the full envelope.
 *
 * @example
 *   const body = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
 *   decodeObject(body); // → { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm1' }, data: { a: 'b' } }
 */
import { jsonToMessage, messageToJson, type JsonObject, type ProtoMessage } from './json-mapping.js';
import { ProtobufError } from './protobuf-error.js';
import { protoSchema } from './proto-schema.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

const PREFIX = Buffer.from('k8s\0', 'latin1');

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

/** An object in its JSON form, with the type the envelope names. */
export type TypedObject = TypeMeta & JsonObject;

export interface WatchEventJson {
  type: string;
  object: unknown;
}

/** The type of a JSON value that names one (`{apiVersion, kind}` strings), if it does. */
export function typeMetaOf(value: unknown): TypeMeta | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { apiVersion, kind } = value as Partial<Record<'apiVersion' | 'kind', unknown>>;
  return typeof apiVersion === 'string' && typeof kind === 'string' ? { apiVersion, kind } : undefined;
}

/** Whether objects of this type have a protobuf form: built-in kinds do, custom resources do not. */
export function hasProtobufForm(type: TypeMeta): boolean {
  return protoSchema.kindType(type.apiVersion, type.kind) !== undefined;
}

function decodeMessage(type: { decode(bytes: Uint8Array): object }, bytes: Uint8Array, what: string): ProtoMessage {
  try {
    return type.decode(bytes) as ProtoMessage;
  } catch (err) {
    throw new ProtobufError(`${what} is not valid protobuf: ${(err as Error).message}`);
  }
}

/**
 * Decodes a `k8s\0` body into the object's JSON form, with the envelope's kind and apiVersion.
 * Throws ProtobufError for a body that is not one, or names a type without a protobuf form.
 */
export function decodeObject(body: Uint8Array): TypedObject {
  if (body.length < PREFIX.length || !PREFIX.equals(body.subarray(0, PREFIX.length))) {
    throw new ProtobufError('the body does not start with the protobuf envelope prefix "k8s\\x00"');
  }
  const envelope = decodeMessage(protoSchema.unknown, body.subarray(PREFIX.length), 'the protobuf envelope');
  const typeMeta = (envelope['typeMeta'] ?? {}) as Partial<TypeMeta>;
  const apiVersion = typeMeta.apiVersion ?? '';
  const kind = typeMeta.kind ?? '';
  const encoding = envelope['contentEncoding'];
  if (typeof encoding === 'string' && encoding !== '') throw new ProtobufError(`unsupported content encoding ${JSON.stringify(encoding)}`);
  const type = protoSchema.kindType(apiVersion, kind);
  if (!type) throw new ProtobufError(`no protobuf form for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
  const raw = (envelope['raw'] as Uint8Array | undefined) ?? new Uint8Array();
  const json = messageToJson(type, decodeMessage(type, raw, `the ${kind}`)) as JsonObject;
  return { kind, apiVersion, ...json };
}

/** Encodes an object into a `k8s\0` body; its kind and apiVersion pick the message type. */
export function encodeObject(object: TypedObject): Buffer {
  const { apiVersion, kind } = object;
  const type = protoSchema.kindType(apiVersion, kind);
  if (!type) throw new ProtobufError(`no protobuf form for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
  const raw = type.encode(jsonToMessage(type, object)).finish();
  const envelope = protoSchema.unknown.encode({ typeMeta: { apiVersion, kind }, raw }).finish();
  return Buffer.concat([PREFIX, envelope]);
}

/** One frame of a protobuf watch stream: length, then the WatchEvent carrying the object's body. */
export function encodeWatchFrame(event: { type: string; object: TypedObject }): Buffer {
  const bytes = protoSchema.watchEvent.encode({ type: event.type, object: { raw: encodeObject(event.object) } }).finish();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** Splits a protobuf watch stream into its events, objects decoded to JSON (for clients and tests). */
export function decodeWatchFrames(stream: Uint8Array): WatchEventJson[] {
  const bytes = Buffer.from(stream);
  const events: WatchEventJson[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    if (offset + 4 > bytes.length) throw new ProtobufError('truncated watch frame length');
    const length = bytes.readUInt32BE(offset);
    const end = offset + 4 + length;
    if (end > bytes.length) throw new ProtobufError('truncated watch frame');
    const event = decodeMessage(protoSchema.watchEvent, bytes.subarray(offset + 4, end), 'a watch event');
    const object = (event['object'] ?? {}) as ProtoMessage;
    events.push({ type: String(event['type'] ?? ''), object: decodeObject((object['raw'] as Uint8Array | undefined) ?? new Uint8Array()) });
    offset = end;
  }
  return events;
}
