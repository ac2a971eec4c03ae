/**
 * `kube-spaces/runtime`: the parts of the controller runtime a controller author can use with
 * `kube-spaces/client` (docs/controller-authors.md). So far the work queue.
 *
 * @example
 *   import { WorkQueue } from 'kube-spaces/runtime';
 *   const queue = new WorkQueue();
 */
export { WorkQueue } from './work-queue.js';
