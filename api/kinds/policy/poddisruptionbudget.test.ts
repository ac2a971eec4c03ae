import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { podDisruptionBudgets, type PodDisruptionBudget } from './poddisruptionbudget.js';

type Spec = NonNullable<PodDisruptionBudget['spec']>;
const pdb = (spec: Spec): PodDisruptionBudget => ({ metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });

describe('PodDisruptionBudget', () => {
  it('starts with a zero status', async () => {
    const { object, errors } = await create(podDisruptionBudgets, pdb({ minAvailable: 2 }));
    expect(errors).toEqual([]);
    expect(object.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it.each<[string, Spec, string[]]>([
    ['both bounds', { minAvailable: 1, maxUnavailable: 1 }, ['spec: Invalid value: {"selector":{"matchLabels":{"app":"web"}},"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set']],
    ['a negative minimum', { minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['more than 100%', { maxUnavailable: '120%' }, ['spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%']],
    ['an unknown eviction policy', { unhealthyPodEvictionPolicy: 'Never' }, ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"']],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(podDisruptionBudgets, pdb(spec))).errors)).toEqual(want);
  });

  it('prints MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS', async () => {
    const { object } = await create(podDisruptionBudgets, pdb({ maxUnavailable: '25%' }));
    object.status = { disruptionsAllowed: 1, currentHealthy: 4, desiredHealthy: 3, expectedPods: 4 };
    expect(headers(podDisruptionBudgets)).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    expect(cells(podDisruptionBudgets, object)).toEqual(['web', 'N/A', '25%', 1, '10m']);
    expect(podDisruptionBudgets).toMatchObject({ shortNames: ['pdb'], status: true });
  });

  it('needs a resourceVersion on every PUT, as Kubernetes’ budget strategy', () => {
    expect(podDisruptionBudgets.allowUnconditionalUpdate).toBe(false);
  });
});
