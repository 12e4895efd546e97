import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../../observability/index.js";
import { type JobHandler, QUEUE_NAMES, type TurnJob } from "../../queue/index.js";
import { bullProcessor } from "../../queue/redis/index.js";

/** Where the turn worker runs. */
export interface TurnWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX: the same as the ingress's, so the worker sees its `turns` queue. */
  readonly prefix: string;
  readonly logger: Logger;
}

/** How the turn worker runs; every field has a default. */
export interface TurnWorkerOptions {
  /** Turns in flight in this process (different conversations); default 16. */
  readonly concurrency?: number;
  /** BullMQ job lock, ms: as long as the conversation lock's lease, longer than any turn takes. Default 30,000. */
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
 * conversation's inbox through `handler` (the turn job handler, see
 * turn-job-handler.ts); a burst still arriving retries the job when its
 * coalescing window closes (this costs no BullMQ attempt).
 *
 * BullMQ's per-conversation deduplication already keeps one turn job active
 * per conversation. The conversation lock the handler is given guards the
 * one case it does not cover: a job BullMQ believes stalled (its worker
 * blocked or cut off from Redis longer than the job lock) is handed to
 * another worker while the first may still be sending; the lock keeps that
 * second run waiting.
 */
export function createTurnWorker(
  deps: TurnWorkerDeps,
  handler: JobHandler<TurnJob>,
  options: TurnWorkerOptions = {},
): TurnWorker {
  const worker = new Worker<TurnJob, string>(QUEUE_NAMES.turns, bullProcessor(handler), {
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
