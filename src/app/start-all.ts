import { type AppConfig, secretValuesOf } from "../config/index.js";
import { createLogger } from "../observability/index.js";
import { openTracing } from "./open-tracing.js";
import { createCloseStack } from "./process-lifecycle.js";
import { type StartEmbeddedOptions, startEmbedded } from "./start-embedded.js";
import { startIngress } from "./start-ingress.js";
import { startWorker } from "./start-worker.js";

/**
 * `sharpsharp start`: the whole gateway in one process. Without REDIS_URL it
 * runs embedded on SQLite (see start-embedded.ts); with it, the ingress and
 * a worker on Redis, where more worker processes may join. The ingress
 * serves /healthz and /readyz, its admin listener /metrics (the worker's
 * too) and the detailed /readyz. Shutdown stops the ingress first
 * (no new messages), then lets the work in flight finish.
 */
export async function startAll(
  config: AppConfig,
  options: StartEmbeddedOptions = {},
): Promise<{ readonly url: string; readonly adminUrl: string; close(): Promise<void> }> {
  if (config.redis.server === undefined) return startEmbedded(config, options);
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  // One tracer provider for both parts of the process, closed after them.
  const tracingOwner = createCloseStack(logger);
  const tracing = openTracing(config, options.tracing, "ingress+worker", logger, tracingOwner);
  let ingress: Awaited<ReturnType<typeof startIngress>>;
  try {
    ingress = await startIngress(config, { logger, tracing });
  } catch (error) {
    await tracingOwner.close();
    throw error;
  }
  try {
    const worker = await startWorker(config, {
      ...options,
      logger,
      tracing,
      serveHttp: false,
      // The ingress's admin /metrics shows the worker's metrics too.
      registry: ingress.registry,
    });
    return {
      url: ingress.url,
      adminUrl: ingress.adminUrl,
      async close() {
        await ingress.close();
        await worker.close();
        await tracingOwner.close();
      },
    };
  } catch (error) {
    await ingress.close();
    await tracingOwner.close();
    throw error;
  }
}
