/**
 * autoscaling/v1 Scale: the body of every `scale` subresource (deployments, replica sets,
 * stateful sets, replication controllers). It is served, never stored.
 */
import { define, described, integer, object, ref, string } from './schema.js';

const scaleSpec = define(
  'io.k8s.api.autoscaling.v1.ScaleSpec',
  object('The desired size of the scaled object.', {
    replicas: integer('Desired number of replicas.'),
  }),
);

const scaleStatus = define(
  'io.k8s.api.autoscaling.v1.ScaleStatus',
  object(
    'The observed size of the scaled object.',
    {
      replicas: integer('Observed number of replicas.'),
      selector: string('Label query over the pods counted as replicas, in string form (`app=web`).'),
    },
    { required: ['replicas'] },
  ),
);

export const scaleSchema = define(
  'io.k8s.api.autoscaling.v1.Scale',
  object(
    'The replica count of a scalable object.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Metadata of the scaled object.'),
      spec: described(scaleSpec, 'The desired size.'),
      status: described(scaleStatus, 'The current size; read-only.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }] },
  ),
);
