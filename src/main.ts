import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { AppConfig } from "./config/index.js";
import { type ErrorCatalogEntry, SharpsharpError } from "./errors/index.js";
import { buildIngressApp } from "./ingress/index.js";
import { createIngressMetrics, createLogger, type Logger } from "./observability/index.js";
import {
  checkRedisPersistence,
  createFailFastRedis,
  createRedisQueues,
  describeRedisUrl,
  MINIMUM_REDIS_VERSION,
  type RedisQueues,
  redisTooOld,
} from "./queue/redis/index.js";

export interface RunningIngress {
  readonly url: string;
  readonly app: FastifyInstance;
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

export const mainErrorCatalog = {
  startup: {
    code: "SS_MAIN_STARTUP",
    meaning:
      "The process cannot start in the mode the configuration asks for (for example no REDIS_URL for the ingress).",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** The ingress cannot start in the mode the configuration asks for. */
export class StartupError extends SharpsharpError {
  constructor(message: string) {
    super(mainErrorCatalog.startup.code, message);
  }
}

function warnIfVolatile(redis: Redis, logger: Logger): void {
  const check = async () => {
    const old = await redisTooOld(redis);
    if (old !== undefined) {
      logger.error(
        `Redis ${old} is older than ${MINIMUM_REDIS_VERSION}, which sharpsharp needs: upgrade Redis`,
      );
    }
    const verdict = await checkRedisPersistence(redis);
    if (verdict === "volatile") {
      logger.warn(
        "REDIS KEEPS NOTHING ON DISK (no AOF, no RDB): acknowledged messages waiting in Redis are lost if it restarts. " +
          "In production enable appendonly yes (appendfsync everysec) or RDB snapshots.",
      );
    } else if (verdict === "unknown") {
      logger.info(
        "could not tell whether Redis persists data (CONFIG is disabled); make sure AOF or RDB is on",
      );
    }
  };
  const run = () => {
    check().catch((error: unknown) => logger.debug({ err: error }, "persistence check failed"));
  };
  if (redis.status === "ready") run();
  else redis.once("ready", run);
}

function connectRedis(url: string, logger: Logger): { redis: Redis; backend: string } {
  const backend = describeRedisUrl(url);
  const redis = createFailFastRedis(url);
  let lastRedisError = "";
  redis.on("error", (error: Error) => {
    // ioredis repeats the same error on every reconnect attempt; log each distinct one.
    if (error.message !== lastRedisError) logger.warn({ err: error, backend }, "redis connection error");
    lastRedisError = error.message;
  });
  redis.on("ready", () => {
    lastRedisError = "";
    logger.info({ backend }, "redis connected");
  });
  return { redis, backend };
}

/** QUIT politely, but never let a dead connection hold shutdown for more than a second. */
async function closeRedis(redis: Redis): Promise<void> {
  const quit = redis.quit().catch(() => undefined);
  await Promise.race([quit, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  redis.disconnect();
}

function queuesFor(config: AppConfig, redis: Redis, backend: string, logger: Logger): RedisQueues {
  return createRedisQueues({
    redis,
    prefix: config.redis.prefix,
    dedupeTtlSeconds: config.ingress.dedupeTtlSeconds,
    enqueueTimeoutMs: config.ingress.enqueueTimeoutMs,
    description: `redis ${backend}`,
    onBackgroundError: (error) => logger.warn({ err: error }, "queue error"),
  });
}

function requireRedisUrl(config: AppConfig, role: string): string {
  if (config.redis.url === undefined) {
    throw new StartupError(
      `REDIS_URL is not set. The ${role} works on Redis; set REDIS_URL (for example redis://127.0.0.1:6379). ` +
        "The embedded single-process mode on SQLite is not part of this release yet.",
    );
  }
  return config.redis.url;
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
  // Say the address as configured (0.0.0.0 = every interface), with the port actually bound.
  const { port } = app.server.address() as { port: number };
  const host = config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
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
