import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages } from '../apps/testing.js';
import { replicationControllers } from './replication-controller.js';
import type { PodTemplateSpec, ReplicationController } from './types.js';

const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } };
const rc = (spec: ReplicationController['spec']): ReplicationController => ({ metadata: { name: 'web', creationTimestamp: CREATED }, spec });

describe('replication controllers', () => {
  it('takes its selector and labels from the template, and one replica', async () => {
    const { object, errors } = await create(replicationControllers, rc({ template }));
    expect(errors).toEqual([]);
    expect(object.metadata.labels).toEqual({ app: 'web' });
    expect(object.spec).toMatchObject({ replicas: 1, selector: { app: 'web' } });
    expect(object.status).toEqual({ replicas: 0 });
  });

  it.each<[string, ReplicationController['spec'], string[]]>([
    ['no template', { selector: { app: 'web' } }, ['spec.template: Required value']],
    ['a selector the template misses', { selector: { app: 'api' }, template }, ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`']],
    ['negative replicas', { replicas: -1, template }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['a restart policy other than Always', { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } }, [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]],
  ])('%s', async (_, spec, expected) => {
    expect(messages((await create(replicationControllers, rc(spec))).errors)).toEqual(expected);
  });

  it('scales through spec.replicas', async () => {
    const { object } = await create(replicationControllers, rc({ template }));
    const scale = replicationControllers.scale!;
    scale.setSpecReplicas(object, 3);
    expect([scale.specReplicas(object), scale.statusReplicas(object), scale.selector(object)]).toEqual([3, 0, 'app=web']);
  });

  it('renders kubectl’s columns', async () => {
    expect(headers(replicationControllers, true)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    const { object } = await create(replicationControllers, rc({ replicas: 3, template }));
    object.status = { replicas: 3, readyReplicas: 2 };
    expect(cells(replicationControllers, object)).toEqual(['web', 3, 3, 2, '10m', 'web', 'nginx:1.25', 'app=web']);
  });
});
