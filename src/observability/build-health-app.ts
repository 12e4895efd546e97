import Fastify, { type FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

/** What a worker's small HTTP app reports. */
export interface HealthAppOptions {
  /** Metrics served at /metrics. */
  readonly registry: Registry;
  /** Resolves when the process can do its work (e.g. Redis answers); its rejection is the 503 reason. */
  readonly ready: () => Promise<void>;
  /** Named in /readyz answers, e.g. "redis redis://127.0.0.1:6379". */
  readonly description: string;
}

/**
 * The worker's HTTP app: `/healthz` (200 while the process runs), `/readyz`
 * (200, or 503 with the reason) and `/metrics` (Prometheus). Built apart from
 * listening, so tests can `inject()`.
 */
export function buildHealthApp(options: HealthAppOptions): FastifyInstance {
  const app = Fastify({ logger: false });
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
  return app;
}
