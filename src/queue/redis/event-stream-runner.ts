import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { InboundEvent } from "../../whatsapp/index.js";
import type { JobHandler } from "../job-outcome.js";
import type { QueueJob } from "../ports.js";
import { defineScript } from "./define-script.js";
import {
  ACK_EVENT_LUA,
  DEAD_LETTER_EVENT_LUA,
  DELAY_EVENT_LUA,
  PROMOTE_DUE_EVENTS_LUA,
  TAKE_OVER_EVENTS_LUA,
} from "./event-scripts.js";
import type { RedisClient } from "./redis-client.js";
import {
  EVENTS_GROUP,
  type EventStreamEntry,
  eventStreamKeys,
  parseStreamEntry,
  type RawStreamEntry,
} from "./redis-event-stream.js";

export interface EventStreamRunnerOptions {
  /** A client that waits out reconnects (`maxRetriesPerRequest: null`); owned by the caller. Duplicated for the blocking reads. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** Events in flight in this process; default 16. */
  readonly concurrency?: number;
  /** Longest a read blocks waiting for new entries, ms; default 2,000. */
  readonly blockMs?: number;
  /** How often due retries are moved back and dead consumers' entries looked for, ms; default 500. */
  readonly maintenanceIntervalMs?: number;
  /** An entry idle this long in another consumer's hands is taken over, ms; default 30,000. */
  readonly claimIdleMs?: number;
  /** Attempts (thrown errors) before an event is dead-lettered; default 5. */
  readonly maxAttempts?: number;
  /** First retry delay after a thrown error, ms, doubled each attempt; default 1,000. */
  readonly backoffMs?: number;
  /** Takeovers of one entry (its worker died while running it) before it is dead-lettered; default 5. */
  readonly maxStalls?: number;
  /** An event failed: `final` when it was dead-lettered, else it is retried. Also the loop's own errors (no event). */
  readonly onError?: (
    error: unknown,
    failed?: { readonly event: InboundEvent; readonly final: boolean },
  ) => void;
}

export interface EventStreamRunner {
  /** This worker's consumer name in the group. */
  readonly consumer: string;
  /** Stops reading and waits for the events in flight (force: leaves them pending, for another worker to take over). */
  close(force?: boolean): Promise<void>;
}

const SCRIPTS = {
  ssAckEvent: ACK_EVENT_LUA,
  ssDelayEvent: DELAY_EVENT_LUA,
  ssDeadLetterEvent: DEAD_LETTER_EVENT_LUA,
  ssPromoteDueEvents: PROMOTE_DUE_EVENTS_LUA,
  ssTakeOverEvents: TAKE_OVER_EVENTS_LUA,
} as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Runs a JobHandler over the events stream through a consumer group, with
 * the same outcomes as a BullMQ worker: done (XACK + XDEL); retry at a time
 * (no attempt spent); a thrown error spends an attempt and retries with
 * exponential backoff, then after `maxAttempts` the event is dead-lettered
 * and reported; give_up dead-letters at once.
 *
 * Retries wait in a sorted set, not in the stream: a stream cannot hold an
 * entry back until a time, and leaving it pending until its idle time passed
 * would tie the retry to the takeover timer. The delay script moves the entry
 * (ack, delete, ZADD) atomically; every worker's maintenance tick moves due
 * members back to the stream as new entries (ZRANGEBYSCORE, XADD, ZREM, one
 * script), so a retry runs once whoever moves it, at most one tick late.
 *
 * A worker that dies leaves its entries pending; after `claimIdleMs` another
 * worker claims them (XAUTOCLAIM). A live worker keeps its own in-flight
 * entries fresh (XCLAIM to itself, JUSTID), so a slow handler is not taken
 * over. Handlers must be idempotent (a takeover after a lost ack runs an event
 * again); the delivery status store is.
 */
