import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { builtinKinds } from '../kinds/index.js';
import { ResourceRegistry } from '../registry/registry.js';
import { SYSTEM_TENANT } from '../spaces.js';
import { swaggerDocument, swaggerProtobuf, swaggerSchema, type SwaggerSchema } from './openapi-v2.js';

const registry = new ResourceRegistry(builtinKinds);
const doc = swaggerDocument(registry, 'v1.33.0');

type Json = Record<string, any>;

/** Every schema object in a value, nested ones included. */
function* schemasIn(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const v of value) yield* schemasIn(v);
  else if (value && typeof value === 'object') {
    yield value as Json;
    for (const [key, v] of Object.entries(value)) {
      // A map of schemas by name is no schema itself (JSONSchemaProps has properties named anyOf, $ref …).
      if ((key === 'properties' || key === 'definitions') && v && typeof v === 'object') for (const s of Object.values(v)) yield* schemasIn(s);
      else yield* schemasIn(v);
    }
  }
}

describe('the Swagger 2.0 document', () => {
  it('defines every kind the view serves, tagged with its group/version/kind', () => {
    for (const def of registry.all()) {
      const name = def.schema.$ref!.split('/').pop()!;
      expect(doc.definitions[name]?.['x-kubernetes-group-version-kind'], name).toEqual([{ group: def.group, version: def.version, kind: def.kind }]);
    }
    expect(doc.definitions).toHaveProperty(['io.k8s.api.autoscaling.v1.Scale']);
  });

  it('is in v2 form: references into #/definitions that all resolve, no anyOf, no lone allOf', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('#/components/schemas/');
    const wrong: string[] = [];
    for (const s of schemasIn(doc)) {
      if ('anyOf' in s || 'nullable' in s || s.allOf?.length === 1) wrong.push(JSON.stringify(s));
      if (typeof s.$ref === 'string' && !(s.$ref.replace('#/definitions/', '') in doc.definitions)) wrong.push(s.$ref);
    }
    expect(wrong).toEqual([]);
  });

  it('writes a described reference as $ref with its description beside it', () => {
    const deployment = doc.definitions['io.k8s.api.apps.v1.Deployment']!;
    expect((deployment.properties as Json).spec).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec', description: expect.any(String) });
  });

  it('writes int-or-string values as Kubernetes does in v2', () => {
    const port = (doc.definitions['io.k8s.api.core.v1.ServicePort']!.properties as Json).targetPort;
    expect(port).toMatchObject({ type: 'string', format: 'int-or-string' });
    expect(port).not.toHaveProperty('x-kubernetes-int-or-string');
    expect(swaggerSchema({ description: 'd', 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({ type: 'string', format: 'int-or-string', description: 'd' });
  });

  it('keeps the strategic merge patch keys kubectl 1.27 patches with', () => {
    const containers = (doc.definitions['io.k8s.api.core.v1.PodSpec']!.properties as Json).containers as SwaggerSchema;
    expect(containers).toMatchObject({ type: 'array', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', items: { $ref: '#/definitions/io.k8s.api.core.v1.Container' } });
  });

  it('has the operations of each kind with Kubernetes ids, actions, GVKs, and body and patch content types', () => {
    const item = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']!;
    expect(item.parameters).toEqual([
      { description: 'name of the ConfigMap', in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true },
      { description: expect.any(String), in: 'path', name: 'namespace', required: true, type: 'string', uniqueItems: true },
    ]);
    expect(item.get).toMatchObject({ operationId: 'readCoreV1NamespacedConfigMap', 'x-kubernetes-action': 'get', responses: { '200': { schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } } } });
    const patch = item.patch as Json;
    expect(patch).toMatchObject({
      operationId: 'patchCoreV1NamespacedConfigMap',
      consumes: ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'],
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'ConfigMap' },
    });
    expect(patch.parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { type: 'object' } });
    expect(patch.parameters.map((p: Json) => p.name)).toContain('fieldValidation');
    const create = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments']!.post as Json;
    expect(create).toMatchObject({ operationId: 'createAppsV1NamespacedDeployment', consumes: ['*/*'] });
    expect(create.parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } });
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']!.put).toMatchObject({
      operationId: 'replaceAppsV1NamespacedDeploymentScale',
      'x-kubernetes-group-version-kind': { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    });
    expect(doc.paths['/apis/rbac.authorization.k8s.io/v1/clusterroles']!.delete).toMatchObject({ operationId: 'deleteRbacAuthorizationV1CollectionClusterRole' });
  });

  it('gives every operation its own id', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => ((op as Json).operationId ? [(op as Json).operationId] : [])));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows a space only what it serves: no Tenants outside the system space', () => {
    expect(JSON.stringify(swaggerDocument(registry.view('t1'), 'v1.33.0'))).not.toContain('io.k8s.api.core.v1.Tenant');
    expect(swaggerDocument(registry.view(SYSTEM_TENANT), 'v1.33.0').definitions).toHaveProperty(['io.k8s.api.core.v1.Tenant']);
  });
});

describe('the protobuf form', () => {
  const bytes = swaggerProtobuf(doc);
  const type = protobuf.loadSync(new URL('../protobuf/proto/gnostic/openapi-v2.proto', import.meta.url).pathname).lookupType('gnostic.openapi.v2.Document');
  const decoded = type.toObject(type.decode(bytes)) as Json;

  it('starts as gnostic Document{swagger: "2.0"} does: field 1, "2.0"', () => {
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 0x03, 0x32, 0x2e, 0x30]);
  });

  it('carries every definition, with extensions as YAML text', () => {
    const entries = decoded.definitions.entry as Json[];
    expect(entries.map((e) => e.name)).toEqual(Object.keys(doc.definitions));
    const configMap = entries.find((e) => e.name === 'io.k8s.api.core.v1.ConfigMap')!.value;
    expect(configMap.type.value).toEqual(['object']);
    const gvk = (configMap.vendorExtension as Json[]).find((x) => x.name === 'x-kubernetes-group-version-kind')!;
    expect(parseYaml(gvk.value.yaml)).toEqual([{ group: '', version: 'v1', kind: 'ConfigMap' }]);
    expect(configMap.properties.entry.find((p: Json) => p.name === 'metadata').value.ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  });

  it('carries the patch operations kubectl checks for fieldValidation', () => {
    const path = (decoded.paths.path as Json[]).find((p) => p.name === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}')!.value;
    const names = (path.patch.parameters as Json[]).map((p) => p.parameter.nonBody?.query?.name ?? p.parameter.body?.name);
    expect(names).toEqual(['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    const gvk = (path.patch.vendorExtension as Json[]).find((x) => x.name === 'x-kubernetes-group-version-kind')!;
    expect(parseYaml(gvk.value.yaml)).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(path.parameters[0].parameter.nonBody.path).toMatchObject({ name: 'name', in: 'path', required: true, type: 'string' });
  });
});
