import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config/index.js";
import { type AdminRoutesOptions, buildAdminApp } from "../observability/index.js";
import { type CloseStack, listeningUrl } from "./process-lifecycle.js";

export interface RunningAdmin {
  readonly app: FastifyInstance;
  /** `http://ADMIN_HOST:<port>`, where /metrics and the detailed /readyz are. */
  readonly url: string;
}

/**
 * The admin listener on ADMIN_HOST:ADMIN_PORT, closed by `opened`. Started
 * before the public port, so a taken admin port fails the start before any
 * webhook is accepted.
 */
export async function startAdminListener(
  config: AppConfig,
  routes: AdminRoutesOptions,
  opened: CloseStack,
  /** Registers more on the app before it listens (the console). */
  extend?: (app: FastifyInstance) => Promise<void>,
): Promise<RunningAdmin> {
  const app = buildAdminApp({ ...routes, token: config.admin.token });
  opened.push(() => app.close());
  if (extend !== undefined) await extend(app);
  await app.listen({ host: config.admin.host, port: config.admin.port });
  return { app, url: listeningUrl(config.admin.host, app) };
}

/** How the startup line names the admin listener; says whether a token guards it, never the token. */
export function describeAdmin(config: AppConfig, admin: RunningAdmin): string {
  return `metrics on ${admin.url}/metrics${config.admin.token === undefined ? "" : " (bearer token)"}`;
}
