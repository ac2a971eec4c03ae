/**
 * Graceful shutdown on SIGINT/SIGTERM: stop accepting connections, let requests in flight finish
 * (long-lived responses such as watches end themselves from Fastify's `preClose` hook), cut what
 * is still open after a bound, close storage, exit 0. A second signal exits at once.
 */
import type { Logger } from 'pino';
import type { Store } from '../storage/store.js';
import type { KubeApp } from './server/app.js';
import type { ControlPlane } from './control-plane.js';

/** How long requests in flight may take to finish before their connections are closed. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface ShutdownTargets {
  app: KubeApp;
  store: Store;
  /** The in-process controller manager stops first: its requests go through the app. */
  controllers?: { stop(): Promise<void> } | undefined;
  /** Controllers stop after the HTTP server and before storage closes. */
  plane?: Pick<ControlPlane, 'stop'>;
  logger: Logger;
  /** Default 10 s. */
  drainTimeoutMs?: number;
}

export function exitOnSignals(targets: ShutdownTargets): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      targets.logger.warn({ signal }, 'second signal during shutdown; exiting now');
      process.exit(1);
    }
    stopping = true;
    shutDown(targets, signal).then(
      () => process.exit(0),
      (err: unknown) => {
        targets.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

export async function shutDown(targets: ShutdownTargets, signal: NodeJS.Signals): Promise<void> {
  const { app, store, logger, drainTimeoutMs = DRAIN_TIMEOUT_MS } = targets;
  logger.info({ signal }, 'shutting down: refusing new connections, waiting for requests in flight');
  await targets.controllers?.stop();
  const force = setTimeout(() => {
    logger.warn({ timeoutMs: drainTimeoutMs }, 'requests still in flight; closing their connections');
    app.connections.destroy();
  }, drainTimeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
  logger.info('HTTP server closed; stopping controllers and closing storage');
  await targets.plane?.stop();
  await store.close();
  logger.info('shutdown complete');
}
