/**
 * A second start reuses the data directory: same CAs, same admin token, same kubeconfig, which keeps
 * working, after a graceful stop and after SIGKILL alike.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { startServer, type ServerProcess } from './harness/server.js';

const kubectlPath = kubectlForTests(['dispatcher']);

describe.skipIf(!kubectlPath)('restarting the server on the same data dir', () => {
  let server: ServerProcess;
  let kubectl: Kubectl;
  const files = ['ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'client-ca.crt', 'client-ca.key', 'tokens.csv', 'admin.kubeconfig'];
  const snapshot = async () => Promise.all(files.map((name) => readFile(join(server.dataDir, name), 'utf8')));

  beforeAll(async () => {
    server = await startServer();
    kubectl = await createKubectl({ kubeconfig: server.adminKubeconfig });
  });

  afterAll(async () => {
    await kubectl?.cleanup();
    await server?.cleanup();
  });

  it.each([
    ['a graceful stop', () => server.stop()],
    ['SIGKILL', () => server.kill9()],
  ])('reuses every file after %s', async (_how, stop) => {
    const before = await snapshot();
    const pid = server.pid;
    await stop();
    await server.restart();
    expect(server.pid).not.toBe(pid);
    expect(await snapshot()).toEqual(before);
    const result = await kubectl.run(['get', '--raw', '/readyz']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ok');
  });
});
