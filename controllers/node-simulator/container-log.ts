/**
 * The log of a container on a simulated node. Nothing runs there, so there is no output to show;
 * what the log honestly holds is what the node simulator did with the container, read from its
 * status: when it started (from which image, on which node) and, once it ended, how. The server
 * answers `pods/log` with these lines for containers the simulator reports (`simulated://` IDs).
 *
 * @example
 *   simulatedContainerLog('web', 'sim-node-0', status)
 *   // [{ time: '2026-…Z', text: 'container "web" started from image "nginx:1.27" on simulated node sim-node-0 …' }]
 */
import type { ContainerState, ContainerStatus } from '../../api/kinds/core/types.js';
import { SIMULATED_CONTAINER_SCHEME } from './pod-status.js';

export interface LogLine {
  time: string;
  text: string;
}

/** Whether the node simulator reports this container (its ID is one the simulator made up). */
export function isSimulatedContainer(status: ContainerStatus): boolean {
  return (status.containerID ?? '').startsWith(SIMULATED_CONTAINER_SCHEME);
}

/** The lines of one run of the container: the current one (`state`) or the previous (`lastState`). */
export function simulatedContainerLog(container: string, node: string, image: string | undefined, state: ContainerState): LogLine[] {
  const startedAt = state.running?.startedAt ?? state.terminated?.startedAt;
  const lines: LogLine[] = [];
  if (startedAt) {
    lines.push({
      time: startedAt,
      text: `container ${JSON.stringify(container)} started from image ${JSON.stringify(image ?? '')} on simulated node ${node} (kube-spaces node simulator: no process runs, so there is no output of its own)`,
    });
  }
  const ended = state.terminated;
  if (ended?.finishedAt) lines.push({ time: ended.finishedAt, text: `container ${JSON.stringify(container)} exited with code ${ended.exitCode ?? 0} (${ended.reason ?? 'Completed'})` });
  return lines;
}
