/**
 * `/version` (and `/version/`, which python's client calls): Kubernetes' version object, always
 * indented and without a trailing newline, as kube-apiserver writes it (`WriteRawJSON`).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type BuildInfo, versionInfo } from './build-info.js';
import { encodeJson, sendText } from './json-body.js';

export interface VersionRoutesOptions {
  buildInfo: BuildInfo;
}

export const versionRoutes: FastifyPluginAsync<VersionRoutesOptions> = async (app, options) => {
  const body = encodeJson(versionInfo(options.buildInfo), { pretty: true });
  const handler = async (_request: FastifyRequest, reply: FastifyReply) => sendText(reply, 'application/json', body);
  app.get('/version', handler);
  app.get('/version/', handler);
};
