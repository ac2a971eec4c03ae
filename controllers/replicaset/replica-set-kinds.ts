/**
 * The two kinds one replica-set controller serves, as kube serves ReplicationControllers with the
 * ReplicaSet code through a conversion adapter: apps/v1 ReplicaSet (a label selector) and v1
 * ReplicationController (a map of labels). Everything else the controller does is the same.
 */
import { replicaSets, type ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import { replicationControllers } from '../../api/kinds/core/replication-controller.js';
import type { PodTemplateSpec, ReplicationController } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { LabelSelector } from '../../api/validation/label-selector.js';

export interface ReplicaSetCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

/** What the controller reads of either kind. */
export interface ReplicaSetKind {
  definition: ResourceDefinition;
  apiVersion: string;
  kind: string;
  /** kube's controller name, used in logs and in the controller's user. */
  name: string;
  /** The selector as a label selector; undefined selects nothing. */
  selector(obj: KubeObject): LabelSelector | undefined;
  replicas(obj: KubeObject): number;
  minReadySeconds(obj: KubeObject): number;
  template(obj: KubeObject): PodTemplateSpec | undefined;
  status(obj: KubeObject): ReplicaSetStatus;
}

export const REPLICA_SET_KIND: ReplicaSetKind = {
  definition: replicaSets as unknown as ResourceDefinition,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: 'replicaset',
  selector: (obj) => (obj as ReplicaSet).spec?.selector,
  replicas: (obj) => (obj as ReplicaSet).spec?.replicas ?? 1,
  minReadySeconds: (obj) => (obj as ReplicaSet).spec?.minReadySeconds ?? 0,
  template: (obj) => (obj as ReplicaSet).spec?.template,
  status: (obj) => ({ replicas: 0, ...(obj as ReplicaSet).status }),
};

export const REPLICATION_CONTROLLER_KIND: ReplicaSetKind = {
  definition: replicationControllers as unknown as ResourceDefinition,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: 'replication',
  selector: (obj) => {
    const labels = (obj as ReplicationController).spec?.selector;
    return labels && Object.keys(labels).length > 0 ? { matchLabels: labels } : undefined;
  },
  replicas: (obj) => (obj as ReplicationController).spec?.replicas ?? 1,
  minReadySeconds: (obj) => (obj as ReplicationController).spec?.minReadySeconds ?? 0,
  template: (obj) => (obj as ReplicationController).spec?.template,
  status: (obj) => ({ replicas: 0, ...((obj as ReplicationController).status as ReplicaSetStatus | undefined) }),
};
