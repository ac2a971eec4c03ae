/**
 * The core/v1 types other kinds embed, under Kubernetes' component names. Importing this module
 * registers all of them: PodSpec and PodTemplateSpec (workloads), Container, Volume, the
 * PersistentVolumeClaim (StatefulSet claim templates), ObjectReference, NodeSelector,
 * TopologySelectorTerm (StorageClass), EventSource (events.k8s.io), ...
 *
 * @example
 *   import { coreField } from './core-types.js';
 *   const template = coreField('PodTemplateSpec', 'Pods this Deployment creates.');
 *   // or ref('io.k8s.api.core.v1.PodTemplateSpec')
 */
import './core-types-container.js';
import './core-types-pod.js';
import './core-types-storage.js';
import './core-types-volume.js';
import { coreField, defineCore, stringList } from './core-types-ref.js';
import { list, object, string } from './schema.js';

export { CORE_V1, coreField, coreRef } from './core-types-ref.js';

defineCore(
  'ObjectReference',
  object(
    'A reference to any object, possibly a part of it.',
    {
      apiVersion: string('API version of the referent.'),
      fieldPath: string('A part of the referent, e.g. spec.containers{name}.'),
      kind: string('Kind of the referent.'),
      name: string('Name of the referent.'),
      namespace: string('Namespace of the referent.'),
      resourceVersion: string('A version of the referent, when it matters.'),
      uid: string('UID of the referent.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

defineCore(
  'LocalObjectReference',
  object('A reference to an object in the same namespace.', { name: string('Name of the referent.') }, { 'x-kubernetes-map-type': 'atomic' }),
);

defineCore(
  'EventSource',
  object('The component that reported an event.', {
    component: string('Name of the component.'),
    host: string('Node the component runs on.'),
  }),
);

defineCore(
  'TopologySelectorLabelRequirement',
  object(
    'A label that must have one of the values.',
    { key: string('The label key.'), values: stringList('Allowed values, ORed.') },
    { required: ['key', 'values'] },
  ),
);

defineCore(
  'TopologySelectorTerm',
  object(
    'A topology domain, by labels. An empty term matches nothing.',
    {
      matchLabelExpressions: list(coreField('TopologySelectorLabelRequirement', 'One requirement.'), 'Label requirements, ANDed.', { listType: 'atomic' }),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);
