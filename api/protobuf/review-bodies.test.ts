/**
 * Review bodies as kubectl 1.32+ writes them, assembled by hand from the field numbers in
 * kubectl-contract.md §5 (SelfSubjectAccessReviewSpec{1 resourceAttributes, 2
 * nonResourceAttributes}, ResourceAttributes{1 namespace … 7 name}, NonResourceAttributes{1 path,
 * 2 verb}, SelfSubjectRulesReviewSpec{1 namespace}; SelfSubjectReview has no spec). The e2e test
 * decodes bytes captured from the real kubectl. SubjectAccessReview, LocalSubjectAccessReview and
 * TokenReview are written as client-go writes them, from k8s.io/api's generated.proto numbers:
 * SubjectAccessReviewSpec{1 resourceAttributes, 2 nonResourceAttributes, 3 user, 4 groups, 5 extra
 * (map of ExtraValue{1 items}), 6 uid}, TokenReviewSpec{1 token, 2 audiences},
 * TokenReviewStatus{1 authenticated, 2 user, 3 error, 4 audiences}, UserInfo{1 username, 2 uid,
 * 3 groups, 4 extra}.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject } from './codec.js';
import { clientObjectMeta, envelope, field, message, varintField } from './samples/wire.js';

const AUTHN = 'authentication.k8s.io/v1';

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

describe('SubjectAccessReview and LocalSubjectAccessReview (client-go)', () => {
  /** One `extra` entry: key, then ExtraValue{items}. */
  const extraEntry = (key: string, ...items: string[]) => field(5, message(field(1, key), field(2, message(...items.map((item) => field(1, item))))));

  it('decodes a resource question about a user, groups, extra and uid', () => {
    const spec = message(field(1, resourceAttributes('shop', 'get', '', 'pods')), field(3, 'bob'), field(4, 'devs'), field(4, 'system:authenticated'), extraEntry('scopes.example.com', 'read', 'write'), field(6, 'u-bob'));
    const body = envelope(AUTHZ, 'SubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, emptyAccessStatus)));
    expect(decodeObject(body)).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: AUTHZ,
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' }, user: 'bob', groups: ['devs', 'system:authenticated'], extra: { 'scopes.example.com': ['read', 'write'] }, uid: 'u-bob' },
      status: { allowed: false },
    });
  });

  it('decodes a non-resource question about groups alone', () => {
    const spec = message(field(2, message(field(1, '/metrics'), field(2, 'get'))), field(3, ''), field(4, 'auditors'), field(6, ''));
    const review = decodeObject(envelope(AUTHZ, 'SubjectAccessReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, emptyAccessStatus))));
    expect(review.spec).toEqual({ nonResourceAttributes: { path: '/metrics', verb: 'get' }, groups: ['auditors'] });
  });

  it('decodes a local review with its namespace', () => {
    const spec = message(field(1, resourceAttributes('shop', 'create', 'apps', 'deployments')), field(3, 'system:serviceaccount:shop:deployer'), field(6, ''));
    const body = envelope(AUTHZ, 'LocalSubjectAccessReview', message(field(1, clientObjectMeta('', 'shop')), field(2, spec), field(3, emptyAccessStatus)));
    expect(decodeObject(body)).toEqual({
      kind: 'LocalSubjectAccessReview',
      apiVersion: AUTHZ,
      metadata: { namespace: 'shop', creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'shop', verb: 'create', group: 'apps', resource: 'deployments' }, user: 'system:serviceaccount:shop:deployer' },
      status: { allowed: false },
    });
  });
});

describe('TokenReview (client-go)', () => {
  it('decodes a token and its audiences, with the empty status client-go sends', () => {
    const spec = message(field(1, 'eyJ.e30.sig'), field(2, 'https://kube-spaces.local'), field(2, 'vault'));
    const status = message(varintField(1, false), field(2, message(field(1, ''), field(2, ''))), field(3, ''));
    const body = envelope(AUTHN, 'TokenReview', message(field(1, clientObjectMeta('', '')), field(2, spec), field(3, status)));
    expect(decodeObject(body)).toEqual({
      kind: 'TokenReview',
      apiVersion: AUTHN,
      metadata: { creationTimestamp: null },
      spec: { token: 'eyJ.e30.sig', audiences: ['https://kube-spaces.local', 'vault'] },
      status: { user: {} },
    });
  });

  it('decodes an answer: authenticated, user with extra, audiences after error', () => {
    const user = message(field(1, 'system:serviceaccount:shop:builder'), field(2, '7a7b'), field(3, 'system:serviceaccounts'), field(4, message(field(1, 'kube-spaces.io/tenant'), field(2, message(field(1, 't1'))))));
    const status = message(varintField(1, true), field(2, user), field(3, ''), field(4, 'https://kube-spaces.local'));
    const review = decodeObject(envelope(AUTHN, 'TokenReview', message(field(1, clientObjectMeta('', '')), field(2, message(field(1, 't'))), field(3, status))));
    expect(review.status).toEqual({
      authenticated: true,
      user: { username: 'system:serviceaccount:shop:builder', uid: '7a7b', groups: ['system:serviceaccounts'], extra: { 'kube-spaces.io/tenant': ['t1'] } },
      audiences: ['https://kube-spaces.local'],
    });
  });
});
