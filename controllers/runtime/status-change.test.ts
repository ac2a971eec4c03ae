import { describe, expect, it } from 'vitest';
import { changedOnlyStatus } from './status-change.js';

describe('changedOnlyStatus', () => {
  const tenant = { metadata: { name: 't1', resourceVersion: '5' }, spec: { hard: { 'count/*': '10' } }, status: { phase: 'Active' } };

  it('is true when only status and resourceVersion changed', () => {
    expect(changedOnlyStatus({ ...tenant, metadata: { ...tenant.metadata, resourceVersion: '6' }, status: { phase: 'Active', used: { 'count/*': '1' } } }, tenant)).toBe(true);
  });

  it('is false for an addition, a resync (the same object) or a change outside status', () => {
    expect(changedOnlyStatus(tenant, undefined)).toBe(false);
    expect(changedOnlyStatus(tenant, tenant)).toBe(false);
    expect(changedOnlyStatus({ ...tenant, spec: { hard: { 'count/*': '20' } } }, tenant)).toBe(false);
    expect(changedOnlyStatus({ ...tenant, metadata: { ...tenant.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, tenant)).toBe(false);
  });
});
