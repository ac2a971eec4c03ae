/**
 * Test support: the whole server in the test's process (a control plane over SQLite in a temporary
 * directory and the Fastify app), and clients over the in-process transport as any identity, so a
 * test goes through authentication, tenant resolution, authorization and admission without a socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { UserInfo } from '../../api/access.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../authz/authenticate.js';
import { InProcessIdentities } from '../../authz/in-process-identities.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { KubeClient } from '../client/kube-client.js';
import { startControlPlane, type ControlPlane } from '../control-plane.js';
import { buildApp, type KubeApp } from '../server/app.js';
import { InProcessTransport } from '../server/in-process-transport.js';

export interface InProcessServer {
  plane: ControlPlane;
  app: KubeApp;
  /** A client authenticated as `identity`, in that identity's own space by default. */
  clientAs(identity: UserInfo): KubeClient;
  close(): Promise<void>;
}

export const testUser = (name: string, tenant: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, tenant, extra: {} });

/** @param beforeApp sees the control plane before the app is built on it (to spy on it). */
export async function startInProcessServer(beforeApp: (plane: ControlPlane) => void = () => undefined): Promise<InProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), 'in-process-server-'));
  const store: Store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
  const log = pino({ level: 'silent' });
  const plane = await startControlPlane(store, { serviceClusterIpRange: '10.96.0.0/12', log });
  beforeApp(plane);
  const identities = new InProcessIdentities();
  const app = buildApp({ ...plane, store, authenticate: authenticationChain([bearerTokenAuthenticator(identities)]), logger: log, buildInfo: { version: '0', gitCommit: '', gitTreeState: '', buildDate: '' } });
  return {
    plane,
    app,
    clientAs: (identity) => new KubeClient(new InProcessTransport(app, identities.issue(identity))),
    async close() {
      await app.close();
      await plane.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
