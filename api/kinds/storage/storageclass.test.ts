import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { storageClasses, type StorageClass } from './storageclass.js';

const sc = (over: Partial<StorageClass> = {}): StorageClass => ({ metadata: { name: 'standard' }, provisioner: 'rancher.io/local-path', ...over });

describe('StorageClass', () => {
  it('defaults reclaim policy and binding mode', async () => {
    const { object, errors } = await create(storageClasses, sc());
    expect(errors).toEqual([]);
    expect(object).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });

  it.each<[string, Partial<StorageClass>, string[]]>([
    ['no provisioner', { provisioner: '' }, ['provisioner: Required value']],
    ['an unknown reclaim policy', { reclaimPolicy: 'Recycle' }, ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']],
    ['an unknown binding mode', { volumeBindingMode: 'Later' }, ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"']],
    [
      'a topology term without values',
      { allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: [] }] }] },
      ['allowedTopologies[0].matchLabelExpressions[0].values: Required value: must specify as least one value'],
    ],
  ])('refuses %s', async (_what, over, want) => {
    expect(messages((await create(storageClasses, sc(over))).errors)).toEqual(want);
  });

  it('lets only expansion and mount options change', async () => {
    const { object } = await create(storageClasses, sc({ parameters: { type: 'ssd' } }));
    expect(update(storageClasses, { ...object, allowVolumeExpansion: true, mountOptions: ['noatime'] }, object)).toEqual([]);
    expect(messages(update(storageClasses, { ...object, parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, object))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });

  it('prints the default class with a marker', async () => {
    const { object } = await create(storageClasses, sc({ metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, volumeBindingMode: 'WaitForFirstConsumer' }));
    expect(headers(storageClasses)).toEqual(['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
    expect(cells(storageClasses, object)).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '10m']);
    expect(storageClasses).toMatchObject({ scope: 'space', shortNames: ['sc'] });
  });
});
