/**
 * A built-in kind as the client addresses it: its group, version, resource, apiVersion and kind,
 * typed by its objects' generated interface (kind-types.generated.ts), so `scope.resource(pods)`
 * hands out `Pod`s with every field of the kind's schema.
 *
 * @example
 *   export const pods = typedKind(podsDefinition, 'v1/Pod'); // TypedKind<Pod>
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { BuiltinKindTypes } from './kind-types.generated.js';
import type { GroupVersionResource } from './paths.js';

/** Names the objects' type on a kind; declared only, so it is never set and never seen at runtime. */
declare const objectType: unique symbol;

export interface TypedKind<T extends KubeObject> extends GroupVersionResource {
  readonly apiVersion: string;
  readonly kind: string;
  /** Never set: carries `T` for `Scope.resource` to infer. */
  readonly [objectType]?: T;
}

/** The names a kind's definition gives the client. */
type KindNames = GroupVersionResource & { apiVersion: string; kind: string };

/**
 * A kind's definition, typed by the generated interface of `key` (`apiVersion/kind`). The key is
 * checked against the definition when the client loads, so a kind can never carry another's type.
 */
export function typedKind<K extends keyof BuiltinKindTypes>(definition: KindNames, key: K): TypedKind<BuiltinKindTypes[K]> {
  if (`${definition.apiVersion}/${definition.kind}` !== key) throw new Error(`${definition.apiVersion}/${definition.kind} typed as ${key}`);
  return definition;
}
