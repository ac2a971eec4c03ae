/**
 * The controller manager inside `serve`: the same controllers as `kube-spaces controllers`, over
 * the in-process transport, each under its own identity (a token that lives in this process
 * only), so their requests are authenticated, authorized and admitted like anyone's.
 *
 * @example
 *   const identities = new InProcessIdentities(); // in the app's authentication chain
 *   const manager = startInProcessControllerManager(app, identities, { rootCaBundle: caPem, log });
 */
import type { FastifyInstance } from 'fastify';
import { SYSTEM_TENANT } from '../api/spaces.js';
import type { InProcessIdentities } from '../authz/in-process-identities.js';
import { CONTROLLER_MANAGER_USER } from '../authz/rbac/bootstrap-policy.js';
import { startControllerManager, type ControllerManager, type ControllerManagerOptions } from '../controllers/controller-manager.js';
import { KubeClient } from './client/kube-client.js';
import { InProcessTransport } from './server/in-process-transport.js';

/** A client acting in process as the system space's user `name`, in `groups`. */
export function inProcessClient(app: FastifyInstance, identities: InProcessIdentities, name: string, groups: string[] = []): KubeClient {
  return new KubeClient(new InProcessTransport(app, identities.issue({ name, uid: '', groups, tenant: SYSTEM_TENANT, extra: {} })));
}

/** kube-apiserver's loopback identity: what the server writes on its own behalf (its identity Lease, the compactor's Lease). */
export const APISERVER_USER = { name: 'system:apiserver', groups: ['system:masters'] };

/** `settings`: the manager's options but its clients, which are in-process ones here. */
export function startInProcessControllerManager(
  app: FastifyInstance,
  identities: InProcessIdentities,
  settings: Omit<ControllerManagerOptions, 'informerClient' | 'clientFor'>,
): ControllerManager {
  const clientAs = (name: string) => inProcessClient(app, identities, name);
  return startControllerManager({ ...settings, informerClient: clientAs(CONTROLLER_MANAGER_USER), clientFor: clientAs });
}
