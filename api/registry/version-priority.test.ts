import { describe, expect, it } from 'vitest';
import { compareKubeAwareVersions } from './version-priority.js';

describe('compareKubeAwareVersions', () => {
  it.each([
    [['v1alpha1', 'v1', 'v2beta1', 'foo'], ['v1', 'v2beta1', 'v1alpha1', 'foo']],
    [['v1beta1', 'v1beta2', 'v2', 'v1', 'v10'], ['v10', 'v2', 'v1', 'v1beta2', 'v1beta1']],
    [['v3alpha1', 'v1beta1', 'v12alpha2', 'v12alpha10'], ['v1beta1', 'v12alpha10', 'v12alpha2', 'v3alpha1']],
    [['abc', 'v1beta', 'zed', 'v1'], ['v1', 'zed', 'v1beta', 'abc']],
  ])('orders %j as %j', (input, expected) => {
    expect([...input].sort(compareKubeAwareVersions)).toEqual(expected);
  });
});
