import { describe, expect, it } from 'vitest';
import { refusedSubject } from './certificate-signing-admission.js';

describe('refusedSubject', () => {
  it.each([
    ['t1', ['alice'], ['dev'], undefined],
    ['t1', ['alice'], ['system:masters'], 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'],
    ['system', ['alice'], ['system:masters'], 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'],
    ['t1', ['alice'], ['tenant:t2'], 'use of kubernetes.io/kube-apiserver-client signer with organization "tenant:t2" is not allowed: the signer sets the space'],
    ['t1', ['system:kube-scheduler'], [], 'use of kubernetes.io/kube-apiserver-client signer for user "system:kube-scheduler" is not allowed in a tenant\'s space'],
    ['t1', ['alice'], ['system:nodes'], 'use of kubernetes.io/kube-apiserver-client signer with group "system:nodes" is not allowed in a tenant\'s space'],
    ['system', ['system:kube-scheduler'], ['system:nodes'], undefined],
  ])('in %s, CN %j O %j: %s', (tenant, commonNames, organizations, refusal) => {
    expect(refusedSubject(tenant, commonNames, organizations)).toBe(refusal);
  });
});
