import { collectDefaultMetrics, Registry } from "prom-client";
import { type AppConfig, secretValuesOf } from "../config/index.js";
import { buildHealthApp, createLogger } from "../observability/index.js";
import { describeAdmin, type RunningAdmin, startAdminListener } from "./admin-listener.js";
import { createRedisBackend } from "./backends/redis.js";
import { consoleEventPublisher } from "./console-server.js";
import { openTracing } from "./open-tracing.js";
import { type PipelineRunOptions, startPipeline } from "./pipeline.js";
import { createCloseStack, listeningUrl } from "./process-lifecycle.js";

export interface StartWorkerOptions extends PipelineRunOptions {
  /**
   * Serve /healthz and the bare /readyz on HOST:PORT, and the admin listener on ADMIN_HOST:ADMIN_PORT;
   * default true (off when an ingress in the same process serves them).
   */
  readonly serveHttp?: boolean;
  /** Register the worker's metrics here (an ingress's, in one process) instead of a registry of its own. */
  readonly registry?: Registry;
}

export interface RunningWorker {
  /** Where /healthz and the bare /readyz are served, if they are. */
  readonly url: string | undefined;
  /** Where /metrics and the detailed /readyz are served, if they are. */
  readonly adminUrl: string | undefined;
  /** Orderly shutdown: stop the HTTP app and taking jobs, finish active ones within the grace period, close connections. */
  close(): Promise<void>;
}

/**
 * Composition root of a worker process on Redis: the pipeline (turns, the
 * outbound sender, delivery statuses, the message log) on the Redis
 * backend, a small health app on the public port and
 * the admin listener (metrics, detailed readiness).
 */
export async function startWorker(
  config: AppConfig,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const backend = createRedisBackend(config, { logger, role: "worker" });
  for (const tenant of config.tenants.filter((t) => t.graphToken === undefined)) {
    logger.warn(
      { tenant: tenant.id },
      "tenant has no Graph API token (graphTokenEnv / WHATSAPP_TOKEN): its replies cannot be sent",
    );
  }
  const opened = createCloseStack(logger);
  const tracing = openTracing(config, options.tracing, "worker", logger, opened);
  opened.push(() => backend.close());
  try {
    const registry = options.registry ?? new Registry();
    if (options.registry === undefined) collectDefaultMetrics({ register: registry, prefix: "ss_process_" });
    const pipeline = await startPipeline(config, backend.worker(), {
      ...options,
      logger,
      tracing,
      registry,
      // Live consoles (`sharpsharp console`) hear this worker's changes to the message log over Redis.
      consoleEvents: consoleEventPublisher(backend.redis, config.redis.keyPrefix, logger),
      abandoned:
        "active jobs did not finish within the grace period; BullMQ will hand them to another worker",
    });
    opened.push(() => pipeline.close());
    const ready = () => backend.ingress.status.ping(1000);
    const app = buildHealthApp({ ready });
    opened.push(() => app.close());
    let listening: string | undefined;
    let admin: RunningAdmin | undefined;
    if (options.serveHttp ?? true) {
      admin = await startAdminListener(config, { registry, ready, description: backend.description }, opened);
      await app.listen({ host: config.server.host, port: config.server.port });
      listening = listeningUrl(config.server.host, app);
    }
    const prefix = config.redis.keyPrefix;
    const messageLog = pipeline.messageLog?.description;
    logger.info(
      {
        url: listening,
        adminUrl: admin?.url,
        backend: backend.description,
        prefix,
        messageLog,
        tenants: config.tenants.map((tenant) => tenant.id),
      },
      `sharpsharp worker running (queue: ${backend.description}, prefix "${prefix}", message log: ${messageLog ?? "off"}` +
        `${listening === undefined || admin === undefined ? "" : `, health on ${listening}, ${describeAdmin(config, admin)}`})`,
    );
    return { url: listening, adminUrl: admin?.url, close: () => opened.close() };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
