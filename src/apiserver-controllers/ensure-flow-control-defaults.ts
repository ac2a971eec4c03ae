/**
 * Writes kube-apiserver's API Priority and Fairness configuration at start (its
 * `apf_configuration` bootstrap): the mandatory FlowSchemas and PriorityLevelConfigurations
 * (exempt, catch-all) are always brought back to their fixed spec; the suggested ones are created
 * when missing and set back to the defaults unless an admin set their
 * `apf.kubernetes.io/autoupdate-spec` annotation to "false". Every other object is left alone.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { ApiError } from '../../api/status.js';
import { AUTOUPDATE_ANNOTATION, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from '../server/flowcontrol/bootstrap-configuration.js';

export interface FlowControlKinds {
  flowSchemas: ResourceDefinition;
  priorityLevels: ResourceDefinition;
}

async function ensure(generic: GenericStore, def: ResourceDefinition, wanted: KubeObject, mandatory: boolean): Promise<void> {
  const object: KubeObject = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: def.kind, ...wanted };
  try {
    await generic.create(def, { tenant: '' }, object);
    return;
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
  }
  const loc = { tenant: '', name: wanted.metadata.name! };
  const current = await generic.get(def, loc);
  if (!mandatory && current.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
  // Compared after the kind's defaulting, which the stored object went through.
  const defaulted = structuredClone(object);
  def.defaults?.(defaulted);
  if (semanticEqual(current.spec, defaulted.spec) && current.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'true') return;
  await generic.mutate(def, loc, (obj) => ({ ...obj, metadata: { ...obj.metadata, annotations: { ...obj.metadata.annotations, [AUTOUPDATE_ANNOTATION]: 'true' } }, spec: object.spec }));
}

export async function ensureFlowControlDefaults(generic: GenericStore, kinds: FlowControlKinds): Promise<void> {
  // Levels first: a schema written before its level would be dangling for a moment.
  await Promise.all([
    ...MANDATORY_PRIORITY_LEVELS.map((l) => ensure(generic, kinds.priorityLevels, l as unknown as KubeObject, true)),
    ...SUGGESTED_PRIORITY_LEVELS.map((l) => ensure(generic, kinds.priorityLevels, l as unknown as KubeObject, false)),
  ]);
  await Promise.all([
    ...MANDATORY_FLOW_SCHEMAS.map((s) => ensure(generic, kinds.flowSchemas, s as unknown as KubeObject, true)),
    ...SUGGESTED_FLOW_SCHEMAS.map((s) => ensure(generic, kinds.flowSchemas, s as unknown as KubeObject, false)),
  ]);
}
