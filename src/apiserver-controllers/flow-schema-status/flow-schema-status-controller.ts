/**
 * The FlowSchema `Dangling` condition, as kube-apiserver's API Priority and Fairness controller
 * keeps it: True (reason NotFound) while the priority level a schema names does not exist, False
 * (Found) once it does. `kubectl get flowschemas` shows it as MISSINGPL. Written through the status
 * subresource only when the condition changes.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import { nowTimestamp } from '../../../api/registry/generic-store.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { FlowSchema } from '../../../api/kinds/flowcontrol/flowschema.js';
import { ApiError } from '../../../api/status.js';
import { Controller, done, type ReconcileResult } from '../../../controllers/runtime/controller.js';
import type { Informer } from '../../../controllers/runtime/informer.js';
import type { ObjectKey } from '../../client/object-key.js';

export interface FlowSchemaStatusControllerDeps {
  generic: GenericStore;
  flowSchemas: Informer;
  priorityLevels: Informer;
  flowSchemaDef: ResourceDefinition;
  log: { error(obj: object, msg: string): void };
}

type Condition = NonNullable<NonNullable<FlowSchema['status']>['conditions']>[number];

/** The Dangling condition a schema should carry, in kube's words (without its transition time). */
export function danglingCondition(levelName: string, levelExists: boolean): Condition {
  return levelExists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} but there is no such object` };
}

const clusterKey = (name: string): ObjectKey => ({ tenant: '', namespace: '', name });

async function reconcileFlowSchema(deps: FlowSchemaStatusControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const schema = deps.flowSchemas.get(key) as FlowSchema | undefined;
  if (!schema || schema.metadata.deletionTimestamp) return done;
  const levelName = schema.spec?.priorityLevelConfiguration?.name ?? '';
  const wanted = danglingCondition(levelName, deps.priorityLevels.get(clusterKey(levelName)) !== undefined);
  const current = schema.status?.conditions?.find((c) => c.type === 'Dangling');
  if (current?.status === wanted.status && current?.reason === wanted.reason && current?.message === wanted.message) return done;
  try {
    await deps.generic.mutate(
      deps.flowSchemaDef,
      { tenant: '', name: key.name },
      (obj) => {
        const status = (obj as FlowSchema).status ?? {};
        const others = (status.conditions ?? []).filter((c) => c.type !== 'Dangling');
        const before = (status.conditions ?? []).find((c) => c.type === 'Dangling');
        const since = before?.status === wanted.status && before?.lastTransitionTime ? before.lastTransitionTime : nowTimestamp();
        obj.status = { ...status, conditions: [...others, { ...wanted, lastTransitionTime: since }] };
        return obj;
      },
      { subresource: 'status' },
    );
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'NotFound') return done;
    throw err;
  }
  return done;
}

export function flowSchemaStatusController(deps: FlowSchemaStatusControllerDeps): Controller {
  const controller = new Controller({ name: 'flowschema-status', reconcile: (key) => reconcileFlowSchema(deps, key), log: deps.log });
  deps.flowSchemas.onChange((key, obj) => {
    if (obj) controller.enqueue(key);
  });
  // A level created or deleted changes whether the schemas naming it dangle.
  deps.priorityLevels.onChange((key, obj, previous) => {
    if (obj && previous) return;
    for (const schema of deps.flowSchemas.lister<FlowSchema>().list()) {
      if (schema.spec?.priorityLevelConfiguration?.name === key.name) controller.enqueue(clusterKey(schema.metadata.name!));
    }
  });
  return controller;
}
