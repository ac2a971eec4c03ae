import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { tenants, type Tenant } from '../kinds/core/tenant.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { ApiError } from '../status.js';
import { storageClusterAdmission } from './storage-cluster.js';

const tenantDef = builtinKinds.find((d) => d.group === '' && d.resource === 'tenants') as ResourceDefinition;
const tenant = (name: string, storageClusterId?: string): Tenant => ({ apiVersion: 'v1', kind: 'Tenant', metadata: { name }, spec: storageClusterId === undefined ? {} : { storageClusterId } });

function refusal(plugin: ReturnType<typeof storageClusterAdmission>, obj: Tenant): ApiError | undefined {
  try {
    void plugin.admit({ operation: 'create', def: tenantDef, tenant: '', namespace: undefined, object: obj, old: undefined, user: undefined });
  } catch (err) {
    return err as ApiError;
  }
  return undefined;
}

describe('storage cluster admission', () => {
  const plugin = storageClusterAdmission(['east', 'west']);
  it('admits a tenant naming a configured cluster, or none', () => {
    expect(refusal(plugin, tenant('t1', 'east'))).toBeUndefined();
    expect(refusal(plugin, tenant('t1'))).toBeUndefined();
  });
  it("refuses a cluster not configured with kube's 422 wording", () => {
    const err = refusal(plugin, tenant('t1', 'north'))!;
    expect(err.code).toBe(422);
    expect(err.message).toBe('Tenant "t1" is invalid: spec.storageClusterId: Unsupported value: "north": supported values: "east", "west"');
    expect(refusal(storageClusterAdmission([]), tenant('t1', 'east'))!.message).toBe('Tenant "t1" is invalid: spec.storageClusterId: Invalid value: "east": no storage cluster is configured (--storage-cluster)');
  });
  it('keeps the system space in the default store', () => {
    expect(refusal(plugin, tenant('system', 'east'))!.code).toBe(422);
  });
});

describe('Tenant spec.storageClusterId', () => {
  it('is immutable', () => {
    const errs = tenants.validateUpdate!(tenant('t1', 'west'), tenant('t1', 'east'));
    expect(errs.map((e) => `${e.field}: ${e.message}`)).toEqual(['spec.storageClusterId: Invalid value: "west": field is immutable']);
    expect(tenants.validateUpdate!(tenant('t1', 'east'), tenant('t1', 'east'))).toEqual([]);
  });
});
