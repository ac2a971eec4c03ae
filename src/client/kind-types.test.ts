/**
 * The client's kinds are typed by the interfaces generated from their schemas (scripts/kind-types.ts
 * checks the generated file is current): these type checks run in `npm run typecheck`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { pods as podsDefinition } from '../../api/kinds/core/pod.js';
import {
  configMaps,
  deployments,
  events,
  pods,
  type ConfigMap,
  type Container,
  type CoreV1Event,
  type Deployment,
  type DeploymentStrategy,
  type KubeClient,
  type Pod,
  type PodCondition,
  type ResourceClient,
  type ResourceRequirements,
  type RollingUpdateDeployment,
} from './index.js';
import { typedKind } from './typed-kind.js';

describe('the client kind types', () => {
  it('type a kind definition’s objects by its schema', () => {
    const podsOf = (client: KubeClient) => client.space('t1').namespace('a').resource(pods);
    expectTypeOf(podsOf).returns.toEqualTypeOf<ResourceClient<Pod>>();
    expectTypeOf<ReturnType<ResourceClient<Pod>['get']>>().toEqualTypeOf<Promise<Pod>>();
    const configMapsOf = (client: KubeClient) => client.resource(configMaps);
    expectTypeOf(configMapsOf).returns.toEqualTypeOf<ResourceClient<ConfigMap>>();
    const deploymentsOf = (client: KubeClient) => client.resource(deployments);
    expectTypeOf(deploymentsOf).returns.toEqualTypeOf<ResourceClient<Deployment>>();
    const eventsOf = (client: KubeClient) => client.resource(events);
    expectTypeOf(eventsOf).returns.toEqualTypeOf<ResourceClient<CoreV1Event>>();
  });

  it('have every field of the schema, required ones required, and the space in metadata', () => {
    expectTypeOf<NonNullable<Pod['spec']>['containers']>().toEqualTypeOf<Container[]>();
    expectTypeOf<NonNullable<Container['securityContext']>['runAsUser']>().toEqualTypeOf<number | undefined>();
    // A field the server's hand-written types (api/kinds/core/types.ts) leave out.
    expectTypeOf<NonNullable<Container['securityContext']>['readOnlyRootFilesystem']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<NonNullable<Pod['status']>['conditions']>().toEqualTypeOf<PodCondition[] | undefined>();
    expectTypeOf<PodCondition['status']>().toEqualTypeOf<string>();
    expectTypeOf<Pod['metadata']['tenant']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a container's name is required by its schema
    const unnamed: Container = { image: 'busybox' };
    expect(unnamed.image).toBe('busybox');
  });

  it('map enums, IntOrString and Quantity', () => {
    expectTypeOf<DeploymentStrategy['type']>().toEqualTypeOf<'Recreate' | 'RollingUpdate' | undefined>();
    expectTypeOf<RollingUpdateDeployment['maxSurge']>().toEqualTypeOf<number | string | undefined>();
    expectTypeOf<ResourceRequirements['limits']>().toEqualTypeOf<Record<string, string | number> | undefined>();
  });

  it('refuse to type a definition as another kind', () => {
    expect(() => typedKind(podsDefinition, 'v1/ConfigMap')).toThrow('v1/Pod typed as v1/ConfigMap');
  });
});
