import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import { terminatedPodsToDelete } from './pod-gc-controller.js';

const pod = (name: string, phase: string, created: string): Pod => ({ metadata: { name, creationTimestamp: created }, status: { phase } });

describe('terminatedPodsToDelete', () => {
  const pods = [
    pod('new-done', 'Succeeded', '2026-01-03T00:00:00Z'),
    pod('running', 'Running', '2026-01-01T00:00:00Z'),
    pod('old-failed', 'Failed', '2026-01-01T00:00:00Z'),
    pod('mid-done', 'Succeeded', '2026-01-02T00:00:00Z'),
  ];
  it.each([
    [3, []],
    [2, ['old-failed']],
    [1, ['old-failed', 'mid-done']],
    [0, []],
  ])('threshold %d deletes %j, oldest first, never running pods', (threshold, expected) => {
    expect(terminatedPodsToDelete(pods, threshold).map((p) => p.metadata.name)).toEqual(expected);
  });
});
