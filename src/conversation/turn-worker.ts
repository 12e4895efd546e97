import { DelayedError, type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { TenantConfig } from "../config/index.js";
import type { Logger } from "../observability/index.js";
import { maskConversationKey } from "../observability/index.js";
import type { OutboundQueue } from "../outbound/index.js";
import { type ConversationInbox, QUEUE_NAMES, type TurnJob } from "../queue/index.js";
import { createRedisConversationLock } from "./conversation-lock.js";
import type { ConversationStateStore } from "./conversation-state.js";
import type { Responder, TypingIndicator } from "./ports.js";
import { createTurnProcessor, type TurnOutcome } from "./process-turn.js";
import type { TurnMetrics } from "./turn-metrics.js";

/** What the turn worker is given. */
export interface TurnWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX: the same as the ingress's, so the worker sees its `turns` queue. */
  readonly prefix: string;
  readonly inbox: ConversationInbox;
  readonly outbound: OutboundQueue;
  readonly responder: Responder;
  readonly tenants: readonly TenantConfig[];
  readonly logger: Logger;
  readonly metrics?: TurnMetrics;
  /** Mark-as-read with the typing indicator at the start of each turn; optional. */
  readonly typing?: TypingIndicator;
  /** Conversation mode and recent history; optional. */
  readonly state?: ConversationStateStore;
  /** ms since the epoch. */
  readonly now: () => number;
}

/** How the turn worker runs; every field has a default. */
export interface TurnWorkerOptions {
  /** Turns in flight in this process (different conversations); default 16. */
  readonly concurrency?: number;
  /** Conversation lock lease, ms; longer than any turn takes. Default 30,000. */
  readonly lockTtlMs?: number;
  /** How long a turn that finds its conversation locked waits before trying again, ms; default 250. */
  readonly busyRetryMs?: number;
  /** Most messages handled as one turn; default 100. */
  readonly maxMessagesPerTurn?: number;
  /** How often BullMQ looks for turns whose worker died, ms; default BullMQ's 30,000. */
  readonly stalledIntervalMs?: number;
}

export interface TurnWorker {
  readonly worker: Worker<TurnJob, string>;
  /** Stops taking jobs and waits for the active ones (force: abandons them to the stalled-job check). */
  close(force?: boolean): Promise<void>;
}

/**
 * The turn worker: a BullMQ worker on the `turns` queue. Each job drains its
 * conversation's inbox through the turn processor (see process-turn.ts); a
 * burst still arriving moves the job to delayed until its coalescing window
 * closes (this costs no BullMQ attempt).
 *
 * BullMQ's per-conversation deduplication already keeps one turn job active
 * per conversation. The Redis lock guards the one case it does not cover: a
 * job BullMQ believes stalled (its worker blocked or cut off from Redis
 * longer than the job lock) is handed to another worker while the first may
 * still be sending; the lock keeps that second run waiting.
 */
export function createTurnWorker(deps: TurnWorkerDeps, options: TurnWorkerOptions = {}): TurnWorker {
  const byId = new Map(deps.tenants.map((tenant) => [tenant.id, tenant]));
  const busyRetryMs = options.busyRetryMs ?? 250;
  const processTurn = createTurnProcessor(
    {
      inbox: deps.inbox,
      outbound: deps.outbound,
      responder: deps.responder,
      tenant: (id) => byId.get(id),
      lock: createRedisConversationLock({
        redis: deps.redis,
        prefix: deps.prefix,
        ...(options.lockTtlMs === undefined ? {} : { ttlMs: options.lockTtlMs }),
      }),
      ...(deps.typing === undefined ? {} : { typing: deps.typing }),
      ...(deps.state === undefined ? {} : { state: deps.state }),
      logger: deps.logger,
      now: deps.now,
    },
    options.maxMessagesPerTurn === undefined ? {} : { maxMessages: options.maxMessagesPerTurn },
  );

  const record = (job: TurnJob, outcome: TurnOutcome, startedAt: number) => {
    deps.metrics?.runs.inc({ tenant: job.tenantId, outcome: outcome.kind });
    if (outcome.kind !== "handled") return;
    for (const turn of outcome.turns) {
      deps.metrics?.messagesPerTurn.observe({ tenant: job.tenantId }, turn.messages);
      if (turn.stale > 0) deps.metrics?.staleMessages.inc({ tenant: job.tenantId }, turn.stale);
      const latencyMs = Math.max(0, turn.queuedAt - turn.receivedAt);
      deps.metrics?.latencySeconds.observe({ tenant: job.tenantId }, latencyMs / 1000);
    }
    deps.metrics?.turnSeconds.observe({ tenant: job.tenantId }, (deps.now() - startedAt) / 1000);
  };

  const run = async (job: Job<TurnJob, string>, token?: string): Promise<string> => {
    const startedAt = deps.now();
    const outcome = await processTurn(job.data);
    record(job.data, outcome, startedAt);
    const log = deps.logger.child({
      tenant: job.data.tenantId,
      conversation: maskConversationKey(job.data.conversationKey),
    });
    if (outcome.kind === "postpone" || outcome.kind === "busy") {
      const until =
        outcome.kind === "postpone" ? outcome.until : deps.now() + (outcome.retryAfterMs ?? busyRetryMs);
      log.debug({ outcome: outcome.kind, delayMs: until - deps.now() }, "turn postponed");
      await job.moveToDelayed(until, token);
      throw new DelayedError();
    }
    if (outcome.kind === "handled") {
      for (const turn of outcome.turns) log.info({ ...turn }, "turn handled");
    }
    return outcome.kind;
  };

  const worker = new Worker<TurnJob, string>(QUEUE_NAMES.turns, run, {
    connection: deps.redis,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 16,
    // A dead worker's turn is taken over once both its BullMQ lock and its conversation lock lapse.
    lockDuration: options.lockTtlMs ?? 30_000,
    // A turn whose worker died is recovered, not failed for good, even after several crashes in a row.
    maxStalledCount: 5,
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
  });
  worker.on("error", (error) => deps.logger.error({ err: error }, "turn worker error"));
  worker.on("failed", (job, error) =>
    deps.logger.warn({ err: error, tenant: job?.data.tenantId, attempt: job?.attemptsMade }, "turn failed"),
  );
  return { worker, close: (force = false) => worker.close(force) };
}
