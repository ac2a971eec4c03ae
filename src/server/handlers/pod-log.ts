/**
 * `pods/<name>/log`, as kube-apiserver and a kubelet answer it between them
 * (`pkg/registry/core/pod/strategy.go` LogLocation, the kubelet's `validateContainerLogStatus`):
 *
 * - the container is checked first (one must be named when the pod has several);
 * - a pod on no node has an empty log;
 * - a container that has not started is a 400 `container "x" in pod "p" is waiting to start: <reason>`
 *   (ContainerCreating while nothing reports it);
 * - a container the node simulator reports answers the lines of its simulated lifecycle
 *   (controllers/node-simulator/container-log.ts), `previous=true` those of its last run;
 * - any other container would need a kubelet, and none runs here: 503.
 *
 * `timestamps` and `tailLines` apply; `follow` answers what there is and ends.
 */
import type { ContainerStatus, Pod } from '../../../api/kinds/core/types.js';
import { ApiError } from '../../../api/status.js';
import { isSimulatedContainer, simulatedContainerLog } from '../../../controllers/node-simulator/container-log.js';
import type { HandlerDeps } from './handler-deps.js';
import { intParam, param, type Query } from './query.js';
import { locationOf } from './read-handlers.js';
import type { ResourceRequest } from './resolve-resource.js';

/** The container a log request is about, checked as kube-apiserver does. */
function containerOf(pod: Pod, name: string, asked: string | undefined): string {
  const spec = pod.spec ?? {};
  if (asked === undefined || asked === '') {
    if ((spec.containers ?? []).length !== 1) {
      throw new ApiError(400, 'BadRequest', `a container name must be specified for pod ${name}, choose one of: [${(spec.containers ?? []).map((c) => c.name).join(' ')}]`);
    }
    return spec.containers![0]!.name ?? '';
  }
  const names = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].map((c) => c.name);
  if (!names.includes(asked)) throw new ApiError(400, 'BadRequest', `container ${asked} is not valid for pod ${name}`);
  return asked;
}

function statusOf(pod: Pod, container: string): ContainerStatus | undefined {
  const status = pod.status ?? {};
  const all = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? []), ...((status as { ephemeralContainerStatuses?: ContainerStatus[] }).ephemeralContainerStatuses ?? [])];
  return all.find((s) => s.name === container);
}

/** RFC 3339 with nanoseconds, as a kubelet prefixes lines with `timestamps=true`. */
const nanoTime = (time: string): string => new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

export async function podLog(deps: HandlerDeps, req: ResourceRequest, query: Query): Promise<string> {
  const pod = (await deps.generic.get(req.def, locationOf(req))) as Pod;
  const name = req.name!;
  const container = containerOf(pod, name, param(query, 'container'));
  const node = pod.spec?.nodeName;
  if (!node) return '';
  const status = statusOf(pod, container);
  const previous = param(query, 'previous') === 'true';
  if (previous && status && !status.lastState?.terminated) throw new ApiError(400, 'BadRequest', `previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} not found`);
  const state = previous ? status?.lastState : status?.state;
  if (!previous && (!status || status.state?.waiting || !status.state || Object.keys(status.state).length === 0)) {
    const reason = status?.state?.waiting?.reason || 'ContainerCreating';
    throw new ApiError(400, 'BadRequest', `container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} is waiting to start: ${reason}`);
  }
  if (!status || !state || !isSimulatedContainer(status)) {
    throw new ApiError(503, 'ServiceUnavailable', `no kubelet serves node ${JSON.stringify(node)} of pod ${name}: this server runs no kubelets`);
  }
  let lines = simulatedContainerLog(container, node, status.image, state);
  const tail = intParam(query, 'tailLines');
  if (tail !== undefined && tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
  const stamped = param(query, 'timestamps') === 'true';
  return lines.map((l) => (stamped ? `${nanoTime(l.time)} ${l.text}\n` : `${l.text}\n`)).join('');
}
