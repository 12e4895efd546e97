import type { InboundEvent } from "../../whatsapp/index.js";
import { QUEUE_NAMES } from "../job-names.js";
import { defineScript } from "./define-script.js";
import { EVENT_DEPTH_LUA, RECORD_EVENTS_LUA } from "./event-scripts.js";
import type { RedisClient } from "./redis-client.js";
import type { JobQueueDepth } from "./sample-job-queues.js";

/**
 * Keys of the events stream (prefix = REDIS_PREFIX). None is a name BullMQ's
 * old `events` queue used under `{p}:events:`, so leftovers of it never clash.
 *
 *   {p}:events:stream           stream  events waiting or being handled; consumer group EVENTS_GROUP
 *   {p}:events:seen:{dedupeId}  string  the event was recorded; expires after the dedupe TTL
 *   {p}:events:retry            zset    "attempts|entry id|event JSON" → when it is due again (Redis's clock, ms)
 *   {p}:events:dead             stream  events failed for good (7 days, at most 10,000)
 */
export function eventStreamKeys(prefix: string) {
  return {
    stream: `${prefix}:events:stream`,
    seenPrefix: `${prefix}:events:seen:`,
    retry: `${prefix}:events:retry`,
    dead: `${prefix}:events:dead`,
  };
}

/** The consumer group every events worker reads through. */
export const EVENTS_GROUP = "events";

/** An entry of the stream, or of the dead-letter stream. */
export interface EventStreamEntry {
  readonly id: string;
  readonly event: InboundEvent;
  /** Attempts spent so far (thrown errors; waits spend none). */
  readonly attempts: number;
  /** Dead-letter entries: why the event failed for good. */
  readonly error?: string;
}

/** Entries of each state, named as BullMQ names its job states (prioritized is always 0). */
export type EventCounts = Readonly<
  Record<"waiting" | "active" | "delayed" | "prioritized" | "failed", number>
>;

export interface RedisEventStream {
  /** Records events (one script, one round trip): "new" for each first seen within the dedupe TTL. */
  record(events: readonly InboundEvent[]): Promise<("new" | "duplicate")[]>;
  counts(): Promise<EventCounts>;
  /** Depth and oldest undelivered entry's time, for the queue metrics (see sampleJobQueues). */
  sampleDepth(): Promise<JobQueueDepth>;
  /** Entries in the stream (waiting or being handled), oldest first. */
  entries(limit?: number): Promise<EventStreamEntry[]>;
  /** Events failed for good, oldest first. */
  deadLetters(limit?: number): Promise<EventStreamEntry[]>;
}

export interface RedisEventStreamOptions {
  readonly redis: RedisClient;
  readonly prefix: string;
  /** How long event ids are remembered, seconds. */
  readonly dedupeTtlSeconds: number;
}

const RECORD = "ssRecordEvents";
const DEPTH = "ssEventDepth";

/** An entry as Redis returns it: its id and its flat field list. */
export type RawStreamEntry = [id: string, fields: string[]];

export function parseStreamEntry([id, fields]: RawStreamEntry): EventStreamEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] as string, fields[i + 1] as string);
  const error = map.get("error");
  return {
    id,
    event: JSON.parse(map.get("e") ?? "null") as InboundEvent,
    attempts: Number(map.get("a") ?? 0),
    ...(error === undefined ? {} : { error }),
  };
}

/** ms since the epoch of a stream id ("1700000000000-0"). */
export const timeOfStreamId = (id: string): number => Number(id.slice(0, id.indexOf("-")));

/**
 * The ingress side of the events stream, and its depth. Replaces one BullMQ
 * `add` per status (several commands and a job hash each) with one script per
 * group-commit flush: a SET NX mark and an XADD per event.
 */
export function createRedisEventStream(options: RedisEventStreamOptions): RedisEventStream {
  const { redis } = options;
  const keys = eventStreamKeys(options.prefix);
  const recordEvents = defineScript(redis, RECORD, RECORD_EVENTS_LUA);
  const eventDepth = defineScript(redis, DEPTH, EVENT_DEPTH_LUA);

  const counts = async (): Promise<EventCounts & { oldestId: string }> => {
    const [waiting, active, delayed, failed, oldestId] = (await eventDepth(
      3,
      keys.stream,
      keys.retry,
      keys.dead,
      EVENTS_GROUP,
    )) as [number, number, number, number, string];
    return { waiting, active, delayed, prioritized: 0, failed, oldestId };
  };
  const read = async (key: string, limit: number) =>
    ((await redis.xrange(key, "-", "+", "COUNT", limit)) as RawStreamEntry[]).map(parseStreamEntry);

  return {
    // Not an async function: the command is written before the caller's next await (a flush issues
    // this and the messages' script together, one round trip).
    record(events) {
      if (events.length === 0) return Promise.resolve([]);
      const args: string[] = [];
      for (const event of events) args.push(event.dedupeId, JSON.stringify(event));
      return recordEvents(
        1,
        keys.stream,
        options.dedupeTtlSeconds,
        keys.seenPrefix,
        EVENTS_GROUP,
        ...args,
      ).then((codes) => (codes as number[]).map((code) => (code === 1 ? "new" : "duplicate")));
    },
    async counts() {
      const { oldestId: _, ...byState } = await counts();
      return byState;
    },
    async sampleDepth() {
      const { oldestId, ...byState } = await counts();
      return {
        queue: QUEUE_NAMES.events,
        counts: byState,
        oldestWaitingAt: oldestId === "" ? undefined : timeOfStreamId(oldestId),
      };
    },
    entries: (limit = 10_000) => read(keys.stream, limit),
    deadLetters: (limit = 10_000) => read(keys.dead, limit),
  };
}