export function createEventStreamRunner(
  options: EventStreamRunnerOptions,
  handler: JobHandler<InboundEvent>,
): EventStreamRunner {
  const { redis } = options;
  const keys = eventStreamKeys(options.prefix);
  const concurrency = options.concurrency ?? 16;
  const blockMs = options.blockMs ?? 2000;
  const maintenanceIntervalMs = options.maintenanceIntervalMs ?? 500;
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? 1000;
  const maxDeliveries = 1 + (options.maxStalls ?? 5);
  const onError = options.onError ?? (() => {});
  const consumer = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const script = (name: keyof typeof SCRIPTS) => defineScript(redis, name, SCRIPTS[name]);
  const settleKeys = [keys.stream, keys.retry, keys.dead] as const;
  const ack = script("ssAckEvent");
  const delay = script("ssDelayEvent");
  const deadLetter = script("ssDeadLetterEvent");
  const promoteDue = script("ssPromoteDueEvents");
  const takeOver = script("ssTakeOverEvents");
  // BLOCK holds its connection for up to blockMs: reads get their own.
  const reader = redis.duplicate();
  reader.on("error", () => {});

  let running = true;
  const inFlight = new Map<string, Promise<void>>();
  let slotFreed: (() => void) | undefined;
  const freeSlots = () => concurrency - inFlight.size;

  const settle = async (
    entry: EventStreamEntry,
    json: string,
    outcome: Awaited<ReturnType<typeof handler>>,
  ) => {
    if (outcome?.kind === "retry") {
      const waitMs = Math.max(0, outcome.at - Date.now());
      await delay(3, ...settleKeys, EVENTS_GROUP, entry.id, waitMs, entry.attempts, json);
    } else if (outcome?.kind === "give_up") {
      await deadLetter(3, ...settleKeys, EVENTS_GROUP, entry.id, entry.attempts, json, outcome.error.message);
      onError(outcome.error, { event: entry.event, final: true });
    } else {
      await ack(1, keys.stream, EVENTS_GROUP, entry.id);
    }
  };
  const failed = async (entry: EventStreamEntry, json: string, error: unknown) => {
    const attempts = entry.attempts + 1;
    const final = attempts >= maxAttempts;
    if (final) {
      const reason = error instanceof Error ? error.message : String(error);
      await deadLetter(3, ...settleKeys, EVENTS_GROUP, entry.id, attempts, json, reason);
    } else {
      const waitMs = backoffMs * 2 ** (attempts - 1);
      await delay(3, ...settleKeys, EVENTS_GROUP, entry.id, waitMs, attempts, json);
    }
    onError(error, { event: entry.event, final });
  };

  const runOne = async (raw: RawStreamEntry) => {
    let entry: EventStreamEntry;
    try {
      entry = parseStreamEntry(raw);
    } catch (error) {
      // Unreadable: it can never succeed, so it is kept for a person to look at.
      await deadLetter(3, ...settleKeys, EVENTS_GROUP, raw[0], 0, String(raw[1]), "unreadable entry");
      onError(error);
      return;
    }
    const json = JSON.stringify(entry.event);
    const job: QueueJob<InboundEvent> = {
      id: entry.id,
      data: entry.event,
      updateData: () => Promise.reject(new Error("events stream entries cannot be rewritten")),
    };
    let outcome: Awaited<ReturnType<typeof handler>>;
    try {
      outcome = await handler(job);
    } catch (error) {
      await failed(entry, json, error);
      return;
    }
    await settle(entry, json, outcome);
  };

  const start = (raw: RawStreamEntry) => {
    // A settle that cannot reach Redis leaves the entry pending: it is taken over after claimIdleMs.
    const run = runOne(raw)
      .catch((error: unknown) => onError(error))
      .finally(() => {
        inFlight.delete(raw[0]);
        slotFreed?.();
      });
    inFlight.set(raw[0], run);
  };

  const ensureGroup = async () => {
    try {
      await redis.xgroup("CREATE", keys.stream, EVENTS_GROUP, "0", "MKSTREAM");
    } catch (error) {
      if (!String(error).includes("BUSYGROUP")) throw error;
    }
  };

  const readLoop = async () => {
    let failures = 0;
    while (running) {
      if (freeSlots() <= 0) {
        await new Promise<void>((resolve) => {
          slotFreed = resolve;
        });
        slotFreed = undefined;
        continue;
      }
      try {
        const answer = (await reader.xreadgroup(
          "GROUP",
          EVENTS_GROUP,
          consumer,
          "COUNT",
          freeSlots(),
          "BLOCK",
          blockMs,
          "STREAMS",
          keys.stream,
          ">",
        )) as [string, RawStreamEntry[]][] | null;
        failures = 0;
        for (const raw of answer?.[0]?.[1] ?? []) start(raw);
      } catch (error) {
        if (!running) break;
        // The stream or its group is gone (a flush, a new Redis): recreate it; else wait and read again.
        if (String(error).includes("NOGROUP")) await ensureGroup().catch(onError);
        else {
          onError(error);
          failures += 1;
          await sleep(Math.min(5000, 100 * 2 ** failures));
        }
      }
    }
  };

  let takeOverCursor = "0-0";
  let lastKeptAlive = Date.now();
  const maintain = async () => {
    await promoteDue(3, ...settleKeys, 100);
    const now = Date.now();
    if (inFlight.size > 0 && now - lastKeptAlive >= claimIdleMs / 3) {
      lastKeptAlive = now;
      await redis.xclaim(keys.stream, EVENTS_GROUP, consumer, 0, ...inFlight.keys(), "JUSTID");
    }
    const free = freeSlots();
    if (free <= 0) return;
    const [next, claimed] = (await takeOver(
      3,
      ...settleKeys,
      EVENTS_GROUP,
      consumer,
      claimIdleMs,
      free,
      takeOverCursor,
      maxDeliveries,
    )) as [string, RawStreamEntry[]];
    takeOverCursor = next;
    for (const raw of claimed) if (!inFlight.has(raw[0])) start(raw);
  };
  let maintaining: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    maintaining = maintaining.then(() => (running ? maintain().catch(onError) : undefined));
  }, maintenanceIntervalMs);
  timer.unref();

  const reading = ensureGroup()
    .catch(onError)
    .then(() => readLoop());

  return {
    consumer,
    async close(force = false) {
      if (!running) return;
      running = false;
      clearInterval(timer);
      reader.disconnect();
      slotFreed?.();
      await reading;
      await maintaining;
      if (force) return;
      await Promise.all(inFlight.values());
      // A consumer with nothing pending is forgotten, so the group lists only live or crashed ones
      // (deleting one with pending entries would make them unclaimable).
      const pending = (await redis
        .xpending(keys.stream, EVENTS_GROUP, "-", "+", 1, consumer)
        .catch(() => [1])) as unknown[];
      if (pending.length === 0)
        await redis.xgroup("DELCONSUMER", keys.stream, EVENTS_GROUP, consumer).catch(() => {});
    },
  };
}
