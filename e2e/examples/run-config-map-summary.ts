/**
 * Runs the example controller as a process of its own (built to dist/e2e/examples/), as its
 * author would deploy it: `node run-config-map-summary.js <kubeconfig>`; SIGTERM stops it.
 */
import { KubeClient } from '../../src/client/index.js';
import { runConfigMapSummary } from './config-map-summary-controller.js';

const kubeconfig = process.argv[2];
if (kubeconfig === undefined) throw new Error('usage: run-config-map-summary <kubeconfig>');
const client = await KubeClient.fromKubeconfig({ path: kubeconfig });
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
console.log(JSON.stringify({ msg: 'config-map-summary controller starting', pid: process.pid }));
await runConfigMapSummary(client, stop.signal);
client.close();
