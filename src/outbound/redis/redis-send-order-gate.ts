import { Queue } from "bullmq";
import type { Logger } from "../../observability/index.js";
import { type OutboundJob, QUEUE_NAMES } from "../../queue/index.js";
import type { RedisClient } from "../../queue/redis/index.js";
import { createSendOrderGate, type OutboundJobState, type SendOrderGate } from "../send-order-gate.js";
import { createRedisSendOrder } from "./redis-send-order.js";

export interface RedisSendOrderGateOptions {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: RedisClient;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  readonly logger: Logger;
}

/** The send order gate on Redis, with the BullMQ queue it reads job states from; close() closes that queue. */
export interface RedisSendOrderGate extends SendOrderGate {
  close(): Promise<void>;
}

/**
 * The send order on Redis (see createRedisSendOrder) with the outbound
 * queue's job states: BullMQ's Worker cannot look up other jobs, so a Queue
 * on the same prefix reads whether an earlier reply is still pending and
 * promotes a reply held back for its turn.
 */
export function createRedisSendOrderGate(options: RedisSendOrderGateOptions): RedisSendOrderGate {
  const queue = new Queue<OutboundJob>(QUEUE_NAMES.outbound, {
    connection: options.redis,
    prefix: options.prefix,
  });
  queue.on("error", (error) => options.logger.error({ err: error }, "outbound queue error"));
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
  const gate = createSendOrderGate({
    order: createRedisSendOrder({ redis: options.redis, prefix: options.prefix }),
    jobState,
    wake,
  });
  return { ...gate, close: () => queue.close() };
}
