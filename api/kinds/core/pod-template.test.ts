import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { podTemplates } from './pod-template.js';
import type { PodTemplate } from './types.js';

describe('pod templates', () => {
  it('defaults and validates the template', async () => {
    const input: PodTemplate = { metadata: { name: 'web' }, template: { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }, { name: 'log', image: 'busybox' }] } } };
    const { object, errors } = await create(podTemplates, input);
    expect(errors).toEqual([]);
    expect(object.template?.spec?.restartPolicy).toBe('Always');
    expect(headers(podTemplates)).toEqual(['NAME', 'CONTAINERS', 'IMAGES', 'POD LABELS']);
    expect(cells(podTemplates, object)).toEqual(['web', 'web,log', 'nginx:1.25,busybox', 'app=web,tier=fe']);
  });

  it('requires containers', async () => {
    expect(messages((await create(podTemplates, { metadata: { name: 'web' } } satisfies PodTemplate)).errors)).toEqual(['template.spec.containers: Required value']);
  });
});
