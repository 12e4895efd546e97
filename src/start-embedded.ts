import { join, resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import {
  createLocalTenantSlots,
  createSqlitePendingActions,
  createSqliteTokenBudget,
} from "./agent/embedded/index.js";
import { createGatewayResponder, type LlmClient } from "./agent/index.js";
import type { AppConfig } from "./config/index.js";
import { createLocalConversationLock, createSqliteConversationState } from "./conversation/embedded/index.js";
import {
  createGraphTypingIndicator,
  createTurnJobHandler,
  createTurnMetrics,
  createTypingIndicatorCounter,
  type Responder,
} from "./conversation/index.js";
import { createSqliteDeliveryStatusStore } from "./delivery/embedded/index.js";
import { createDeliveryMetrics, createEventJobHandler } from "./delivery/index.js";
import { createGraphClients } from "./graph-clients.js";
import { buildIngressApp } from "./ingress/index.js";
import { openMessageLog } from "./message-log.js";
import {
  createIngressMetrics,
  createLogger,
  createQueueMetrics,
  type Logger,
  maskConversationKey,
} from "./observability/index.js";
import {
  createEmbeddedOutboundQueue,
  createLocalSendRateLimiter,
  createSqliteSendOrder,
  createSqliteTenantSendPause,
  OUTBOUND_KEEP,
} from "./outbound/embedded/index.js";
import {
  createOutboundJobHandler,
  createOutboundMetrics,
  createReengagement,
  createSendOrderGate,
  reengagementTemplates,
  sendReplyDepsFrom,
} from "./outbound/index.js";
import { closeWithinGrace, listeningUrl } from "./process-lifecycle.js";
import {
  createEmbeddedQueues,
  createJobRunner,
  createJobTable,
  type JobRunner,
} from "./queue/embedded/index.js";
import { type OutboundJob, QUEUE_NAMES } from "./queue/index.js";
import { type IntentRouter, loadIntentRouter } from "./router/index.js";
import { createWalSyncer, openSqliteDatabase } from "./sqlite/index.js";

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
  const databasePath = join(resolve(config.dataDir), "sharpsharp.db");
  const db = openSqliteDatabase({ dataDir: config.dataDir });
  const description = `sqlite ${databasePath}`;
  const now = Date.now;
  // Undone in reverse order on a failed start and at close (after the runners have stopped).
  const closers: (() => Promise<void> | void)[] = [];
  const undo = async () => {
    for (const close of closers.splice(0).reverse()) {
      await Promise.resolve(close()).catch((error: unknown) =>
        logger.warn({ err: error }, "shutdown step failed"),
      );
    }
    db.close();
  };
  try {
    const syncer = createWalSyncer(`${db.name}-wal`);
    closers.push(() => syncer.close());
    const jobs = createJobTable(db);
    const stateStore = createSqliteConversationState({ db });
    const queues = createEmbeddedQueues({
      db,
      syncer,
      jobs,
      dedupeTtlSeconds: config.ingress.dedupeTtlSeconds,
      isUrgent: (key, at) => stateStore.isUrgent(key, at),
      description,
    });
    const log = await openMessageLog(config, logger, db);
    closers.push(async () => log?.close());
    const recorders = log?.recorders;
    // Each port as the log sees it (recorded), when there is a log.
    const state = recorders?.conversationState(stateStore) ?? stateStore;
    const inbox = recorders?.inbox(queues.inbox) ?? queues.inbox;
    const sendOrder = createSqliteSendOrder({ db });
    const runners: { turns?: JobRunner; outbound?: JobRunner; events?: JobRunner } = {};
    const queuedOutbound = createEmbeddedOutboundQueue({
      jobs,
      order: sendOrder,
      added: () => runners.outbound?.notify(),
    });
    const outboundQueue = recorders?.outboundQueue(queuedOutbound) ?? queuedOutbound;
    const deliveryTable = createSqliteDeliveryStatusStore({ db });
    const deliveryStore = recorders?.deliveryStatuses(deliveryTable) ?? deliveryTable;
    const pause = createSqliteTenantSendPause({ db });
    const pending = createSqlitePendingActions({ db });
    const budget = createSqliteTokenBudget({ db });

    const ingressMetrics = createIngressMetrics({ sampleQueueDepth: () => queues.status.depth() });
    const registry = ingressMetrics.registry;
    const responder =
      options.responder ??
      createGatewayResponder(config, {
        stores: { slots: createLocalTenantSlots(config.worker.lockMs), pending, budget },
        registry,
        logger,
        router: options.router ?? loadIntentRouter(),
        state,
        ...(recorders === undefined ? {} : { onTurnDecision: recorders.onTurnDecision }),
        ...(options.llm === undefined ? {} : { llm: options.llm }),
      });
    const graph = createGraphClients(config, options.graphTimeoutMs ?? 10_000);
    closers.push(() => graph.close());
    const outboundMetrics = createOutboundMetrics(registry);
    const templates = reengagementTemplates(config.tenants);
    const reengage = createReengagement({
      queue: outboundQueue,
      templateFor: (tenantId) => templates.get(tenantId),
      logger,
      metrics: outboundMetrics,
    });

    const runTurn = createTurnJobHandler({
      inbox,
      outbound: outboundQueue,
      responder,
      tenants: config.tenants,
      logger,
      metrics: createTurnMetrics(registry),
      state,
      lock: createLocalConversationLock({ ttlMs: config.worker.lockMs }),
      typing: createGraphTypingIndicator({
        graphClientFor: graph.clientFor,
        logger,
        counter: createTypingIndicatorCounter(registry),
      }),
      now,
    });
    const runSend = createOutboundJobHandler(
      sendReplyDepsFrom(
        {
          graphClientFor: graph.clientFor,
          logger,
          metrics: outboundMetrics,
          now,
          random: Math.random,
          sent: deliveryStore,
          reengage,
        },
        {},
        {
          order: createSendOrderGate({
            order: sendOrder,
            jobState: async (id) => jobs.state(QUEUE_NAMES.outbound, id),
            wake: async (id) => {
              // Only a reply held back for an earlier one is woken; a rate-limit wait is not cut short.
              const held = jobs.read(QUEUE_NAMES.outbound, id) as OutboundJob | undefined;
              if (held?.orderHeldSince !== undefined && jobs.promote(QUEUE_NAMES.outbound, id, now())) {
                runners.outbound?.notify();
              }
            },
          }),
          // One process sends everything: the strictest tenant's rate keeps every number inside Meta's limit.
          limiter: createLocalSendRateLimiter({
            throughputMps: Math.min(...config.tenants.map((tenant) => tenant.throughputMps)),
          }),
          pause,
        },
      ),
    );
    const runEvent = createEventJobHandler({
      store: deliveryStore,
      logger,
      metrics: createDeliveryMetrics(registry),
      reengage,
    });

    // A turn's job id is its conversation key, which holds the customer's number: masked.
    const failed = (queue: string) => (error: unknown, job?: { id: string; final: boolean }) =>
      logger.warn(
        {
          err: error,
          queue,
          job:
            job === undefined
              ? undefined
              : queue === QUEUE_NAMES.turns
                ? maskConversationKey(job.id)
                : job.id,
          final: job?.final,
        },
        job === undefined ? "queue error" : "job failed",
      );
    runners.turns = createJobRunner(jobs, QUEUE_NAMES.turns, runTurn, {
      concurrency: options.turnConcurrency ?? (config.llm === undefined ? 16 : 64),
      onError: failed(QUEUE_NAMES.turns),
    });
    runners.outbound = createJobRunner(jobs, QUEUE_NAMES.outbound, runSend, {
      concurrency: options.outboundConcurrency ?? 16,
      keep: OUTBOUND_KEEP,
      // A send recorded as done must stay done after a power cut, or it would be sent twice: its
      // completion is flushed at once, but the send slot does not wait for that flush (waiting
      // behind the ingress's flushes raised the end-to-end p99 at 200 messages/s from 173 to 934 ms).
      afterComplete: async () => {
        syncer.sync().catch(() => {});
      },
      onError: failed(QUEUE_NAMES.outbound),
    });
    runners.events = createJobRunner(jobs, QUEUE_NAMES.events, runEvent, {
      concurrency: options.eventsConcurrency ?? 16,
      onError: failed(QUEUE_NAMES.events),
    });
    const { turns, outbound, events } = runners;
    queues.signals.turnsRunning = () => turns.active;
    queues.signals.turnsDue = () => turns.notify();
    queues.signals.eventsDue = () => events.notify();

    createQueueMetrics(registry, {
      sample: async () => {
        const at = now();
        return [
          [QUEUE_NAMES.turns, turns],
          [QUEUE_NAMES.outbound, outbound],
          [QUEUE_NAMES.events, events],
        ].map(([name, runner]) => {
          const queue = name as string;
          const counts = jobs.counts(queue, at);
          const active = (runner as JobRunner).running();
          return {
            queue,
            counts: { ...counts, waiting: Math.max(0, (counts.waiting ?? 0) - active), active },
            oldestWaitingAt: jobs.oldestDueAt(queue, at, (runner as JobRunner).active),
          };
        });
      },
      now,
    });

    const sweepers = [stateStore, deliveryTable, pause, pending, budget, sendOrder];
    const housekeeping = () => {
      try {
        const at = now();
        const revived = queues.sweepWaitingInboxes();
        if (revived > 0)
          logger.warn({ conversations: revived }, "messages waited too long without a turn; scheduled again");
        queues.sweepExpiredMarks();
        jobs.sweep(at);
        for (const store of sweepers) store.sweepExpired();
      } catch (error) {
        logger.warn({ err: error }, "embedded housekeeping failed");
      }
    };
    const housekeepingTimer = setInterval(housekeeping, options.housekeepingMs ?? 30_000);
    housekeepingTimer.unref();
    closers.push(() => clearInterval(housekeepingTimer));

    const app = await buildIngressApp({
      tenants: config.tenants,
      queue: queues.inbound,
      status: queues.status,
      metrics: ingressMetrics,
      logger,
      bodyLimitBytes: config.server.bodyLimitBytes,
    });
    closers.push(() => (app.server.listening ? app.close() : undefined));
    await app.listen({ host: config.server.host, port: config.server.port });
    for (const runner of [turns, outbound, events]) runner.start();
    const url = listeningUrl(config, app);
    logger.info(
      {
        url,
        mode: "embedded",
        database: databasePath,
        messageLog: log?.description,
        tenants: config.tenants.map((tenant) => tenant.id),
      },
      `sharpsharp running embedded on ${url} (one process; data in ${databasePath}; ` +
        `message log: ${log?.description ?? "off"}; tenants: ${config.tenants.map((tenant) => tenant.id).join(", ")})`,
    );

    return {
      url,
      app,
      databasePath,
      async close() {
        clearInterval(housekeepingTimer);
        await app.close();
        await closeWithinGrace(
          [turns, outbound, events],
          options.graceMs ?? 8000,
          logger,
          "running jobs did not finish within the grace period; they run again at the next start",
        );
        await undo();
      },
    };
  } catch (error) {
    await undo();
    throw error;
  }
}
