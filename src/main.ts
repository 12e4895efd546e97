import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import type { AppConfig } from "./config/index.js";
import { buildIngressApp } from "./ingress/index.js";
import { createIngressMetrics, createLogger, type Logger } from "./observability/index.js";
import { listeningUrl } from "./process-lifecycle.js";
import { closeRedis, connectRedis, queuesFor, requireRedisUrl, warnIfVolatile } from "./redis-runtime.js";

export { mainErrorCatalog, StartupError } from "./redis-runtime.js";

import { type StartEmbeddedOptions, startEmbedded } from "./start-embedded.js";
import { startWorker } from "./start-worker.js";

export { type RunningEmbedded, type StartEmbeddedOptions, startEmbedded } from "./start-embedded.js";

export { type RunningWorker, type StartWorkerOptions, startWorker } from "./start-worker.js";

export interface RunningIngress {
  readonly url: string;
  readonly app: FastifyInstance;
  /** The registry behind /metrics, so a worker in the same process can add its metrics to it. */
  readonly registry: Registry;
  /** Orderly shutdown: stop accepting, finish in-flight requests, close the queues, then Redis. */
  close(): Promise<void>;
}

export interface StartIngressOptions {
  readonly logger?: Logger;
  /**
   * Run the turn scheduler (due conversations → BullMQ turn jobs) in this
   * process; default: config.ingress.runTurnScheduler. Any number of processes may run it.
   */
  readonly runTurnScheduler?: boolean;
}

export interface RunningScheduler {
  close(): Promise<void>;
}

/**
 * Composition root of the ingress process: picks the adapters the
 * configuration asks for, wires them, listens, and returns a handle whose
 * close() shuts down in reverse order.
 */
export async function startIngress(
  config: AppConfig,
  options: StartIngressOptions = {},
): Promise<RunningIngress> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const { redis, backend } = connectRedis(requireRedisUrl(config, "ingress"), logger);
  warnIfVolatile(redis, logger);

  const queues = queuesFor(config, redis, backend, logger);
  const runTurnScheduler = options.runTurnScheduler ?? config.ingress.runTurnScheduler;
  if (runTurnScheduler) queues.scheduler.start();
  const metrics = createIngressMetrics({ sampleQueueDepth: () => queues.status.depth() });
  const app = await buildIngressApp({
    tenants: config.tenants,
    queue: queues.inbound,
    status: queues.status,
    metrics,
    logger,
    bodyLimitBytes: config.server.bodyLimitBytes,
  });
  await app.listen({ host: config.server.host, port: config.server.port });
  const url = listeningUrl(config, app);
  logger.info(
    {
      url,
      backend: `redis ${backend}`,
      prefix: config.redis.prefix,
      tenants: config.tenants.map((tenant) => tenant.id),
      configFile: config.configFile,
    },
    `sharpsharp ingress listening on ${url} (queue: redis ${backend}, prefix "${config.redis.prefix}", ` +
      `tenants: ${config.tenants.map((tenant) => tenant.id).join(", ")}; turn scheduler ${runTurnScheduler ? "on" : "off"})`,
  );

  return {
    url,
    app,
    registry: metrics.registry,
    async close() {
      await app.close();
      await queues.close();
      await closeRedis(redis);
    },
  };
}

/**
 * Composition root of a standalone turn scheduler: moves due conversations
 * into BullMQ turn jobs, so ingress processes can leave that work (and its
 * latency tail) to other processes. Runs until close().
 */
export async function startScheduler(
  config: AppConfig,
  options: { readonly logger?: Logger } = {},
): Promise<RunningScheduler> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const { redis, backend } = connectRedis(requireRedisUrl(config, "turn scheduler"), logger);
  const queues = queuesFor(config, redis, backend, logger);
  queues.scheduler.start();
  logger.info(
    { backend: `redis ${backend}`, prefix: config.redis.prefix },
    `sharpsharp turn scheduler running (queue: redis ${backend}, prefix "${config.redis.prefix}")`,
  );
  return {
    async close() {
      await queues.close();
      await closeRedis(redis);
    },
  };
}

/**
 * `sharpsharp start`: the whole gateway in one process. Without REDIS_URL it
 * runs embedded on SQLite (see start-embedded.ts); with it, the ingress and
 * a worker on Redis, where more worker processes may join. The ingress
 * serves /healthz, /readyz and /metrics. Shutdown stops the ingress first
 * (no new messages), then lets the work in flight finish.
 */
export async function startAll(
  config: AppConfig,
  options: StartEmbeddedOptions = {},
): Promise<{ readonly url: string; close(): Promise<void> }> {
  if (config.redis.url === undefined) return startEmbedded(config, options);
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const ingress = await startIngress(config, { logger });
  try {
    const worker = await startWorker(config, {
      ...options,
      logger,
      serveHttp: false,
      // The ingress's /metrics shows the worker's metrics too.
      registry: ingress.registry,
      runTurnScheduler: !config.ingress.runTurnScheduler,
    });
    return {
      url: ingress.url,
      async close() {
        await ingress.close();
        await worker.close();
      },
    };
  } catch (error) {
    await ingress.close();
    throw error;
  }
}
