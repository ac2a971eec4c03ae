/**
 * `kube-spaces simulate-nodes`: the node simulator as a process of its own, against any
 * kube-spaces server. The kubeconfig's user (a system admin, or `system:node-simulator` itself)
 * acts as `system:node-simulator` by impersonation, so the simulator has that user's rights and no
 * more. One process per node-name prefix: there is no leader election, two simulators of the same
 * nodes would fight over their pods. SIGTERM/SIGINT stop it; its nodes stay (NotReady in time, as
 * after a kubelet stops).
 *
 * @example
 *   kube-spaces simulate-nodes --kubeconfig .kube-spaces/admin.kubeconfig --nodes 100
 */
import { NODE_SIMULATOR_USER } from '../authz/rbac/bootstrap-policy.js';
import { startNodeSimulator, type NodeSimulatorSettings } from '../controllers/node-simulator/node-simulator.js';
import { HttpsTransport } from './client/https-transport.js';
import { ImpersonatingTransport } from './client/impersonating-transport.js';
import { KubeClient } from './client/kube-client.js';
import { loadKubeconfig } from './client/kubeconfig.js';
import { createLogger } from './logger.js';

export interface RunNodeSimulatorOptions {
  kubeconfig: string;
  context?: string | undefined;
  settings: NodeSimulatorSettings;
}

export async function runNodeSimulator(options: RunNodeSimulatorOptions): Promise<void> {
  const log = createLogger();
  const config = await loadKubeconfig({ path: options.kubeconfig, context: options.context });
  const transport = new HttpsTransport(config.transport);
  const simulator = startNodeSimulator({ ...options.settings, client: new KubeClient(new ImpersonatingTransport(transport, NODE_SIMULATOR_USER)), log });
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const signal = await stopped;
  log.info({ signal }, 'node simulator stopping');
  await simulator.stop();
  transport.close();
}
