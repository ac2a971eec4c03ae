/**
 * A pod made from a controller's template, as kube's `GetPodFromTemplate`: the template's labels,
 * annotations, finalizers and spec, the controller's reference, and the namespace (and space) of
 * the controller. Callers add what their kind adds (a name, revision labels, a node affinity).
 * Shared by the workload controllers (Job, StatefulSet, DaemonSet, ReplicaSet).
 *
 * @example
 *   const pod = podFromTemplate(job.spec.template, job, newControllerRef(job, 'batch/v1', 'Job'));
 *   pod.metadata.generateName = `${job.metadata.name}-`;
 */
import type { Pod, PodTemplateSpec } from '../../api/kinds/core/types.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';

export function podFromTemplate(template: PodTemplateSpec | undefined, owner: KubeObject, controllerRef: OwnerReference): Pod {
  const meta = template?.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: owner.metadata.namespace,
      labels: { ...meta.labels },
      annotations: { ...meta.annotations },
      ownerReferences: [controllerRef],
    },
    spec: structuredClone(template?.spec ?? {}),
  };
  if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
  if (Object.keys(pod.metadata.annotations!).length === 0) delete pod.metadata.annotations;
  return pod;
}

/** A generated name prefix kube-style: `<prefix>-`, cut so that the generated name stays within 63 characters. */
export function generateNamePrefix(prefix: string): string {
  const max = 63 - 5; // the server appends five characters
  return prefix.length + 1 > max ? `${prefix.slice(0, max - 1)}-` : `${prefix}-`;
}
