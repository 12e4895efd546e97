import { Redis } from "ioredis";
import { collectDefaultMetrics, Registry } from "prom-client";
import { createGatewayResponder, type LlmClient } from "./agent/index.js";
import { createRedisAgentStores } from "./agent/redis/index.js";
import type { AppConfig } from "./config/index.js";
import {
  createGraphTypingIndicator,
  createTurnMetrics,
  createTypingIndicatorCounter,
} from "./conversation/index.js";
import { createRedisConversationState, createTurnWorker } from "./conversation/redis/index.js";
import { createDeliveryMetrics } from "./delivery/index.js";
import { createEventsWorker, createRedisDeliveryStatusStore } from "./delivery/redis/index.js";
import { createGraphClients } from "./graph-clients.js";
import { openMessageLog } from "./message-log.js";
import { buildHealthApp, createLogger, createQueueMetrics, type Logger } from "./observability/index.js";
import { createOutboundMetrics, createReengagement, reengagementTemplates } from "./outbound/index.js";
import { createOutboundWorker, createRedisOutboundQueue } from "./outbound/redis/index.js";
import { closeWithinGrace, listeningUrl } from "./process-lifecycle.js";
import { sampleJobQueues } from "./queue/redis/index.js";
import { closeRedis, connectRedis, queuesFor, requireRedisUrl } from "./redis-runtime.js";
import { type IntentRouter, loadIntentRouter } from "./router/index.js";

export interface StartWorkerOptions {
  readonly logger?: Logger;
  /** Serve /healthz, /readyz and /metrics on HOST:PORT; default true (off when an ingress in the same process serves them). */
  readonly serveHttp?: boolean;
  /** Run the turn scheduler here too; default true (any number of processes may). */
  readonly runTurnScheduler?: boolean;
  /** Turn jobs in flight; default 16. */
  readonly turnConcurrency?: number;
  /** Send jobs in flight; default 16. */
  readonly outboundConcurrency?: number;
  /** Status and other webhook events in flight; default 16. */
  readonly eventsConcurrency?: number;
  /** How long shutdown waits for active jobs before abandoning them to BullMQ's stalled-job check, ms; default 8,000. */
  readonly graceMs?: number;
  /** Graph API call timeout, ms; default 10,000. */
  readonly graphTimeoutMs?: number;
  /** The intent classifier (default: the package's model file, loaded at start). */
  readonly router?: IntentRouter;
  /** Replaces the LLM client made from config.llm (tests). */
  readonly llm?: LlmClient;
  /** Register the worker's metrics here (an ingress's, in one process) instead of a registry of its own. */
  readonly registry?: Registry;
}

export interface RunningWorker {
  /** Where /healthz etc. are served, if they are. */
  readonly url: string | undefined;
  /** Orderly shutdown: stop the HTTP app and taking jobs, finish active ones within the grace period, close connections. */
  close(): Promise<void>;
}

/**
 * Composition root of a worker process: the turn worker (first responder),
 * the outbound sender with one Graph API client per tenant token over one
 * keep-alive transport (recording what it sent in the delivery status store,
 * re-engaging on 131047), the events worker (delivery statuses), the turn
 * scheduler, and a small health/metrics app.
 */
