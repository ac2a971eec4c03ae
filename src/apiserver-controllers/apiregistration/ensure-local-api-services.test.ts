import { describe, expect, it } from 'vitest';
import { apiServices } from '../../../api/kinds/apiregistration/apiservice.js';
import { create } from '../../../api/kinds/apps/testing.js';
import { builtinKinds } from '../../../api/kinds/index.js';
import { ResourceRegistry } from '../../../api/registry/registry.js';
import { localAPIServices } from './ensure-local-api-services.js';

describe('localAPIServices', () => {
  it('has a local APIService for each served group version, named as kube-apiserver names them', async () => {
    const local = localAPIServices(new ResourceRegistry(builtinKinds));
    expect(local.map((a) => a.metadata.name)).toEqual(expect.arrayContaining(['v1.', 'v1.apiregistration.k8s.io', 'v1.apps', 'v2.autoscaling', 'v1.policy']));
    for (const a of local) expect((await create(apiServices, a)).errors, a.metadata.name).toEqual([]);
  });
});
