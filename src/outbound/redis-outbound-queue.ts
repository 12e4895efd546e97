import { createHash } from "node:crypto";
import { type JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { JOB_NAMES, type OutboundJob, type OutboundReply, QUEUE_NAMES } from "../queue/index.js";
import { OutboundReplyInvalidError } from "./errors.js";
import type { OutboundQueue } from "./ports.js";

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
 * failed ones for `keepFailedSeconds`.
 */
export function createRedisOutboundQueue(options: RedisOutboundQueueOptions): RedisOutboundQueue {
  const queue = new Queue<OutboundJob>(QUEUE_NAMES.outbound, {
    connection: options.redis,
    prefix: options.prefix,
  });
  queue.on("error", options.onError ?? (() => {}));
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
      await queue.addBulk(
        replies.map((reply) => ({
          name: JOB_NAMES.send,
          data: reply,
          opts: { ...jobOptions, jobId: outboundJobId(reply) },
        })),
      );
    },
    close: () => queue.close(),
  };
}