export async function startWorker(
  config: AppConfig,
  options: StartWorkerOptions = {},
): Promise<RunningWorker> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const url = requireRedisUrl(config, "worker");
  const templates = reengagementTemplates(config.tenants);
  for (const tenant of config.tenants.filter((t) => t.graphToken === undefined)) {
    logger.warn(
      { tenant: tenant.id },
      "tenant has no Graph API token (graphTokenEnv / WHATSAPP_TOKEN): its replies cannot be sent",
    );
  }
  const { redis, backend } = connectRedis(url, logger);
  // BullMQ workers need a client that waits out reconnects instead of failing commands.
  const bull = new Redis(url, { maxRetriesPerRequest: null });
  bull.on("error", () => {});
  const queues = queuesFor(config, redis, backend, logger);
  if (options.runTurnScheduler ?? true) queues.scheduler.start();
  const prefix = config.redis.prefix;
  const outboundQueue = createRedisOutboundQueue({
    redis: bull,
    prefix,
    onError: (error) => logger.warn({ err: error }, "outbound queue error"),
  });
  const registry = options.registry ?? new Registry();
  if (options.registry === undefined) collectDefaultMetrics({ register: registry, prefix: "ss_process_" });
  const log = await openMessageLog(config, logger, undefined);
  const recorders = log?.recorders;
  const redisState = createRedisConversationState({ redis: bull, prefix });
  const state = recorders?.conversationState(redisState) ?? redisState;
  const responder = createGatewayResponder(config, {
    stores: createRedisAgentStores(bull, prefix, config.worker.lockMs),
    registry,
    logger,
    router: options.router ?? loadIntentRouter(),
    state,
    ...(recorders === undefined ? {} : { onTurnDecision: recorders.onTurnDecision }),
    ...(options.llm === undefined ? {} : { llm: options.llm }),
  });
  const graph = createGraphClients(config, options.graphTimeoutMs ?? 10_000);
  const graphClientFor = graph.clientFor;
  const now = Date.now;
  createQueueMetrics(registry, {
    sample: () => sampleJobQueues([queues.turns, outboundQueue.queue, queues.events]),
    now,
  });
  const outboundMetrics = createOutboundMetrics(registry);
  const redisDelivery = createRedisDeliveryStatusStore({ redis: bull, prefix });
  const deliveryStore = recorders?.deliveryStatuses(redisDelivery) ?? redisDelivery;
  const recordedOutbound = recorders?.outboundQueue(outboundQueue) ?? outboundQueue;
  const reengage = createReengagement({
    queue: recordedOutbound,
    templateFor: (tenantId) => templates.get(tenantId),
    logger,
    metrics: outboundMetrics,
  });
  const turns = createTurnWorker(
    {
      redis: bull,
      prefix,
      inbox: recorders?.inbox(queues.inbox) ?? queues.inbox,
      outbound: recordedOutbound,
      responder,
      tenants: config.tenants,
      logger,
      metrics: createTurnMetrics(registry),
      state,
      typing: createGraphTypingIndicator({
        graphClientFor,
        logger,
        counter: createTypingIndicatorCounter(registry),
      }),
      now,
    },
    {
      // Agent turns mostly wait on the LLM: more of them in flight per worker.
      concurrency: options.turnConcurrency ?? (config.llm === undefined ? 16 : 64),
      lockTtlMs: config.worker.lockMs,
      stalledIntervalMs: config.worker.stalledIntervalMs,
    },
  );
  const outbound = createOutboundWorker(
    {
      redis: bull,
      prefix,
      graphClientFor,
      logger,
      metrics: outboundMetrics,
      now,
      random: Math.random,
      sent: deliveryStore,
      reengage,
    },
    {
      concurrency: options.outboundConcurrency ?? 16,
      lockMs: config.worker.lockMs,
      stalledIntervalMs: config.worker.stalledIntervalMs,
      // One limiter setting per process: the strictest tenant's keeps every number inside Meta's limit.
      throughputMps: Math.min(...config.tenants.map((tenant) => tenant.throughputMps)),
    },
  );
  const events = createEventsWorker(
    {
      redis: bull,
      prefix,
      store: deliveryStore,
      logger,
      metrics: createDeliveryMetrics(registry),
      reengage,
    },
    { concurrency: options.eventsConcurrency ?? 16 },
  );
  const app = buildHealthApp({
    registry,
    ready: () => queues.status.ping(1000),
    description: `redis ${backend}`,
  });
  let listening: string | undefined;
  if (options.serveHttp ?? true) {
    await app.listen({ host: config.server.host, port: config.server.port });
    listening = listeningUrl(config, app);
  }
  logger.info(
    {
      url: listening,
      backend: `redis ${backend}`,
      prefix,
      messageLog: log?.description,
      tenants: config.tenants.map((tenant) => tenant.id),
    },
    `sharpsharp worker running (queue: redis ${backend}, prefix "${prefix}", message log: ${log?.description ?? "off"}${listening === undefined ? "" : `, health on ${listening}`})`,
  );

  return {
    url: listening,
    async close() {
      await app.close();
      await closeWithinGrace(
        [turns, outbound, events],
        options.graceMs ?? 8000,
        logger,
        "active jobs did not finish within the grace period; BullMQ will hand them to another worker",
      );
      await outboundQueue.close();
      await queues.close();
      await graph.close();
      await log?.close();
      await closeRedis(bull);
      await closeRedis(redis);
    },
  };
}
