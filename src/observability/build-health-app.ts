import Fastify, { type FastifyInstance } from "fastify";
import { type ReadyCheck, registerPublicHealthRoutes } from "./health-routes.js";

/** What a worker's public HTTP app reports. */
export interface HealthAppOptions {
  readonly ready: ReadyCheck;
}

/**
 * A worker's public HTTP app: `/healthz` and the bare `/readyz` (metrics and
 * the detailed readiness are on the admin listener, see build-admin-app.ts).
 * Built apart from listening, so tests can `inject()`.
 */
export function buildHealthApp(options: HealthAppOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  registerPublicHealthRoutes(app, options.ready);
  return app;
}
