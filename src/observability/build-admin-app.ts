import Fastify, { type FastifyInstance } from "fastify";
import { bearerMatches } from "./bearer-token.js";
import { observabilityErrorCatalog } from "./errors.js";
import { type AdminRoutesOptions, registerAdminRoutes } from "./health-routes.js";

/** What ADMIN_TOKEN guards. */
const OPERATIONS_ROUTES: ReadonlySet<string> = new Set(["/metrics", "/readyz", "/healthz"]);

export interface AdminAppOptions extends AdminRoutesOptions {
  /** ADMIN_TOKEN: when set, every request needs `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
}

/**
 * The admin listener's app (ADMIN_HOST:ADMIN_PORT): `/metrics`, the detailed
 * `/readyz` and `/healthz`, apart from the public webhook port, and the
 * console where the composition root mounts it. Built apart
 * from listening, so tests can `inject()`.
 */
export function buildAdminApp(options: AdminAppOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  const { token } = options;
  if (token !== undefined) {
    const { code, httpStatus } = observabilityErrorCatalog.adminUnauthorized;
    app.addHook("onRequest", async (request, reply) => {
      // The console (its API and pages) has operator accounts of its own; the token guards the operations routes.
      if (!OPERATIONS_ROUTES.has(request.url.split("?")[0] ?? "")) return;
      if (bearerMatches(request.headers.authorization, token)) return;
      return reply
        .code(httpStatus)
        .header("www-authenticate", 'Bearer realm="sharpsharp admin"')
        .send({ error: code, message: "send Authorization: Bearer <ADMIN_TOKEN>" });
    });
  }
  registerAdminRoutes(app, options);
  return app;
}
