import { describe, expect, it } from 'vitest';
import { fieldManagerName } from './field-manager-name.js';

describe('the field manager of a write', () => {
  it.each<[string | undefined, string | undefined, string]>([
    ['kubectl-client-side-apply', 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc', 'kubectl-client-side-apply'],
    [undefined, 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['', 'kube-controller-manager/v1.33.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:deployment-controller', 'kube-controller-manager'],
    [undefined, 'python-requests', 'python-requests'],
    [undefined, 'bad\u0000\tname/1.0', 'badname'],
    [undefined, 'x'.repeat(200), 'x'.repeat(128)],
    [undefined, 'é'.repeat(100), 'é'.repeat(64)],
    [undefined, undefined, 'unknown'],
    [undefined, '/1.0', 'unknown'],
  ])('fieldManager=%j, User-Agent %j → %j', (fieldManager, userAgent, expected) => {
    expect(fieldManagerName(fieldManager, userAgent)).toBe(expected);
  });
});
