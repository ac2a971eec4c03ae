/**
 * The client's wire formats: JSON always; Kubernetes' protobuf (`application/vnd.kubernetes.protobuf`)
 * when the client asks for it, as client-go's typed clients do. Built-in kinds then travel as
 * protobuf both ways; custom resources (which have no protobuf form) and patches stay JSON, because
 * the server answers JSON for what it cannot encode and the client only sends protobuf for kinds
 * that have the form. Every answer is read by its own Content-Type.
 *
 * @example
 *   const client = await KubeClient.fromKubeconfig({ protobuf: true });
 */
import { decodeObject, decodeWatchFrames, encodeObject, hasProtobufForm, PROTOBUF_MEDIA_TYPE, typeMetaOf, type TypedObject } from '../../api/protobuf/codec.js';
import type { TransportResponse } from './transport.js';

export type WireFormat = 'json' | 'protobuf';

const JSON_MEDIA_TYPE = 'application/json';

/** What to ask the server for: protobuf first when wanted, JSON for whatever has no protobuf form. */
export function acceptFor(format: WireFormat): string {
  return format === 'protobuf' ? `${PROTOBUF_MEDIA_TYPE}, ${JSON_MEDIA_TYPE}` : JSON_MEDIA_TYPE;
}

/** A whole object's body: protobuf when wanted and the object names a kind that has the form. */
export function encodeBody(format: WireFormat, value: unknown): { body: Buffer; contentType: string } {
  const type = format === 'protobuf' ? typeMetaOf(value) : undefined;
  if (type && hasProtobufForm(type)) return { body: encodeObject(value as TypedObject), contentType: PROTOBUF_MEDIA_TYPE };
  return { body: Buffer.from(JSON.stringify(value)), contentType: JSON_MEDIA_TYPE };
}

export function isProtobuf(response: Pick<TransportResponse, 'headers'>): boolean {
  const type = response.headers['content-type'];
  return typeof type === 'string' && type.startsWith(PROTOBUF_MEDIA_TYPE);
}

/** A body in the format its Content-Type names. */
export function decodeBody(response: Pick<TransportResponse, 'headers'>, body: Buffer): unknown {
  if (!isProtobuf(response)) return JSON.parse(body.toString('utf8'));
  const decoded = decodeObject(body);
  // Protobuf has no empty list, only none: a list of nothing is handed out with `items: []`, as in JSON.
  if (decoded.kind.endsWith('List') && decoded['items'] === undefined) decoded['items'] = [];
  return decoded;
}

/** A watch event as the server writes it, in either format (an ERROR's object is a Status). */
export interface WireEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** Splits a watch stream into events: JSON lines, or protobuf frames (a 4-byte length, then the event). */
export async function* watchEvents<T>(response: TransportResponse): AsyncGenerator<WireEvent<T>> {
  if (isProtobuf(response)) yield* protobufFrames(response) as AsyncGenerator<WireEvent<T>>;
  else yield* jsonLines(response) as AsyncGenerator<WireEvent<T>>;
}

async function* jsonLines(response: TransportResponse): AsyncGenerator<WireEvent<unknown>> {
  let pending = '';
  for await (const chunk of response.body) {
    pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line !== '') yield JSON.parse(line) as WireEvent<unknown>;
    }
  }
}

async function* protobufFrames(response: TransportResponse): AsyncGenerator<WireEvent<unknown>> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of response.body) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let end: number;
    while (pending.length >= 4 && pending.length >= (end = 4 + pending.readUInt32BE(0))) {
      for (const event of decodeWatchFrames(pending.subarray(0, end))) yield event as WireEvent<unknown>;
      pending = pending.subarray(end);
    }
  }
}
