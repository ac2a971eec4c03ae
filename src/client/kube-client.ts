/**
 * The tenant-aware client. Scopes read like the model: the client acts in the space its
 * kubeconfig addresses (the caller's own unless the server URL ends in `/tenants/<t>`),
 * `space('t1')` in one space, `allSpaces()` in every space (system users only, as the server
 * decides), `namespace('ns1')` inside a space.
 *
 * @example
 *   const client = await KubeClient.fromKubeconfig({ path: 'admin.kubeconfig' });
 *   const cm = await client.space('t1').namespace('ns1').resource(configMaps).get('cm1'); // cm.metadata.tenant === 't1'
 *   for await (const event of client.allSpaces().resource(configMaps).watch()) …;
 *   client.close();
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ALL_TENANTS } from '../../api/spaces.js';
import { ApiRequester } from './api-requester.js';
import type { WireFormat } from './wire-format.js';
import { Discovery, type ServedResource, type TypeMeta } from './discovery.js';
import { HttpsTransport } from './https-transport.js';
import { loadKubeconfig, type KubeconfigOptions } from './kubeconfig.js';
import type { GroupVersionResource, SpaceTarget } from './paths.js';
import { ResourceClient } from './resource-client.js';
import type { Transport } from './transport.js';
import type { TypedKind } from './typed-kind.js';

/** Verbs on resources within one scope: a space, a namespace of it, or every space. */
export class Scope {
  constructor(
    protected readonly requester: ApiRequester,
    protected readonly discovery: Discovery,
    /** Which space (or every space) this scope acts in. */
    readonly target: SpaceTarget,
    readonly namespaceName?: string,
  ) {}

  /** The same space, inside one namespace (across every space: that namespace of each space). */
  namespace(name: string): Scope {
    return new Scope(this.requester, this.discovery, this.target, name);
  }

  /**
   * A built-in kind (e.g. `configMaps`) types the objects by its schema's generated interface, a
   * server kind definition by the type it was written against; a bare group/version/resource
   * gives `KubeObject`s. Server definitions come first: a `TypedKind`'s type parameter would also
   * accept them, inferring nothing.
   */
  resource<T extends KubeObject>(definition: ResourceDefinition<T>): ResourceClient<T>;
  resource<T extends KubeObject>(kind: TypedKind<T>): ResourceClient<T>;
  resource<T extends KubeObject = KubeObject>(resource: GroupVersionResource): ResourceClient<T>;
  resource<T extends KubeObject>(resource: GroupVersionResource): ResourceClient<T> {
    const { group, version } = resource;
    return new ResourceClient<T>(this.requester, this.target, { group, version, resource: resource.resource }, this.namespaceName);
  }

  /** The resource serving a kind in this space, from the space's discovery (its own CRDs included). */
  async resourceFor<T extends KubeObject = KubeObject>(type: TypeMeta): Promise<ResourceClient<T>> {
    const found = await this.discovery.resourceFor(this.target, type);
    if (!found.namespaced && this.namespaceName !== undefined) throw new Error(`${type.kind} is not namespaced; use the space's scope`);
    return this.resource<T>(found);
  }

  /** Every resource this scope's space serves, each group at its preferred version (discovery, read fresh). */
  async preferredResources(): Promise<ServedResource[]> {
    return this.discovery.preferredResources(this.target);
  }
}

export class KubeClient extends Scope {
  /** A client over HTTPS from a kubeconfig (see kubeconfig.ts for what it reads). */
  static async fromKubeconfig(options: KubeconfigOptions & { format?: WireFormat } = {}): Promise<KubeClient> {
    const config = await loadKubeconfig(options);
    return new KubeClient(new HttpsTransport(config.transport), config.space, options.format);
  }

  /**
   * @param space the default scope; the caller's own space unless given.
   * @param format `protobuf` for built-in kinds in Kubernetes' protobuf (as client-go's typed clients), else JSON.
   */
  constructor(transport: Transport, space: SpaceTarget = { kind: 'own' }, format: WireFormat = 'json') {
    const requester = new ApiRequester(transport, format);
    super(requester, new Discovery(requester), space);
  }

  /** One space by name (system users may name any; a tenant user only its own). */
  space(tenant: string): Scope {
    if (tenant === ALL_TENANTS) throw new Error(`"${ALL_TENANTS}" names no space: use allSpaces()`);
    return new Scope(this.requester, this.discovery, { kind: 'space', tenant });
  }

  /** Every space at once, for lists, watches and writes back to each object's own space. */
  allSpaces(): Scope {
    return new Scope(this.requester, this.discovery, { kind: 'all' });
  }

  /** The caller's own space, by identity (the short URL form), whatever the kubeconfig addresses. */
  ownSpace(): Scope {
    return new Scope(this.requester, this.discovery, { kind: 'own' });
  }

  close(): void {
    this.requester.transport.close();
  }
}
