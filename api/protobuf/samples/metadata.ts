/**
 * Metadata for the protobuf samples: what a stored object's metadata looks like in kube-spaces
 * (tenant included), in the JSON form Go would write.
 */
export function objectMeta(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    namespace: 'shop',
    tenant: 't1',
    uid: `6f1c2a4e-0d3b-4b7a-9c11-${name.padEnd(12, '0').slice(0, 12).replace(/[^0-9a-f]/g, 'a')}`,
    resourceVersion: '4127',
    creationTimestamp: '2025-03-04T05:06:07Z',
    labels: { app: 'shop', tier: 'backend' },
    annotations: { 'kube-spaces.io/owner': 'team-a' },
    ...extra,
  };
}

/** Space-scoped objects have no namespace. */
export function spaceMeta(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { namespace: _namespace, ...meta } = objectMeta(name, extra);
  return meta;
}

export const listMeta = { resourceVersion: '4130', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDEzMH0', remainingItemCount: 3 };
