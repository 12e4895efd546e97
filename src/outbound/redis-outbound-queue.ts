import { createHash } from "node:crypto";
import { type JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { JOB_NAMES, type OutboundJob, type OutboundReply, QUEUE_NAMES } from "../queue/index.js";
import { OutboundReplyInvalidError } from "./errors.js";
import type { OutboundQueue } from "./ports.js";
import { createRedisSendOrder } from "./redis-send-order.js";

export interface RedisOutboundQueueOptions {
  /** Owned by the caller. */
  readonly redis: Redis;
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
 * The reply's job id: a hash, since BullMQ job ids must not contain ':' and
 * turn ids may. The tenant is part of it, so two tenants' turn ids never collide.
 */
export function outboundJobId(reply: Pick<OutboundReply, "tenantId" | "turnId" | "part">): string {
  const digest = createHash("sha256")
    .update(`${reply.tenantId}\u0000${reply.turnId}\u0000${reply.part}`)
    .digest("base64url");
  return `out-${digest.slice(0, 32)}`;
}

function check(reply: OutboundReply): void {
  if ((reply.to === undefined) === (reply.recipient === undefined)) {
    throw new OutboundReplyInvalidError("exactly one of `to` and `recipient` must name the customer");
  }
  if (typeof reply.message.type !== "string") throw new OutboundReplyInvalidError("message has no `type`");
  if (!Number.isInteger(reply.part) || reply.part < 0) {
    throw new OutboundReplyInvalidError("`part` must be a whole number ≥ 0");
  }
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
  // Sequence numbers of the replies, in the order given (turn order, then part order).
  const sequence = async (replies: readonly OutboundReply[]): Promise<number[]> => {
    const seqs: number[] = new Array(replies.length);
    const groups = new Map<string, number[]>();
    replies.forEach((reply, i) => {
      const key = `${reply.tenantId}\u0000${reply.conversationKey}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    for (const indexes of groups.values()) {
      const first = replies[indexes[0] as number] as OutboundReply;
      const ids = indexes.map((i) => outboundJobId(replies[i] as OutboundReply));
      const given = await order.assign(first.tenantId, first.conversationKey, ids);
      indexes.forEach((i, n) => {
        seqs[i] = given[n] as number;
      });
    }
    return seqs;
  };
  const jobOptions: JobsOptions = {
    // Waits and retries are the sender's own (see OutboundJob); BullMQ's attempts are not spent.
    attempts: 1,
    removeOnComplete: { age: options.dedupeSeconds ?? 86_400 },
    removeOnFail: { age: options.keepFailedSeconds ?? 7 * 86_400 },
  };
  return {
    queue,
    async enqueue(replies) {
      for (const reply of replies) check(reply);
      if (replies.length === 0) return;
      // A crash between the two steps leaves a place with no job: the sender skips it (send-order-gate.ts).
      const seqs = await sequence(replies);
      await queue.addBulk(
        replies.map((reply, i) => ({
          name: JOB_NAMES.send,
          data: { ...reply, seq: seqs[i] as number },
          opts: { ...jobOptions, jobId: outboundJobId(reply) },
        })),
      );
    },
    close: () => queue.close(),
  };
}
