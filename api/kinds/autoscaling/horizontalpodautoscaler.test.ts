import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { formatMetrics, horizontalPodAutoscalers, type HorizontalPodAutoscaler, type MetricSpec } from './horizontalpodautoscaler.js';

type Spec = NonNullable<HorizontalPodAutoscaler['spec']>;

const hpa = (spec: Spec = {}): HorizontalPodAutoscaler => ({
  metadata: { name: 'web' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10, ...spec },
});

const cpu = (averageUtilization: number): MetricSpec => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } });

describe('HorizontalPodAutoscaler', () => {
  it('defaults one replica minimum and an 80% CPU target', async () => {
    const { object, errors } = await create(horizontalPodAutoscalers, hpa());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({ minReplicas: 1, metrics: [cpu(80)] });
    expect(object.spec?.behavior).toBeUndefined();
    expect(object.status).toEqual({ desiredReplicas: 0 });
  });

  it('fills an explicit behavior with the default scaling rules', async () => {
    const { object } = await create(horizontalPodAutoscalers, hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    expect(object.spec?.behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });

  it.each<[string, Spec, string[]]>([
    ['a zero minimum', { minReplicas: 0 }, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']],
    ['a maximum below the minimum', { minReplicas: 5, maxReplicas: 2 }, ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
    ['a target without a name', { scaleTargetRef: { kind: 'Deployment' } }, ['spec.scaleTargetRef.name: Required value']],
    ['an unknown metric type', { metrics: [{ type: 'Magic' }] }, ['spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"']],
    ['a metric without its source', { metrics: [{ type: 'Pods' }] }, ['spec.metrics[0].pods: Required value: must populate information for the given metric source']],
    [
      'a metric with two sources',
      { metrics: [{ ...cpu(50), pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] },
      ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
    ],
    ['a zero utilization', { metrics: [cpu(0)] }, ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']],
    [
      'a resource target with neither utilization nor value',
      { metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue' } } }] },
      ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization'],
    ],
    [
      'a negative average value',
      { metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '-1' } } }] },
      ['spec.metrics[0].pods.target.averageValue: Invalid value: "-1": must be positive'],
    ],
    [
      'a scaling rule without policies and too long a window',
      { behavior: { scaleUp: { stabilizationWindowSeconds: 4000, policies: [] } } },
      ['spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600', 'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy'],
    ],
    [
      'a policy with a bad period',
      { behavior: { scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 3600 }] } } },
      ['spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800'],
    ],
  ])('refuses %s', async (_what, spec, want) => {
    const { errors } = await create(horizontalPodAutoscalers, hpa(spec));
    expect(messages(errors)).toEqual(want);
  });

  it('prints targets as current/target, two at most', async () => {
    const { object } = await create(horizontalPodAutoscalers, hpa({ metrics: [cpu(50)] }));
    expect(formatMetrics(object)).toBe('cpu: <unknown>/50%');
    object.status = { currentReplicas: 3, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { current: { averageUtilization: 42 } } }] };
    expect(formatMetrics(object)).toBe('cpu: 42%/50%');
    object.spec!.metrics = [
      cpu(50),
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
    ];
    expect(formatMetrics(object)).toBe('cpu: 42%/50%, <unknown>/100 + 1 more...');
  });

  it('prints REFERENCE TARGETS MINPODS MAXPODS REPLICAS', async () => {
    const { object } = await create(horizontalPodAutoscalers, hpa({ minReplicas: 2 }));
    object.status = { currentReplicas: 4, desiredReplicas: 4 };
    expect(headers(horizontalPodAutoscalers)).toEqual(['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(cells(horizontalPodAutoscalers, object)).toEqual(['web', 'Deployment/web', 'cpu: <unknown>/80%', '2', 10, 4, '10m']);
    expect(horizontalPodAutoscalers).toMatchObject({ shortNames: ['hpa'], categories: ['all'], version: 'v2', status: true });
  });
});
