import type { JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { tenantOfConversation } from "../../whatsapp/index.js";
import { JOB_NAMES, type TurnJob } from "../job-names.js";
import type { RedisKeys } from "./keys.js";
import { CLAIM_DUE_TURNS_LUA, RELEASE_TURNS_LUA, SWEEP_WAITING_INBOXES_LUA } from "./scripts.js";

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
  /** Messages waiting longer than this with no due turn get one again (see sweepWaitingInboxes), ms. */
  readonly sweepAfterMs?: number;
  /** How often the sweep runs, ms. */
  readonly sweepEveryMs?: number;
  /** Longest one Redis step may take before the round is abandoned (its claims expire and are retried), ms. */
  readonly stepTimeoutMs?: number;
  /** Turns a tenant had scheduled in the last one or two windows of this length set its jobs' priority, ms. */
  readonly fairnessWindowMs?: number;
  readonly onError?: (error: unknown) => void;
}

export interface TurnScheduler {
  /** Starts the background loop (idempotent). */
  start(): void;
  /** Wakes the loop now (the ingress calls it after recording messages). */
  kick(): void;
  /** Moves every due turn once; resolves with how many were scheduled. */
  runOnce(): Promise<number>;
  /** Makes turns due again for messages that waited too long without one; resolves with how many. */
  sweep(): Promise<number>;
  /** Stops the loop after the round in progress (waiting at most a step timeout for it). */
  stop(): Promise<void>;
}

/** A failed turn is retried with backoff before BullMQ keeps it as failed (the sweep then retries later). */
const TURN_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
};

/** BullMQ's lowest priority (2^21 − 1). */
const MAX_TURN_PRIORITY = 2 ** 21 - 1;

type Script = (key: string, ...args: (string | number)[]) => Promise<unknown>;

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`turn scheduler: ${what} took longer than ${ms} ms`)),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Moves due conversations from the ready set (written atomically with each
 * message by the ingress) into BullMQ turn jobs, deduplicated per
 * conversation: at most one waiting turn, plus one more kept while a turn
 * runs. Any number of processes may run it: a claim is a lease on Redis's
 * clock, so a scheduler that dies mid-way only delays those turns by the
 * lease. This keeps BullMQ's job creation (the heaviest Redis work per
 * message) off the webhook's path and batches it. A periodic sweep gives a
 * turn again to messages that waited too long (a turn that failed for good).
 */
export function createTurnScheduler(options: TurnSchedulerOptions): TurnScheduler {
  const { redis, keys, turns } = options;
  const leaseMs = options.leaseMs ?? 5000;
  const batchSize = options.batchSize ?? 50;
  const idlePollMs = options.idlePollMs ?? 50;
  const sweepAfterMs = options.sweepAfterMs ?? 120_000;
  const sweepEveryMs = options.sweepEveryMs ?? 30_000;
  const stepTimeoutMs = options.stepTimeoutMs ?? 2000;
  const fairnessWindowMs = options.fairnessWindowMs ?? 10_000;
  const onError = options.onError ?? (() => {});
  redis.defineCommand("ssClaimDueTurns", { numberOfKeys: 1, lua: CLAIM_DUE_TURNS_LUA });
  redis.defineCommand("ssReleaseTurns", { numberOfKeys: 1, lua: RELEASE_TURNS_LUA });
  redis.defineCommand("ssSweepWaitingInboxes", { numberOfKeys: 2, lua: SWEEP_WAITING_INBOXES_LUA });
  const script = (name: string) => {
    const run = (redis as unknown as Record<string, Script>)[name] as Script;
    return run.bind(redis) as Script;
  };
  const claim = script("ssClaimDueTurns");
  const release = script("ssReleaseTurns");
  const sweepScript = script("ssSweepWaitingInboxes") as (
    inboxes: string,
    ready: string,
    ...args: number[]
  ) => Promise<number>;

  const moveBatch = async (): Promise<number> => {
    const claimed = (await bounded(
      claim(keys.ready, leaseMs, batchSize),
      stepTimeoutMs,
      "claim",
    )) as string[];
    const [lease, ...conversations] = claimed;
    if (lease === undefined || conversations.length === 0) return 0;
    const priorities = await bounded(turnPriorities(conversations), stepTimeoutMs, "turn priorities");
    const jobs = conversations.map((conversationKey, index) => ({
      name: JOB_NAMES.turn,
      data: { tenantId: tenantOfConversation(conversationKey), conversationKey },
      opts: {
        ...TURN_JOB_OPTIONS,
        priority: priorities[index] ?? MAX_TURN_PRIORITY,
        deduplication: { id: conversationKey, keepLastIfActive: true },
      },
    }));
    await bounded(turns.addBulk(jobs), stepTimeoutMs, "creating turn jobs");
    await bounded(release(keys.ready, lease, ...conversations), stepTimeoutMs, "release");
    return conversations.length;
  };

  /**
   * Fair shares between tenants: a turn job's BullMQ priority (lower runs
   * first) is 2 + the turns its tenant had scheduled in this fairness window
   * and the one before, so a tenant flooding thousands of turns queues behind
   * a quiet tenant's few instead of in front of them. Conversations in
   * checkout/payment or waiting for a human (their state's `priorityUntil` is
   * in the future, or mode "human") get priority 1.
   */
  const turnPriorities = async (conversations: readonly string[]): Promise<number[]> => {
    const now = Date.now();
    const window = Math.floor(now / fairnessWindowMs);
    const pipeline = redis.pipeline();
    for (const conversationKey of conversations) {
      const tenant = tenantOfConversation(conversationKey);
      pipeline.incr(keys.turnLoad(tenant, window));
      pipeline.pexpire(keys.turnLoad(tenant, window), 2 * fairnessWindowMs);
      pipeline.get(keys.turnLoad(tenant, window - 1));
      pipeline.hmget(keys.conversationState(conversationKey), "mode", "priorityUntil");
    }
    const results = (await pipeline.exec()) ?? [];
    return conversations.map((_, index) => {
      const at = index * 4;
      const [loadError, current] = results[at] ?? [];
      const [, previous] = results[at + 2] ?? [];
      const [, state] = results[at + 3] ?? [];
      if (loadError) throw loadError;
      const [mode, priorityUntil] = (state as (string | null)[] | undefined) ?? [];
      if (mode === "human" || Number(priorityUntil ?? 0) > now) return 1;
      return Math.min(MAX_TURN_PRIORITY, 2 + Number(current ?? 0) + Number(previous ?? 0));
    });
  };

  const runOnce = async (): Promise<number> => {
    let total = 0;
    for (let moved = await moveBatch(); moved > 0; moved = moved === batchSize ? await moveBatch() : 0) {
      total += moved;
    }
    return total;
  };

  const sweep = () =>
    bounded(sweepScript(keys.inboxes, keys.ready, sweepAfterMs, 1000), stepTimeoutMs, "sweep");

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let kicked = false;
  let lastSweep = 0;

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
        if (redis.status === "ready") {
          if (Date.now() - lastSweep >= sweepEveryMs) {
            lastSweep = Date.now();
            await sweep();
          }
          await runOnce();
        }
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
    sweep,
    async stop() {
      running = false;
      wake?.();
      // A round blocked on a dead connection ends by its step timeout; never wait longer than that.
      await Promise.race([loop, new Promise((resolve) => setTimeout(resolve, stepTimeoutMs * 3).unref())]);
    },
  };
}
