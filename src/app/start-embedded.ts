import type { FastifyInstance } from "fastify";
import type { LlmClient } from "../agent/index.js";
import type { AppConfig } from "../config/index.js";
import type { Responder } from "../conversation/index.js";
import { buildIngressApp } from "../ingress/index.js";
import { createIngressMetrics, createLogger, type Logger } from "../observability/index.js";
import type { IntentRouter } from "../router/index.js";
import { createEmbeddedBackend } from "./backends/embedded.js";
import { startPipeline } from "./pipeline.js";
import { closeWithinGrace, createCloseStack, listeningUrl } from "./process-lifecycle.js";

export interface StartEmbeddedOptions {
  readonly logger?: Logger;
  /** Turn jobs in flight; default 16 (64 with an LLM). */
  readonly turnConcurrency?: number;
  /** Send jobs in flight; default 16. */
  readonly outboundConcurrency?: number;
  /** Status events in flight; default 16. */
  readonly eventsConcurrency?: number;
  /** How long shutdown waits for running jobs, ms; default 8,000 (the rest run again at the next start). */
  readonly graceMs?: number;
  /** Graph API call timeout, ms; default 10,000. */
  readonly graphTimeoutMs?: number;
  readonly router?: IntentRouter;
  readonly llm?: LlmClient;
  /** What answers a turn; default: the gateway's (router, then the LLM agent). Tests give their own. */
  readonly responder?: Responder;
  /** How often expired rows are deleted and stranded inboxes get a turn again, ms; default 30,000. */
  readonly housekeepingMs?: number;
}

export interface RunningEmbedded {
  readonly url: string;
  readonly app: FastifyInstance;
  /** Where the SQLite file is. */
  readonly databasePath: string;
  /** Orderly shutdown: stop accepting webhooks, let running jobs finish (within the grace period), close the file. */
  close(): Promise<void>;
}

/**
 * Composition root of embedded mode (no REDIS_URL): the ingress, the turn,
 * outbound and events runners and every store in this one process, on one
 * SQLite file in SHARPSHARP_DATA_DIR. Work that was running when the process
 * died runs again at the next start; a send already recorded as done is not
 * sent again.
 */
export async function startEmbedded(
  config: AppConfig,
  options: StartEmbeddedOptions = {},
): Promise<RunningEmbedded> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const backend = createEmbeddedBackend(config, {
    logger,
    ...(options.housekeepingMs === undefined ? {} : { housekeepingMs: options.housekeepingMs }),
  });
  // Undone in reverse order on a failed start and at close.
  const opened = createCloseStack(logger);
  opened.push(() => backend.close());
  try {
    const ingressMetrics = createIngressMetrics({ sampleQueueDepth: () => backend.ingress.status.depth() });
    const pipeline = await startPipeline(config, backend.worker(), {
      ...options,
      logger,
      registry: ingressMetrics.registry,
    });
    opened.push(() => pipeline.close());
    opened.push(() =>
      closeWithinGrace(
        pipeline.runners,
        options.graceMs ?? 8000,
        logger,
        "running jobs did not finish within the grace period; they run again at the next start",
      ),
    );
    const app = await buildIngressApp({
      tenants: config.tenants,
      queue: backend.ingress.inbound,
      status: backend.ingress.status,
      metrics: ingressMetrics,
      logger,
      bodyLimitBytes: config.server.bodyLimitBytes,
    });
    opened.push(() => app.close());
    await app.listen({ host: config.server.host, port: config.server.port });
    const url = listeningUrl(config, app);
    const messageLog = pipeline.messageLog?.description ?? "off";
    logger.info(
      {
        url,
        mode: "embedded",
        database: backend.databasePath,
        messageLog: pipeline.messageLog?.description,
        tenants: config.tenants.map((tenant) => tenant.id),
      },
      `sharpsharp running embedded on ${url} (one process; data in ${backend.databasePath}; ` +
        `message log: ${messageLog}; tenants: ${config.tenants.map((tenant) => tenant.id).join(", ")})`,
    );
    return { url, app, databasePath: backend.databasePath, close: () => opened.close() };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
