import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { type AppConfig, secretValuesOf } from "../config/index.js";
import { buildIngressApp } from "../ingress/index.js";
import { createIngressMetrics, createLogger, type Logger, type Tracing } from "../observability/index.js";
import type { QueueStatus } from "../queue/index.js";
import { describeAdmin, startAdminListener } from "./admin-listener.js";
import { createRedisBackend } from "./backends/redis.js";
import { openTracing } from "./open-tracing.js";
import { createCloseStack, listeningUrl } from "./process-lifecycle.js";
import {
  refuseEviction,
  requireRedisServer,
  warnIfFailoverLosesWrites,
  warnIfVolatile,
} from "./redis/index.js";

export interface RunningIngress {
  readonly url: string;
  readonly app: FastifyInstance;
  /** The admin listener's URL: /metrics and the detailed /readyz. */
  readonly adminUrl: string;
  readonly adminApp: FastifyInstance;
  /** The registry behind the admin /metrics, so a worker in the same process can add its metrics to it. */
  readonly registry: Registry;
  /** Orderly shutdown: stop accepting, finish in-flight requests, close the queues, then Redis. */
  close(): Promise<void>;
}

export interface StartIngressOptions {
  readonly logger?: Logger;
  /** The process's tracing, owned by the caller; default: made from config.tracing (off unless configured). */
  readonly tracing?: Tracing;
}

/**
 * Composition root of the ingress process on Redis: the webhook app on the
 * Redis backend's inbound queue, listening, with a handle whose close()
 * shuts down in reverse order.
 */
export async function startIngress(
  config: AppConfig,
  options: StartIngressOptions = {},
): Promise<RunningIngress> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const backend = createRedisBackend(config, { logger, role: "ingress" });
  warnIfVolatile(backend.redis, logger);
  void warnIfFailoverLosesWrites(backend.redis, requireRedisServer(config, "ingress"), logger);
  const opened = createCloseStack(logger);
  const tracing = openTracing(config, options.tracing, "ingress", logger, opened);
  opened.push(() => backend.close());
  try {
    const metrics = createIngressMetrics({ sampleQueueDepth: () => backend.ingress.status.depth() });
    const app = await buildIngressApp({
      tenants: config.tenants,
      queue: backend.ingress.inbound,
      status: backend.ingress.status,
      metrics,
      logger,
      bodyLimitBytes: config.server.bodyLimitBytes,
      limits: config.server,
      tracing,
    });
    opened.push(() => app.close());
    // Listening before Redis answers would turn the first webhooks away (503) until Meta's backoff.
    await untilReady(backend.ingress.status, logger);
    await refuseEviction(backend.redis, config, logger);
    const admin = await startAdminListener(
      config,
      {
        registry: metrics.registry,
        ready: () => backend.ingress.status.ping(1000),
        description: backend.description,
      },
      opened,
    );
    await app.listen({ host: config.server.host, port: config.server.port });
    const url = listeningUrl(config.server.host, app);
    const tenants = config.tenants.map((tenant) => tenant.id);
    logger.info(
      {
        url,
        adminUrl: admin.url,
        backend: backend.description,
        prefix: config.redis.keyPrefix,
        tenants,
        configFile: config.configFile,
      },
      `sharpsharp ingress listening on ${url} (queue: ${backend.description}, prefix "${config.redis.keyPrefix}", ` +
        `tenants: ${tenants.join(", ")}; ${describeAdmin(config, admin)})`,
    );
    return {
      url,
      app,
      adminUrl: admin.url,
      adminApp: admin.app,
      registry: metrics.registry,
      close: () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Waits for the queue backend, saying every 5 s what it waits for. */
async function untilReady(status: QueueStatus, logger: Logger): Promise<void> {
  const started = Date.now();
  const timer = setInterval(
    () =>
      logger.warn(
        { backend: status.description, waitedMs: Date.now() - started },
        `waiting for ${status.description} before listening for webhooks`,
      ),
    5000,
  );
  timer.unref();
  try {
    await status.whenReady();
  } finally {
    clearInterval(timer);
  }
}
