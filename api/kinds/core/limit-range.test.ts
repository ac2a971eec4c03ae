import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages } from '../apps/testing.js';
import { limitRanges } from './limit-range.js';
import type { LimitRange, LimitRangeItem } from './types.js';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ metadata: { name: 'limits', creationTimestamp: CREATED }, spec: { limits } });

describe('limit ranges', () => {
  it('fills container defaults from max, default and min', async () => {
    const { object, errors } = await create(limitRanges, lr({ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { memory: '64Mi' }, default: { memory: '512Mi' } }));
    expect(errors).toEqual([]);
    expect(object.spec?.limits?.[0]).toEqual({
      type: 'Container',
      max: { cpu: '2', memory: '1Gi' },
      min: { memory: '64Mi' },
      default: { cpu: '2', memory: '512Mi' },
      defaultRequest: { cpu: '2', memory: '512Mi' },
    });
  });

  it('leaves pod limits alone', async () => {
    const { object } = await create(limitRanges, lr({ type: 'Pod', max: { cpu: '4' } }));
    expect(object.spec?.limits?.[0]).toEqual({ type: 'Pod', max: { cpu: '4' } });
  });

  it.each<[string, LimitRange, string[]]>([
    ['min above max', lr({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    ]],
    ['defaults on a Pod item', lr({ type: 'Pod', default: { cpu: '1' } }), ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]],
    ['a claim item without storage bounds', lr({ type: 'PersistentVolumeClaim', max: { cpu: '1' } }), [
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]],
    ['a duplicate type', lr({ type: 'Pod' }, { type: 'Pod' }), ['spec.limits[1].type: Duplicate value: "Pod"']],
    ['an unknown type', lr({ type: 'Widget' }), ['spec.limits[0].type: Invalid value: "Widget": must be a standard limit type or fully qualified']],
    ['a ratio above max/min', lr({ type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
    ]],
  ])('%s', async (_, input, expected) => {
    expect(messages((await create(limitRanges, input)).errors)).toEqual(expected);
  });

  it('shows the generic columns, as Kubernetes has no printer for it', () => {
    expect(headers(limitRanges)).toEqual(['NAME', 'CREATED AT']);
    expect(cells(limitRanges, lr())).toEqual(['limits', CREATED]);
  });
});
