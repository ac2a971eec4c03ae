/**
 * `kube-spaces/client`: the tenant-aware client for controller authors (docs/controller-authors.md).
 *
 * @example
 *   import { KubeClient, configMaps, keyOf, isNotFound } from 'kube-spaces/client';
 */
export { KubeClient, Scope } from './kube-client.js';
export { ResourceClient } from './resource-client.js';
export type { DeleteOptions, ListOptions, ObjectList, PagedListOptions, PatchOptions, PatchType, Selectors, WatchOptions, WriteOptions } from './resource-client.js';
export type { WatchEvent } from './watch-events.js';
export type { WireFormat } from './wire-format.js';
export { loadKubeconfig, type ClientConfig, type KubeconfigOptions } from './kubeconfig.js';
export { HttpsTransport, type HttpsTransportOptions } from './https-transport.js';
export type { HttpMethod, Transport, TransportRequest, TransportResponse } from './transport.js';
export type { GroupVersionResource, SpaceTarget } from './paths.js';
export type { ApiResource, ApiResourceList, ServedResource, TypeMeta } from './discovery.js';
export { ImpersonatingTransport } from './impersonating-transport.js';
export { keyOf, keyString, parseKeyString, type ObjectKey } from './object-key.js';
export {
  ApiError,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isServiceUnavailable,
  isTooManyRequests,
  isUnauthorized,
} from './api-status.js';
export type { KubeObject, ObjectMeta } from '../../api/registry/object.js';
export type { Status, StatusReason } from '../../api/status.js';
export * from './builtin-kinds.js';
export type { TypedKind } from './typed-kind.js';
// Every schema's type (`Pod`, `Deployment`, …). The explicit exports above keep their names where a
// schema's type shares one: `Status` (api/status.ts, the errors' model), `DeleteOptions` (the client's).
export type * from './kind-types.generated.js';
