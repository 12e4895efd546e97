import type { JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { JOB_NAMES, type TurnJob } from "../job-names.js";
import type { RedisKeys } from "./keys.js";
import { tenantOfConversation } from "./keys.js";
import { CLAIM_DUE_TURNS_LUA, RELEASE_TURNS_LUA } from "./scripts.js";

export interface TurnSchedulerOptions {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly turns: Queue<TurnJob>;
  /** How long a claimed conversation stays hidden from other schedulers, ms. */
  readonly leaseMs?: number;
  /** Most conversations moved per round trip. */
  readonly batchSize?: number;
  /** How often an idle scheduler looks for due turns written by other processes, ms. */
  readonly idlePollMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface TurnScheduler {
  /** Starts the background loop (idempotent). */
  start(): void;
  /** Wakes the loop now (the ingress calls it after recording messages). */
  kick(): void;
  /** Moves every due turn once; resolves with how many were scheduled. */
  runOnce(): Promise<number>;
  /** Stops the loop after the round in progress. */
  stop(): Promise<void>;
}

const KEEP_FAILED = { age: 7 * 24 * 3600, count: 10_000 };
type ScriptRunner = (numberOfKeys: number, ...keysAndArgs: (string | number)[]) => Promise<unknown>;

/**
 * Moves due conversations from the ready set (written atomically with each
 * message by the ingress) into BullMQ turn jobs, deduplicated per
 * conversation: at most one waiting turn, plus one more kept while a turn
 * runs. Any number of processes may run it: a claim is a lease, so a
 * scheduler that dies mid-way only delays those turns by the lease. This
 * keeps BullMQ's job creation (the heaviest Redis work per message) off the
 * webhook's path and batches it.
 */
export function createTurnScheduler(options: TurnSchedulerOptions): TurnScheduler {
  const { redis, keys, turns } = options;
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 5000;
  const batchSize = options.batchSize ?? 200;
  const idlePollMs = options.idlePollMs ?? 250;
  const onError = options.onError ?? (() => {});
  redis.defineCommand("ssClaimDueTurns", { numberOfKeys: 1, lua: CLAIM_DUE_TURNS_LUA });
  redis.defineCommand("ssReleaseTurns", { numberOfKeys: 1, lua: RELEASE_TURNS_LUA });
  const scripts = redis as unknown as Record<string, ScriptRunner>;
  const claim = (scripts.ssClaimDueTurns as ScriptRunner).bind(redis) as unknown as (
    key: string,
    ...args: (string | number)[]
  ) => Promise<string[]>;
  const release = (scripts.ssReleaseTurns as ScriptRunner).bind(redis) as unknown as (
    key: string,
    ...args: (string | number)[]
  ) => Promise<number>;

  const moveBatch = async (): Promise<number> => {
    const [lease, ...conversations] = await claim(keys.ready, now(), leaseMs, batchSize);
    if (lease === undefined || conversations.length === 0) return 0;
    await turns.addBulk(
      conversations.map((conversationKey) => ({
        name: JOB_NAMES.turn,
        data: { tenantId: tenantOfConversation(conversationKey), conversationKey },
        opts: {
          deduplication: { id: conversationKey, keepLastIfActive: true },
          removeOnComplete: true,
          removeOnFail: KEEP_FAILED,
        } satisfies JobsOptions,
      })),
    );
    await release(keys.ready, lease, ...conversations);
    return conversations.length;
  };

  const runOnce = async (): Promise<number> => {
    let total = 0;
    for (let moved = await moveBatch(); moved > 0; moved = moved === batchSize ? await moveBatch() : 0) {
      total += moved;
    }
    return total;
  };

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let kicked = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const runLoop = async () => {
    while (running) {
      kicked = false;
      try {
        if (redis.status === "ready") await runOnce();
      } catch (error) {
        onError(error);
      }
      if (running && !kicked) await sleep(idlePollMs);
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = runLoop();
    },
    kick() {
      kicked = true;
      wake?.();
    },
    runOnce,
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
