import { describe, expect, it } from 'vitest';
import { deployments } from '../../kinds/apps/deployment.js';
import { pods } from '../../kinds/core/pod.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { kindsOfRules, typeCheck } from './type-checking.js';

const lookup = (group: string, version: string, resource: string): ResourceDefinition | undefined =>
  [deployments, pods].find((d) => d.group === group && d.version === version && d.resource === resource) as ResourceDefinition | undefined;

describe('type checking of policy expressions', () => {
  it('finds the kinds rules name exactly, leaving wildcards and subresources out', () => {
    const kinds = kindsOfRules([{ apiGroups: ['apps', '*'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale', '*'], operations: ['CREATE'] }, { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], lookup);
    expect(kinds.map((d) => d.kind)).toEqual(['Deployment', 'Pod']);
  });

  it('warns of fields the matched kinds do not have, naming each kind when several', () => {
    const policy = { metadata: { name: 'p' }, spec: {} };
    const exprs = [
      { fieldRef: 'spec.validations[0].expression', source: 'object.spec.replicas <= 5' },
      { fieldRef: 'spec.validations[1].expression', source: 'object.spex.replicas <= 5' },
    ];
    const one = typeCheck(policy, exprs, [deployments as ResourceDefinition]);
    expect(one).toEqual([{ fieldRef: 'spec.validations[1].expression', warning: expect.stringContaining("undefined field 'spex'") }]);
    expect(one[0]!.warning).not.toContain('Kind=');
    const two = typeCheck(policy, exprs.slice(0, 1), [deployments as ResourceDefinition, pods as ResourceDefinition]);
    expect(two).toEqual([{ fieldRef: 'spec.validations[0].expression', warning: expect.stringMatching(/^\/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'replicas'/) }]);
  });
});
