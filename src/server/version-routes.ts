/** `/version` (and `/version/`, which python's client calls): Kubernetes' version object. */
import type { FastifyPluginAsync } from 'fastify';
import { type BuildInfo, versionInfo } from '../build-info.js';

export interface VersionRoutesOptions {
  buildInfo: BuildInfo;
}

export const versionRoutes: FastifyPluginAsync<VersionRoutesOptions> = async (app, options) => {
  const body = versionInfo(options.buildInfo);
  const handler = async () => body;
  app.get('/version', handler);
  app.get('/version/', handler);
};
