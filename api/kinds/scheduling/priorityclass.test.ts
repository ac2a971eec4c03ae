import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { priorityClasses, type PriorityClass } from './priorityclass.js';

const pc = (over: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name: 'high' }, value: 1000, ...over });

describe('PriorityClass', () => {
  it('defaults preemption', async () => {
    const { object, errors } = await create(priorityClasses, pc());
    expect(errors).toEqual([]);
    expect(object.preemptionPolicy).toBe('PreemptLowerPriority');
  });

  it.each<[string, Partial<PriorityClass>, string[]]>([
    ['a value reserved for the system', { value: 2_000_000_000 }, ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    [
      'a system- name of its own',
      { metadata: { name: 'system-mine' } },
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"],
    ],
    ['an unknown preemption policy', { preemptionPolicy: 'Sometimes' }, ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']],
  ])('refuses %s', async (_what, over, want) => {
    expect(messages((await create(priorityClasses, pc(over))).errors)).toEqual(want);
  });

  it('accepts the system classes as Kubernetes defines them', async () => {
    expect((await create(priorityClasses, pc({ metadata: { name: 'system-node-critical' }, value: 2_000_001_000 }))).errors).toEqual([]);
  });

  it('keeps its value and preemption policy', async () => {
    const { object } = await create(priorityClasses, pc());
    expect(messages(update(priorityClasses, { ...object, value: 5, preemptionPolicy: 'Never' }, object))).toEqual([
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
    expect(update(priorityClasses, { ...object, description: 'for web' }, object)).toEqual([]);
  });

  it('prints VALUE GLOBAL-DEFAULT PREEMPTIONPOLICY', async () => {
    const { object } = await create(priorityClasses, pc({ globalDefault: true }));
    expect(headers(priorityClasses)).toEqual(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    expect(cells(priorityClasses, object)).toEqual(['high', 1000, true, '10m', 'PreemptLowerPriority']);
    expect(priorityClasses).toMatchObject({ scope: 'space', shortNames: ['pc'] });
  });
});
