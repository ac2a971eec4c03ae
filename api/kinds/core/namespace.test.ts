import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { namespaces } from './namespace.js';
import type { Namespace } from './types.js';

const ns = (name: string, spec?: Namespace['spec']): Namespace => ({ metadata: { name }, ...(spec ? { spec } : {}) });

describe('namespaces', () => {
  it('starts Active, labelled with its name, with the kubernetes finalizer', async () => {
    const { object, errors } = await create(namespaces, ns('team-a'));
    expect(errors).toEqual([]);
    expect(object.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    expect(object.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(object.status).toEqual({ phase: 'Active' });
    expect(namespaces.holdsDeletion!(object)).toBe(true);
  });

  it('turns Terminating when deleted', async () => {
    const { object } = await create(namespaces, ns('team-a'));
    namespaces.markDeleting!(object);
    expect(cells(namespaces, object).slice(0, 2)).toEqual(['team-a', 'Terminating']);
    expect(headers(namespaces)).toEqual(['NAME', 'STATUS', 'AGE']);
  });

  it('refuses names with dots and unqualified finalizers', async () => {
    const { errors } = await create(namespaces, ns('team.a', { finalizers: ['cleanup'] }));
    expect(messages(errors)).toEqual(['spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified']);
    // The name is the store's to check, by the kind's rule.
    expect(namespaces.nameRule).toBe('dns1123-label');
  });
});
