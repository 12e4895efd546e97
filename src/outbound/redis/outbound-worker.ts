import { Worker } from "bullmq";
import type { Logger } from "../../observability/index.js";
import { type JobHandler, type OutboundJob, QUEUE_NAMES } from "../../queue/index.js";
import { bullProcessor, type RedisClient } from "../../queue/redis/index.js";

/** Where the outbound worker runs. */
export interface OutboundWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: RedisClient;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  readonly logger: Logger;
}

/** How the outbound worker runs; every field has a default. */
export interface OutboundWorkerOptions {
  /** Jobs in flight in this process; default 16. */
  readonly concurrency?: number;
  /** BullMQ job lock, ms: a dead worker's send is taken over after it; default 30,000. */
  readonly lockMs?: number;
  /** How often BullMQ looks for sends whose worker died, ms; default 30,000. */
  readonly stalledIntervalMs?: number;
}

export interface OutboundWorker {
  readonly worker: Worker<OutboundJob, string>;
  /** Stops taking jobs and waits for the active ones (force: abandons them to the stalled-job check). */
  close(force?: boolean): Promise<void>;
}

/**
 * The outbound sender's BullMQ worker on the `outbound` queue: each job is
 * one reply part, sent by `handler` (the outbound job handler, see
 * send-reply.ts). Any number of processes may run it; the limits it is given
 * are shared through Redis.
 */
export function createOutboundWorker(
  deps: OutboundWorkerDeps,
  handler: JobHandler<OutboundJob>,
  options: OutboundWorkerOptions = {},
): OutboundWorker {
  const processor = bullProcessor(handler, options.lockMs === undefined ? {} : { lockMs: options.lockMs });
  const worker = new Worker<OutboundJob, string>(QUEUE_NAMES.outbound, processor, {
    connection: deps.redis,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 16,
    // A job whose worker died is recovered, not failed for good, even after several crashes in a row.
    maxStalledCount: 5,
    ...(options.lockMs === undefined ? {} : { lockDuration: options.lockMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
  });
  worker.on("error", (error) => deps.logger.error({ err: error }, "outbound worker error"));
  return { worker, close: (force = false) => worker.close(force) };
}
