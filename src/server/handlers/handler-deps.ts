/**
 * What every resource handler is given: the registry, stores and deciders of `apiRoutes`, plus the
 * open watch streams. Apart from the routes, so handlers and routes do not import each other.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../../api/registry/registry.js';
import type { WatchCaches } from '../../../api/registry/watch-cache.js';
import type { TokenAuthenticator } from '../../../authz/authenticate.js';
import type { Authorizer } from '../../../authz/authorize.js';
import type { ServiceAccountTokens } from '../../../authz/service-account-token.js';
import type { Store } from '../../../storage/store.js';
import type { NodeUsage } from './above-spaces.js';
import type { ApiMetrics } from '../metrics.js';

/** Open watch streams, so the server can end them when it closes. */
export type WatchStreams = Set<{ close(): void }>;

export interface ApiRoutesOptions {
  registry: ResourceRegistry;
  generic: GenericStore;
  store: Store;
  watchCaches: WatchCaches;
  authorizer: Authorizer;
  /** Authenticates a bare token for TokenReviews; without it every reviewed token is unauthenticated. */
  reviewToken?: TokenAuthenticator;
  /** Signs the tokens of `serviceaccounts/<name>/token`; without it that subresource is not found. */
  serviceAccountTokens?: ServiceAccountTokens;
  /** Which nodes run pods of which space, for what a tenant sees of nodes; without it a tenant sees none. */
  nodeUsage?: NodeUsage;
  /** Counts watchers and the events they are sent; without it nothing is counted. */
  metrics?: Pick<ApiMetrics, 'watchStarted'>;
}

export interface HandlerDeps extends ApiRoutesOptions {
  watches: WatchStreams;
}
