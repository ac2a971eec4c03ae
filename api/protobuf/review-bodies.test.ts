/**
 * Review bodies as kubectl 1.32+ writes them, assembled by hand from the field numbers in
 * kubectl-contract.md §5 (SelfSubjectAccessReviewSpec{1 resourceAttributes, 2
 * nonResourceAttributes}, ResourceAttributes{1 namespace … 7 name}, NonResourceAttributes{1 path,
 * 2 verb}, SelfSubjectRulesReviewSpec{1 namespace}; SelfSubjectReview has no spec). The e2e test
 * decodes bytes captured from the real kubectl.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject } from './codec.js';
import { clientObjectMeta, envelope, field, message, varintField } from './samples/wire.js';

const AUTHZ = 'authorization.k8s.io/v1';
/** SubjectAccessReviewStatus as client-go writes an empty one: allowed, reason, evaluationError, denied. */
const emptyAccessStatus = message(varintField(1, false), field(2, ''), field(3, ''), varintField(4, false));

function resourceAttributes(namespace: string, verb: string, group: string, resource: string, subresource = '', name = ''): Uint8Array {
  return message(field(1, namespace), field(2, verb), field(3, group), field(4, ''), field(5, resource), field(6, subresource), field(7, name));
}

describe('SelfSubjectAccessReview (kubectl auth can-i)', () => {
  it('decodes a resource check', () => {
    const spec = message(field(1, resourceAttributes('default', 'get', '', 'pods')));
    const body = envelope(AUTHZ, 'SelfSubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, emptyAccessStatus)));
    expect(decodeObject(body)).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: AUTHZ,
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    });
  });

  it('decodes a subresource check on a named object', () => {
    const spec = message(field(1, resourceAttributes('shop', 'update', 'apps', 'deployments', 'scale', 'web')));
    const review = decodeObject(envelope(AUTHZ, 'SelfSubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, emptyAccessStatus))));
    expect((review.spec as { resourceAttributes?: unknown }).resourceAttributes).toEqual({ namespace: 'shop', verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', name: 'web' });
  });

  it('decodes a non-resource check', () => {
    const spec = message(field(2, message(field(1, '/healthz'), field(2, 'get'))));
    const review = decodeObject(envelope(AUTHZ, 'SelfSubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, emptyAccessStatus))));
    expect(review.spec).toEqual({ nonResourceAttributes: { path: '/healthz', verb: 'get' } });
  });
});

describe('SelfSubjectRulesReview (kubectl auth can-i --list)', () => {
  it('decodes the namespace asked about', () => {
    const status = message(varintField(3, false), field(4, ''));
    const body = envelope(AUTHZ, 'SelfSubjectRulesReview', message(field(1, clientObjectMeta('', '')), field(2, message(field(1, 'shop'))), field(3, status)));
    expect(decodeObject(body)).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: AUTHZ,
      metadata: { creationTimestamp: null },
      spec: { namespace: 'shop' },
      status: { incomplete: false },
    });
  });
});

describe('SelfSubjectReview (kubectl auth whoami)', () => {
  it.each(['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1'])('decodes %s', (apiVersion) => {
    const status = message(field(1, message(field(1, ''), field(2, ''))));
    const body = envelope(apiVersion, 'SelfSubjectReview', message(field(1, clientObjectMeta('', '')), field(2, status)));
    expect(decodeObject(body)).toEqual({ kind: 'SelfSubjectReview', apiVersion, metadata: { creationTimestamp: null }, status: { userInfo: {} } });
  });
});
