/**
 * Fixtures for the apply tests: built-in kinds' schemas and a deployment manifest to vary.
 */
import { builtinKinds } from '../kinds/index.js';
import type { KubeObject } from '../registry/object.js';
import type { Schema } from '../schema/schema.js';
import { isJsonObject, type JsonObject } from './json-value.js';

export function schemaOf(kind: string): Schema {
  const def = builtinKinds.find((d) => d.kind === kind);
  if (!def) throw new Error(`no built-in kind ${kind}`);
  return def.schema;
}

export const NOW = new Date('2024-05-01T10:00:00.123Z');
export const LATER = new Date('2024-05-01T11:00:00Z');
export const EVEN_LATER = new Date('2024-05-01T12:00:00Z');

/** An apps/v1 Deployment named web with the given replicas and containers. */
export function deployment(spec: { replicas?: number; containers?: JsonObject[]; labels?: JsonObject } = {}): JsonObject {
  const labels = spec.labels ?? { app: 'web' };
  const obj: JsonObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: spec.containers ?? [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    },
  };
  if (spec.replicas !== undefined) (obj.spec as JsonObject).replicas = spec.replicas;
  return obj;
}

/** A JSON fixture as the stored object it stands for. */
export function kube(obj: JsonObject): KubeObject {
  if (!isJsonObject(obj.metadata)) throw new Error('a fixture object needs metadata');
  return obj as unknown as KubeObject;
}
