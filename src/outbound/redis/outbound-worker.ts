import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type OutboundJob, QUEUE_NAMES } from "../../queue/index.js";
import { bullProcessor } from "../../queue/redis/index.js";
import { createOutboundJobHandler } from "../outbound-job-handler.js";
import { createSendOrderGate, type OutboundJobState } from "../send-order-gate.js";
import { type SenderDeps, type SenderOptions, sendReplyDepsFrom } from "../send-reply-deps.js";
import { createRedisSendOrder } from "./redis-send-order.js";
import { createRedisSendRateLimiter, type PairLimit } from "./redis-send-rate-limiter.js";
import { createRedisTenantSendPause } from "./redis-tenant-send-pause.js";

/** What the outbound worker is given. */
export interface OutboundWorkerDeps extends SenderDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX. */
  readonly prefix: string;
}

/** How the outbound worker runs; every field has a default. */
export interface OutboundWorkerOptions extends SenderOptions {
  /** Jobs in flight in this process; default 16. */
  readonly concurrency?: number;
  /** Sends per second per phone number id, across all processes; default 80. */
  readonly throughputMps?: number;
  /** Sends one number may make at once before pacing starts; default throughputMps ÷ 10. */
  readonly throughputBurst?: number;
  /** Meta's pair limit (per business number and recipient); default 10 at once, then one per 6,000 ms. */
  readonly pairLimit?: Partial<PairLimit>;
  /** A slot this near is reserved and slept for; a farther one delays the job instead. ms, default 1,000. */
  readonly reserveHorizonMs?: number;
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
 * The outbound sender: a BullMQ worker on the `outbound` queue that sends
 * each reply part through the Graph API within Meta's limits (see send-reply.ts).
 * Any number of processes may run it; the limits are shared through Redis.
 */
export function createOutboundWorker(
  deps: OutboundWorkerDeps,
  options: OutboundWorkerOptions = {},
): OutboundWorker {
  const limiter = createRedisSendRateLimiter({
    redis: deps.redis,
    prefix: deps.prefix,
    ...(options.throughputMps === undefined ? {} : { throughputMps: options.throughputMps }),
    ...(options.throughputBurst === undefined ? {} : { throughputBurst: options.throughputBurst }),
    ...(options.pairLimit === undefined ? {} : { pairLimit: options.pairLimit }),
    ...(options.reserveHorizonMs === undefined ? {} : { horizonMs: options.reserveHorizonMs }),
  });
  // Reads job states and wakes held jobs; the Worker itself cannot look up other jobs.
  const queue = new Queue<OutboundJob>(QUEUE_NAMES.outbound, { connection: deps.redis, prefix: deps.prefix });
  queue.on("error", (error) => deps.logger.error({ err: error }, "outbound queue error"));
  const jobState = async (jobId: string): Promise<OutboundJobState> => {
    const state = await queue.getJobState(jobId);
    if (state === "unknown") return "missing";
    return state === "completed" || state === "failed" ? "ended" : "pending";
  };
  const wake = async (jobId: string) => {
    const job = await queue.getJob(jobId);
    if (job?.data.orderHeldSince === undefined) return;
    // It may have left the delayed set meanwhile; then there is nothing to wake.
    await job.promote().catch(() => {});
  };
  const order = createSendOrderGate({
    order: createRedisSendOrder({ redis: deps.redis, prefix: deps.prefix }),
    jobState,
    wake,
  });
  const handle = createOutboundJobHandler(
    sendReplyDepsFrom(deps, options, {
      order,
      limiter,
      pause: createRedisTenantSendPause({ redis: deps.redis, prefix: deps.prefix }),
    }),
  );
  const worker = new Worker<OutboundJob, string>(QUEUE_NAMES.outbound, bullProcessor(handle), {
    connection: deps.redis,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 16,
    // A job whose worker died is recovered, not failed for good, even after several crashes in a row.
    maxStalledCount: 5,
    ...(options.lockMs === undefined ? {} : { lockDuration: options.lockMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
  });
  worker.on("error", (error) => deps.logger.error({ err: error }, "outbound worker error"));
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      await queue.close();
    },
  };
}
