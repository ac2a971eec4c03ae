import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { ResourceRegistry } from '../registry/registry.js';
import { groupVersionDocument } from './openapi-v3.js';

const registry = new ResourceRegistry(builtinKinds);

type Json = Record<string, any>;

describe('a group version document', () => {
  const doc = groupVersionDocument(registry, 'apps', 'v1', 'v1.33.0')!;

  it('has the patch operation kubectl looks for to use server-side field validation', () => {
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch as Json;
    expect(patch).toMatchObject({ operationId: 'patchAppsV1NamespacedDeployment', 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': { group: 'apps', version: 'v1', kind: 'Deployment' } });
    expect(patch.parameters).toContainEqual({ name: 'fieldValidation', in: 'query', description: expect.any(String), schema: { type: 'string', uniqueItems: true } });
    expect(Object.keys(patch.requestBody.content)).toContain('application/strategic-merge-patch+json');
  });

  it('holds the schemas its operations use, Scale for the scale subresources included', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['io.k8s.api.apps.v1.Deployment', 'io.k8s.api.core.v1.PodSpec', 'io.k8s.api.autoscaling.v1.Scale']));
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']!.get).toMatchObject({ responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale' } } } } } });
  });

  it('is undefined for a group version nobody serves', () => {
    expect(groupVersionDocument(registry, 'apps', 'v9', 'v1.33.0')).toBeUndefined();
  });
});
