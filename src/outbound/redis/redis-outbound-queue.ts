import { type JobsOptions, Queue } from "bullmq";
import { JOB_NAMES, type OutboundJob, QUEUE_NAMES } from "../../queue/index.js";
import type { RedisClient } from "../../queue/redis/index.js";
import { outboundJobId } from "../outbound-job-id.js";
import { assignSendOrder, checkOutboundReply } from "../outbound-sequence.js";
import type { OutboundQueue } from "../ports.js";
import { createRedisSendOrder } from "./redis-send-order.js";

export interface RedisOutboundQueueOptions {
  /** Owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /**
   * How long a sent reply's job is kept, seconds (default 86,400 = 24 h).
   * BullMQ refuses a job id it still holds, so this is the window in which
   * enqueuing the same (tenant, turn, part) again sends nothing.
   */
  readonly dedupeSeconds?: number;
  /** How long a given-up reply's job is kept (for inspection), seconds; default 7 days. */
  readonly keepFailedSeconds?: number;
  /** How long a conversation's send order is kept after its last reply, seconds; default 7 days. */
  readonly orderTtlSeconds?: number;
  /** Errors the BullMQ queue emits in the background. */
  readonly onError?: (error: unknown) => void;
}

export interface RedisOutboundQueue extends OutboundQueue {
  readonly queue: Queue<OutboundJob>;
  /** Closes the BullMQ queue; the Redis client stays the caller's. */
  close(): Promise<void>;
}

/**
 * The Redis adapter of OutboundQueue, on the BullMQ queue `outbound`. Each
 * part gets a job id derived from (tenant, turn, part); completed jobs are
 * kept for `dedupeSeconds`, so the id deduplicates for that long, and
 * failed ones for `keepFailedSeconds`. Each part also gets its place in
 * its conversation's send order (see createRedisSendOrder) before it is
 * added; a part already queued keeps its place.
 */
export function createRedisOutboundQueue(options: RedisOutboundQueueOptions): RedisOutboundQueue {
  const queue = new Queue<OutboundJob>(QUEUE_NAMES.outbound, {
    connection: options.redis,
    prefix: options.prefix,
  });
  queue.on("error", options.onError ?? (() => {}));
  const order = createRedisSendOrder({
    redis: options.redis,
    prefix: options.prefix,
    ...(options.orderTtlSeconds === undefined ? {} : { ttlSeconds: options.orderTtlSeconds }),
  });
  const jobOptions: JobsOptions = {
    // Waits and retries are the sender's own (see OutboundJob); BullMQ's attempts are not spent.
    attempts: 1,
    // A completed job is the dedupe of its reply (a retried turn enqueues it again): kept a day, and
    // at most a million of them (over 3 h at 80 sends/s), so Redis's memory stays bounded at any rate.
    removeOnComplete: { age: options.dedupeSeconds ?? 86_400, count: 1_000_000 },
    removeOnFail: { age: options.keepFailedSeconds ?? 7 * 86_400, count: 10_000 },
  };
  return {
    queue,
    async enqueue(replies) {
      for (const reply of replies) checkOutboundReply(reply);
      if (replies.length === 0) return;
      // A crash between the two steps leaves a place with no job: the sender skips it (send-order-gate.ts).
      const ids = replies.map(outboundJobId);
      const seqs = await assignSendOrder(order, replies, ids);
      await queue.addBulk(
        replies.map((reply, i) => ({
          name: JOB_NAMES.send,
          data: { ...reply, seq: seqs[i] as number },
          opts: { ...jobOptions, jobId: ids[i] as string },
        })),
      );
    },
    close: () => queue.close(),
  };
}
