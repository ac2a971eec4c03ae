import { it } from 'vitest';
import { startCluster } from './harness/cluster.js';
it('explore', async () => {
  const c = await startCluster('sqlite');
  try {
    const ns = await c.newNamespace('wire');
    const r1 = await c.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { b: '1', a: '2' }, annotations: { note: 'a<b & c>d' } }, data: { z: '1', y: '<x>' } } });
    console.log(r1.status, JSON.stringify(r1.body));
    const r2 = await c.api.request('GET', `/api/v1/namespaces/${ns}/configmaps`);
    console.log(r2.status, JSON.stringify(r2.body));
    const r3 = await c.api.request('GET', `/api/v1/namespaces/${ns}/configmaps/nope`);
    console.log(r3.status, JSON.stringify(r3.body));
    const r4 = await c.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } });
    console.log(r4.status, JSON.stringify(r4.body));
    const r5 = await c.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } } });
    console.log(r5.status, JSON.stringify(r5.body));
    const r6 = await c.api.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/nope`, { headers: { 'user-agent': 'curl/8.5.0' } });
    console.log(r6.status, JSON.stringify(r6.body));
    const rv = (r2.json().metadata as any).resourceVersion;
    const r7 = await c.api.request('GET', `/api/v1/namespaces/${ns}/configmaps?watch=true&resourceVersion=0&timeoutSeconds=1`);
    console.log(r7.status, JSON.stringify(r7.body));
    const r8 = await c.api.request('POST', `/api/v1/namespaces/${ns}/pods`, { json: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: 0.5 } } }] } } });
    console.log(r8.status, JSON.stringify(r8.body));
  } finally { await c.cleanup(); }
}, 60000);
