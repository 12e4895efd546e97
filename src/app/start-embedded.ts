import type { FastifyInstance } from "fastify";
import { type AppConfig, secretValuesOf } from "../config/index.js";
import { createInProcessEventBus } from "../console/embedded/index.js";
import { createOperatorAccount, type NewOperator } from "../console/index.js";
import type { Responder } from "../conversation/index.js";
import { buildIngressApp } from "../ingress/index.js";
import { createIngressMetrics, createLogger } from "../observability/index.js";
import { describeAdmin, startAdminListener } from "./admin-listener.js";
import { createEmbeddedBackend } from "./backends/embedded.js";
import { mountConsole } from "./console-server.js";
import { openTracing } from "./open-tracing.js";
import { type PipelineRunOptions, startPipeline } from "./pipeline.js";
import { createCloseStack, listeningUrl } from "./process-lifecycle.js";

/** Turn and send jobs in flight in embedded mode unless the caller says otherwise (pipeline.ts's are 16 each). */
export const EMBEDDED_TURN_CONCURRENCY = 64;
export const EMBEDDED_OUTBOUND_CONCURRENCY = 64;

export interface StartEmbeddedOptions extends PipelineRunOptions {
  /** What answers a turn; default: the gateway's (router, then the LLM agent). Tests give their own. */
  readonly responder?: Responder;
  /** How often expired rows are deleted and stranded inboxes get a turn again, ms; default 30,000. */
  readonly housekeepingMs?: number;
  /** A console operator made at start unless their e-mail exists (the demo's admin). */
  readonly ensureOperator?: NewOperator;
}

export interface RunningEmbedded {
  readonly url: string;
  readonly app: FastifyInstance;
  /** The admin listener's URL: /metrics and the detailed /readyz. */
  readonly adminUrl: string;
  readonly adminApp: FastifyInstance;
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
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: secretValuesOf(config) });
  const backend = createEmbeddedBackend(config, {
    logger,
    ...(options.housekeepingMs === undefined ? {} : { housekeepingMs: options.housekeepingMs }),
  });
  // Undone in reverse order on a failed start and at close.
  const opened = createCloseStack(logger);
  const tracing = openTracing(config, options.tracing, "embedded", logger, opened);
  opened.push(() => backend.close());
  try {
    const ingressMetrics = createIngressMetrics({ sampleQueueDepth: () => backend.ingress.status.depth() });
    const events = createInProcessEventBus();
    opened.push(() => events.close());
    const worker = backend.worker();
    const pipeline = await startPipeline(config, worker, {
      // Turns and sends wait for their writes' commit at the end of a turn of the event loop (see
      // batchWritesPerTick) instead of paying for one each: more of them in flight keep the loop busy.
      turnConcurrency: EMBEDDED_TURN_CONCURRENCY,
      outboundConcurrency: EMBEDDED_OUTBOUND_CONCURRENCY,
      ...options,
      logger,
      tracing,
      registry: ingressMetrics.registry,
      consoleEvents: events,
      abandoned: "running jobs did not finish within the grace period; they run again at the next start",
    });
    opened.push(() => pipeline.close());
    const app = await buildIngressApp({
      tenants: config.tenants,
      queue: backend.ingress.inbound,
      status: backend.ingress.status,
      metrics: ingressMetrics,
      logger,
      bodyLimitBytes: config.server.bodyLimitBytes,
      limits: config.server,
      tracing,
    });
    opened.push(() => app.close());
    let url: string | undefined;
    const log = pipeline.messageLog;
    const seed = options.ensureOperator;
    if (seed !== undefined && log !== undefined) {
      if ((await log.store.operators.operatorByEmail(seed.email.toLowerCase())) === undefined) {
        await createOperatorAccount(log.store.operators, seed, Date.now);
      }
    }
    const admin = await startAdminListener(
      config,
      {
        registry: ingressMetrics.registry,
        ready: () => backend.ingress.status.ping(1000),
        description: backend.ingress.status.description,
      },
      opened,
      log === undefined
        ? undefined
        : (adminApp) =>
            mountConsole(adminApp, config, {
              store: log.store,
              ...pipeline.consolePorts,
              events,
              logger,
              registry: ingressMetrics.registry,
              sampleJobQueues: () => worker.sampleJobQueues(),
              turnJournal: worker.turnJournal,
              ingressUrl: () => url,
              campaigns: pipeline.campaigns,
            }),
    );
    await app.listen({ host: config.server.host, port: config.server.port });
    url = listeningUrl(config.server.host, app);
    const messageLog = pipeline.messageLog?.description ?? "off";
    logger.info(
      {
        url,
        adminUrl: admin.url,
        mode: "embedded",
        database: backend.databasePath,
        messageLog: pipeline.messageLog?.description,
        tenants: config.tenants.map((tenant) => tenant.id),
      },
      `sharpsharp running embedded on ${url} (one process; data in ${backend.databasePath}; ` +
        `message log: ${messageLog}; tenants: ${config.tenants.map((tenant) => tenant.id).join(", ")}; ` +
        `${describeAdmin(config, admin)}${log === undefined ? "" : `; console on ${admin.url}/`})`,
    );
    return {
      url,
      app,
      adminUrl: admin.url,
      adminApp: admin.app,
      databasePath: backend.databasePath,
      close: () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
