import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import { QUEUE_NAMES, type TurnJob } from "../../queue/index.js";
import { bullProcessor } from "../../queue/redis/index.js";
import { createTurnJobHandler, type TurnHandlerDeps, type TurnHandlerOptions } from "../turn-job-handler.js";
import { createRedisConversationLock } from "./redis-conversation-lock.js";

/** What the turn worker is given. */
export interface TurnWorkerDeps extends Omit<TurnHandlerDeps, "lock"> {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX: the same as the ingress's, so the worker sees its `turns` queue. */
  readonly prefix: string;
}

/** How the turn worker runs; every field has a default. */
export interface TurnWorkerOptions extends TurnHandlerOptions {
  /** Turns in flight in this process (different conversations); default 16. */
  readonly concurrency?: number;
  /** Conversation lock lease, ms; longer than any turn takes. Default 30,000. */
  readonly lockTtlMs?: number;
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
  const run = createTurnJobHandler(
    {
      ...deps,
      lock: createRedisConversationLock({
        redis: deps.redis,
        prefix: deps.prefix,
        ...(options.lockTtlMs === undefined ? {} : { ttlMs: options.lockTtlMs }),
      }),
    },
    options,
  );

  const worker = new Worker<TurnJob, string>(QUEUE_NAMES.turns, bullProcessor(run), {
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
