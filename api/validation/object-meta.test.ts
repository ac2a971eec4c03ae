import { describe, expect, it } from 'vitest';
import type { FieldError } from '../registry/field-error.js';
import type { KubeObject, ObjectMeta } from '../registry/object.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';

const messages = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.message}`);
const obj = (metadata: ObjectMeta): KubeObject => ({ metadata });
const SUBDOMAIN_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateObjectMeta', () => {
  it.each<[string, ObjectMeta, string[]]>([
    ['a valid namespaced object', { name: 'web', namespace: 'default', tenant: 't1' }, []],
    ['an upper-case name', { name: 'Foo', namespace: 'default' }, [`metadata.name: Invalid value: "Foo": ${SUBDOMAIN_ERROR}`]],
    ['no name', { namespace: 'default' }, ['metadata.name: Required value: name or generateName is required']],
    ['no namespace', { name: 'web' }, ['metadata.namespace: Required value']],
    ['a bad generateName', { generateName: 'Web-', name: 'Web-x1b2c', namespace: 'default' }, [
      `metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_ERROR}`,
      `metadata.name: Invalid value: "Web-x1b2c": ${SUBDOMAIN_ERROR}`,
    ]],
    ['an unknown short finalizer', { name: 'web', namespace: 'default', finalizers: ['cleanup'] }, [
      'metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]],
    ['orphan and foreground together', { name: 'web', namespace: 'default', finalizers: ['orphan', 'foregroundDeletion'] }, [
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ]],
  ])('%s', (_, metadata, expected) => {
    expect(messages(validateObjectMeta(obj(metadata), 'dns1123-subdomain', 'namespace'))).toEqual(expected);
  });

  it('allows one controller among the owners', () => {
    const ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
    ];
    const [error, ...rest] = messages(validateObjectMeta(obj({ name: 'web', namespace: 'default', ownerReferences }), 'dns1123-subdomain', 'namespace'));
    expect(rest).toEqual([]);
    expect(error).toMatch(/^metadata\.ownerReferences: Invalid value: .*: Only one reference can have Controller set to true\. Found "true" in references for ReplicaSet\/a and ReplicaSet\/b$/);
  });

  it('forbids a namespace on space-scoped kinds', () => {
    expect(messages(validateObjectMeta(obj({ name: 'pv1', namespace: 'default' }), 'dns1123-subdomain', 'space'))).toEqual([
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });

  it('leaves domain-less finalizers alone for kinds outside the core rules (CRDs)', () => {
    const crd = obj({ name: 'crontabs.stable.example.com', tenant: 't1', finalizers: ['customresourcecleanup.apiextensions.k8s.io'] });
    expect(validateObjectMeta(crd, 'dns1123-subdomain', 'space', false)).toEqual([]);
    expect(validateObjectMeta(crd, 'dns1123-subdomain', 'space').map((e) => e.message)).toEqual([
      'Invalid value: "customresourcecleanup.apiextensions.k8s.io": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('applies the kind’s name rule', () => {
    expect(validateObjectMeta(obj({ name: 'a.b' }), 'dns1123-label', 'space').map((e) => e.message)).toEqual(['Invalid value: "a.b": must not contain dots']);
    expect(validateObjectMeta(obj({ name: 'web.17a8', namespace: 'default' }), 'path-segment', 'namespace')).toEqual([]);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old = obj({ name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '5', creationTimestamp: '2024-05-01T10:00:00Z' });

  it('accepts an unchanged identity', () => {
    expect(validateObjectMetaUpdate(obj({ ...old.metadata, labels: { a: 'b' } }), old)).toEqual([]);
  });

  it('refuses new finalizers on an object being deleted', () => {
    const deleting = obj({ ...old.metadata, deletionTimestamp: '2024-05-01T11:00:00Z' });
    const next = obj({ ...deleting.metadata, finalizers: ['example.com/b', 'example.com/a'] });
    expect(messages(validateObjectMetaUpdate(next, deleting))).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/a", "example.com/b"}',
    ]);
  });
});
