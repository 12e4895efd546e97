import type { InboundEvent, InboundMessage } from "../../whatsapp/index.js";
import { tenantOfConversation } from "../../whatsapp/index.js";
import { QueueUnavailableError } from "../errors.js";
import { QUEUE_NAMES } from "../job-names.js";
import type {
  ConversationInbox,
  EnqueueOutcome,
  InboundBatch,
  InboundQueue,
  MessageEnqueueResult,
  QueueDepth,
  QueueStatus,
} from "../ports.js";
import { defineScript } from "./define-script.js";
import { RECORD_EVENTS_LUA } from "./event-scripts.js";
import { createGroupCommitter } from "./group-commit.js";
import { createKeys } from "./keys.js";
import type { RedisClient } from "./redis-client.js";
import { createRedisEventStream, type RedisEventStream } from "./redis-event-stream.js";
import { TURN_FAIRNESS_WINDOW_MS } from "./redis-turn-claims.js";
import { COMPLETE_MESSAGES_LUA, RECORD_MESSAGES_LUA } from "./scripts.js";

export interface RedisQueuesOptions {
  /** A fail-fast client (see createFailFastRedis); owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** How long message ids and event ids are remembered, seconds (≥ 7 days in production). */
  readonly dedupeTtlSeconds: number;
  /** Longest enqueue() waits before rejecting with QueueUnavailableError, ms. */
  readonly enqueueTimeoutMs: number;
  /** Most messages + events written in one round trip. */
  readonly maxGroupWeight?: number;
  /** Group flushes in flight at once (default 16; measured in bench/RESULTS.md). */
  readonly maxFlushesInFlight?: number;
  /** When a flush starts: "io-phase" (default) once the webhooks read in this poll are in; "none" at once. */
  readonly gatherFlushes?: "none" | "io-phase";
  readonly description?: string;
  readonly now?: () => number;
  /** Called for errors the BullMQ queues emit in the background. */
  readonly onBackgroundError?: (error: unknown) => void;
}

export interface RedisQueues {
  readonly inbound: InboundQueue;
  readonly inbox: ConversationInbox;
  readonly status: QueueStatus;
  /** Statuses and other events: a Redis stream read by the events workers. */
  readonly events: RedisEventStream;
  /** Nothing to close of its own today; the Redis client stays the caller's. */
  close(): Promise<void>;
}

const RECORD = "ssRecordMessages";
const RECONNECT_AFTER_TIMEOUTS = 3;
const COMPLETE = "ssCompleteMessages";

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new QueueUnavailableError(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof QueueUnavailableError ? error : new QueueUnavailableError(String(error), error),
        );
      },
    );
  });
}

/**
 * The Redis adapter of the inbound ports. Per flush (one group of webhooks),
 * one round trip: one script records every message atomically (dedupe mark,
 * payload, inbox entry, and the conversation made claimable in the ready
 * set, where workers take it: see redis-turn-claims.ts), and a second
 * script, issued with it, records the events on a stream (see
 * redis-event-stream.ts) with their own deduplication. A redelivered message
 * whose mark says "recorded, not handled" is put back in its inbox if missing
 * and its turn made claimable again.
 */
