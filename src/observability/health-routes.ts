import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

/** Resolves when the process can do its work (e.g. Redis answers); its rejection's message is the reason. */
export type ReadyCheck = () => Promise<void>;

/**
 * What anyone who reaches the public port may ask: `/healthz` (200 while the
 * process runs) and a bare `/readyz` (200 or 503, for load balancers). The
 * reason and the backend stay on the admin listener: they name hosts and errors.
 */
export function registerPublicHealthRoutes(app: FastifyInstance, ready: ReadyCheck): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await ready();
      return { status: "ready" };
    } catch {
      return reply.code(503).send({ status: "unavailable" });
    }
  });
}

export interface AdminRoutesOptions {
  readonly registry: Registry;
  readonly ready: ReadyCheck;
  /** Named in /readyz answers, e.g. "redis redis://127.0.0.1:6379". */
  readonly description: string;
}

/** The admin listener's routes: `/healthz`, `/readyz` with the backend and the reason, `/metrics`. */
export function registerAdminRoutes(app: FastifyInstance, options: AdminRoutesOptions): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await options.ready();
      return { status: "ready", backend: options.description };
    } catch (error) {
      return reply.code(503).send({
        status: "unavailable",
        backend: options.description,
        reason: String((error as Error).message),
      });
    }
  });
  app.get("/metrics", async (_request, reply) => {
    const body = await options.registry.metrics();
    return reply.header("content-type", options.registry.contentType).send(body);
  });
}
