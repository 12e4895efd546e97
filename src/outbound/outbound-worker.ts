import { type Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../observability/index.js";
import { type OutboundJob, QUEUE_NAMES } from "../queue/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import type { SendRetryPolicy } from "./classify-send-error.js";
import { createOutboundJobHandler } from "./outbound-job-handler.js";
import type { OutboundMetrics } from "./outbound-metrics.js";
import type { SendRateLimiter, SentMessageRecorder, TenantSendPause } from "./ports.js";
import { createRedisSendOrder } from "./redis-send-order.js";
import { createRedisSendRateLimiter, type PairLimit } from "./redis-send-rate-limiter.js";
import { createRedisTenantSendPause } from "./redis-tenant-send-pause.js";
import type { Reengage } from "./reengagement.js";
import { createSendOrderGate, type OutboundJobState, type SendOrderGate } from "./send-order-gate.js";
import type { SendReplyDeps } from "./send-reply.js";

/** What the outbound worker is given. */
export interface OutboundWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  /** The Graph API client of a tenant (its token); owned and closed by the caller. */
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly logger: Logger;
  readonly metrics?: OutboundMetrics;
  /** ms since the epoch; when delayed jobs are due. */
  readonly now: () => number;
  /** [0, 1); jitters retry delays. */
  readonly random: () => number;
  /** Where accepted messages' wamids are recorded (the delivery status store); none: not recorded. */
  readonly sent?: SentMessageRecorder;
  /** What a 131047 give-up triggers (see createReengagement); none: only recorded. */
  readonly reengage?: Reengage;
}

/** How the outbound worker runs; every field has a default. */
export interface OutboundWorkerOptions {
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
  /** How long a rejected token (190) pauses the tenant's sends, ms; default 900,000 (15 min). */
  readonly pauseMs?: number;
  /** Backoff and attempt limits (see classifySendError). */
  readonly retryPolicy?: Omit<SendRetryPolicy, "random">;
  /** BullMQ job lock, ms: a dead worker's send is taken over after it; default 30,000. */
  readonly lockMs?: number;
  /** How often BullMQ looks for sends whose worker died, ms; default 30,000. */
  readonly stalledIntervalMs?: number;
  /** A reply held back for an earlier one of its conversation is checked again after this long, ms; default 250. */
  readonly orderPollMs?: number;
  /** A reply held back this long for an earlier one is sent anyway, ms; default 60,000. */
  readonly orderMaxWaitMs?: number;
}

export interface OutboundWorker {
  readonly worker: Worker<OutboundJob, string>;
  /** Stops taking jobs and waits for the active ones (force: abandons them to the stalled-job check). */
  close(force?: boolean): Promise<void>;
}

/** The sender's ports, whichever backend provides them. */
export interface SenderPorts {
  readonly order: SendOrderGate;
  readonly limiter: SendRateLimiter;
  readonly pause: TenantSendPause;
}

/** Everything one send needs, from the worker's dependencies and options with their defaults. */
export function sendReplyDepsFrom(
  deps: Omit<OutboundWorkerDeps, "redis" | "prefix">,
  options: OutboundWorkerOptions,
  ports: SenderPorts,
): SendReplyDeps & { readonly order: SendOrderGate } {
  return {
    ...ports,
    orderPollMs: options.orderPollMs ?? 250,
    orderMaxWaitMs: options.orderMaxWaitMs ?? 60_000,
    graphClientFor: deps.graphClientFor,
    logger: deps.logger,
    metrics: deps.metrics,
    now: deps.now,
    random: deps.random,
    pauseMs: options.pauseMs ?? 900_000,
    retryPolicy: options.retryPolicy ?? {},
    ...(deps.sent === undefined ? {} : { sent: deps.sent }),
    ...(deps.reengage === undefined ? {} : { reengage: deps.reengage }),
  };
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
  const worker = new Worker<OutboundJob, string>(
    QUEUE_NAMES.outbound,
    (job: Job<OutboundJob, string>, token?: string) => handle(job, token),
    {
      connection: deps.redis,
      prefix: deps.prefix,
      concurrency: options.concurrency ?? 16,
      // A job whose worker died is recovered, not failed for good, even after several crashes in a row.
      maxStalledCount: 5,
      ...(options.lockMs === undefined ? {} : { lockDuration: options.lockMs }),
      ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    },
  );
  worker.on("error", (error) => deps.logger.error({ err: error }, "outbound worker error"));
  return {
    worker,
    async close(force = false) {
      await worker.close(force);
      await queue.close();
    },
  };
}