export function createRedisQueues(options: RedisQueuesOptions): RedisQueues {
  const { redis, prefix } = options;
  const now = options.now ?? Date.now;
  const keys = createKeys(prefix);
  const recordMessages = defineScript(redis, RECORD, RECORD_MESSAGES_LUA);
  const completeMessages = defineScript(redis, COMPLETE, COMPLETE_MESSAGES_LUA);
  // One listener however many requests wait for the connection to come back.
  let nextReady: Promise<void> | undefined;
  const connected = (): Promise<void> => {
    if (redis.status === "ready") return Promise.resolve();
    if (nextReady === undefined) {
      nextReady = new Promise<void>((resolve) =>
        redis.once("ready", () => {
          nextReady = undefined;
          resolve();
        }),
      );
    }
    return nextReady;
  };

  const events = createRedisEventStream({ redis, prefix, dedupeTtlSeconds: options.dedupeTtlSeconds });
  const onError = options.onBackgroundError ?? (() => {});

  /** A webhook's part of a flush: its batch, with each message already serialised by its own request. */
  interface Pending {
    readonly batch: InboundBatch;
    readonly json: readonly string[];
  }

  const record = async (items: readonly Pending[]): Promise<number[]> => {
    const args: (string | number)[] = [options.dedupeTtlSeconds, prefix, TURN_FAIRNESS_WINDOW_MS];
    for (const { batch, json } of items) {
      batch.messages.forEach((message, index) => {
        args.push(message.wamid, message.timestamp, message.conversationKey, json[index] as string);
      });
    }
    if (args.length === 3) return [];
    const turnSets = [keys.ready, keys.delayedTurns, keys.leasedTurns];
    return (await recordMessages(5, keys.stats, keys.inboxes, ...turnSets, ...args)) as number[];
  };

  // Issued at once, beside the messages' script: both writes of a flush share one round trip.
  const addEvents = (list: readonly InboundEvent[]) => events.record(list);

  const flush = async (items: readonly Pending[]): Promise<EnqueueOutcome[]> => {
    const batches = items.map((item) => item.batch);
    const eventList = batches.flatMap((batch) => batch.events);
    const [recorded, eventResults] = await Promise.all([record(items), addEvents(eventList)]);
    const asResult = (code: number | undefined): MessageEnqueueResult =>
      code === 1 ? "new" : code === 2 ? "redelivered" : "duplicate";
    let m = 0;
    let e = 0;
    return batches.map((batch) => ({
      messages: batch.messages.map(() => asResult(recorded[m++])),
      events: batch.events.map(() => eventResults[e++] ?? "duplicate"),
    }));
  };

  // A flush never holds the committer longer than a request may wait, even if a command never settles.
  // A connection that stays "ready" while nothing comes back (a silent network drop) would otherwise
  // fail every webhook until TCP notices: after a few timeouts in a row, reconnect.
  let timeoutsInARow = 0;
  const boundedFlush = async (items: readonly Pending[]) => {
    try {
      const outcome = await withTimeout(flush(items), options.enqueueTimeoutMs);
      timeoutsInARow = 0;
      return outcome;
    } catch (error) {
      if (error instanceof QueueUnavailableError && error.message.includes("no answer within")) {
        timeoutsInARow += 1;
        if (timeoutsInARow >= RECONNECT_AFTER_TIMEOUTS && redis.status === "ready") {
          timeoutsInARow = 0;
          onError(new Error(`redis did not answer ${RECONNECT_AFTER_TIMEOUTS} times in a row; reconnecting`));
          redis.disconnect(true);
        }
      }
      throw error;
    }
  };
  const committer = createGroupCommitter(boundedFlush, {
    maxWeight: options.maxGroupWeight ?? 2000,
    maxInFlight: options.maxFlushesInFlight ?? 16,
    gather: options.gatherFlushes ?? "io-phase",
    weight: (item: Pending) => item.batch.messages.length + item.batch.events.length,
    now,
    expired: () => new QueueUnavailableError("the enqueue deadline passed while waiting for Redis"),
  });

  const inbound: InboundQueue = {
    enqueue(batch) {
      if (batch.messages.length === 0 && batch.events.length === 0) {
        return Promise.resolve({ messages: [], events: [] });
      }
      // Serialised here, per request, so nothing one webhook holds can fail the others in its group.
      const json = batch.messages.map((message) => JSON.stringify(message));
      const deadline = now() + options.enqueueTimeoutMs;
      if (redis.status === "ready") {
        return withTimeout(committer.submit({ batch, json }, deadline), options.enqueueTimeoutMs);
      }
      // Reconnecting: wait for the connection within the same deadline, then record; else 503.
      const waited = withTimeout(connected(), options.enqueueTimeoutMs).catch(() => {
        throw new QueueUnavailableError(`redis connection is ${redis.status}`);
      });
      return waited.then(() =>
        withTimeout(committer.submit({ batch, json }, deadline), Math.max(1, deadline - now())),
      );
    },
  };

  const inbox: ConversationInbox = {
    async read(conversationKey, limit = 100) {
      const wamids = await redis.zrange(keys.inbox(conversationKey), 0, limit - 1);
      if (wamids.length === 0) return [];
      const payloads = await redis.hmget(keys.messages(conversationKey), ...wamids);
      return payloads.flatMap((json) => (json === null ? [] : [JSON.parse(json) as InboundMessage]));
    },
    async complete(conversationKey, wamids) {
      if (wamids.length === 0) return;
      const tenantId = tenantOfConversation(conversationKey);
      const scriptKeys = [
        keys.stats,
        keys.inboxes,
        keys.inbox(conversationKey),
        keys.messages(conversationKey),
        ...wamids.map((wamid) => keys.mark(tenantId, wamid)),
      ];
      await completeMessages(
        scriptKeys.length,
        ...scriptKeys,
        conversationKey,
        options.dedupeTtlSeconds,
        ...wamids,
      );
    },
  };

  const status: QueueStatus = {
    description: options.description ?? "redis",
    async ping(timeoutMs) {
      if (redis.status !== "ready") throw new QueueUnavailableError(`redis connection is ${redis.status}`);
      await withTimeout(redis.ping(), timeoutMs);
    },
    async whenReady() {
      for (;;) {
        await connected();
        try {
          // Loaded now, so the first webhook's EVALSHA finds its script.
          await Promise.all(
            [RECORD_MESSAGES_LUA, COMPLETE_MESSAGES_LUA, RECORD_EVENTS_LUA].map((lua) =>
              redis.script("LOAD", lua),
            ),
          );
          return;
        } catch (error) {
          // Still connected: SCRIPT is refused here (an ACL), and ioredis falls back to EVAL. Else wait again.
          if (redis.status === "ready") return;
          onError(error);
        }
      }
    },
    async depth(): Promise<QueueDepth> {
      const [inboxMessages, inboxConversations, ready, delayed, leased, turnCounts, eventCounts] =
        await Promise.all([
          redis.hget(keys.stats, "inbox"),
          redis.zcard(keys.inboxes),
          redis.zintercard(2, keys.inboxes, keys.ready),
          redis.zintercard(2, keys.inboxes, keys.delayedTurns),
          redis.zintercard(2, keys.inboxes, keys.leasedTurns),
          Promise.all([
            redis.zcard(keys.ready),
            redis.zcard(keys.delayedTurns),
            redis.zcard(keys.leasedTurns),
          ]),
          events.counts(),
        ]);
      const [waitingTurns, delayedTurns, activeTurns] = turnCounts;
      return {
        inboxMessages: Number(inboxMessages ?? 0),
        inboxConversations,
        // The turn sets are disjoint: a conversation with messages in none of them cannot be claimed.
        unscheduledConversations: Math.max(0, inboxConversations - ready - delayed - leased),
        jobs: {
          [QUEUE_NAMES.turns]: { waiting: waitingTurns, delayed: delayedTurns, active: activeTurns },
          [QUEUE_NAMES.events]: eventCounts,
        },
      };
    },
  };

  return {
    inbound,
    inbox,
    status,
    events,
    async close() {},
  };
}
