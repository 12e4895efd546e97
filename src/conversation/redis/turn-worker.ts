import { randomUUID } from "node:crypto";
import type { Logger } from "../../observability/index.js";
import type { JobHandler, JobOutcome, QueueJob, TurnJob } from "../../queue/index.js";
import { createRedisTurnClaims, type RedisClient, type TurnSettlement } from "../../queue/redis/index.js";
import { tenantOfConversation } from "../../whatsapp/index.js";
import { keepLeaseAlive } from "../lease-renewal.js";

/** Where the turn worker runs. */
export interface TurnWorkerDeps {
  /** A client that waits out reconnects (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: RedisClient;
  /** REDIS_PREFIX: the same as the ingress's, so the worker sees its ready set. */
  readonly prefix: string;
  readonly logger: Logger;
}

/** How the turn worker runs; every field has a default. */
export interface TurnWorkerOptions {
  /** Turns in flight in this process (different conversations); default 16. */
  readonly concurrency?: number;
  /** A claim's lease, ms, renewed every third of it while the turn runs; a dead worker's turns are taken over after it. Default 30,000. */
  readonly lockTtlMs?: number;
  /** Longest sleep between looks at the ready set when no wake-up came, ms; default 1,000. */
  readonly idlePollMs?: number;
  /** How often this worker looks for messages left with no turn (see sweep), ms; default 30,000. */
  readonly sweepEveryMs?: number;
  /** First wait after a failed run, ms, doubled per failure in a row up to a minute; default 1,000. */
  readonly failureBackoffMs?: number;
}

export interface TurnWorker {
  /** Stops claiming and waits for the running turns (force: stops waiting; their leases lapse and another worker takes them over). */
  close(force?: boolean): Promise<void>;
}

/** Most conversations claimed in one round trip. */
const CLAIM_BATCH = 50;

/**
 * The turn worker: claims due conversations straight from the ready set the
 * ingress writes (no job per turn; see queue/redis/redis-turn-claims.ts),
 * runs each through `handler` (the turn job handler), then settles the
 * claim with the outcome: done, claimable again at a time (coalescing, a
 * busy conversation), or failed (backoff). A claim is a lease renewed while
 * the turn runs; a worker that dies leaves its leases to lapse, and the next
 * claim by any worker makes those turns ready again, where the turn journal
 * finishes what the dead run began. Idle workers sleep until the record
 * script publishes that the ready set stopped being empty, or a delayed turn
 * comes due.
 */
export function createTurnWorker(
  deps: TurnWorkerDeps,
  handler: JobHandler<TurnJob>,
  options: TurnWorkerOptions = {},
): TurnWorker {
  const { redis, logger } = deps;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const leaseMs = options.lockTtlMs ?? 30_000;
  const idlePollMs = options.idlePollMs ?? 1000;
  const sweepEveryMs = options.sweepEveryMs ?? 30_000;
  const claims = createRedisTurnClaims({
    redis,
    prefix: deps.prefix,
    leaseMs,
    ...(options.failureBackoffMs === undefined ? {} : { failureBackoffMs: options.failureBackoffMs }),
  });
  const running = new Map<string, Promise<void>>();
  let open = true;
  let wake: (() => void) | undefined;
  let kicked = false;
  // The loop passed over a look at the ready set because all `concurrency` slots were running.
  let skippedWhileFull = false;
  const kick = () => {
    kicked = true;
    wake?.();
  };

  // A connection (re)established looks at once, instead of after an idle poll.
  redis.on("ready", kick);
  // Wake-ups come on a connection of their own (a subscribed client can send nothing else).
  const subscriber = redis.duplicate();
  subscriber.on("error", () => {});
  subscriber.on("message", kick);
  // Turns made ready before the subscription took effect woke nobody: look once it has.
  subscriber.subscribe(claims.wakeChannel).then(kick, (error: unknown) => {
    logger.warn({ err: error }, "turn worker could not subscribe to wake-ups; it polls instead");
  });

  const settlementOf = (outcome: JobOutcome | undefined, conversationKey: string): TurnSettlement => {
    if (outcome === undefined || outcome.kind === "done") return { kind: "done" };
    if (outcome.kind === "retry") return { kind: "retry", at: outcome.at };
    logger.error({ err: outcome.error, tenant: tenantOfConversation(conversationKey) }, "turn gave up");
    return { kind: "failed" };
  };

  /** Runs the turn and settles it; answers whether to claim again at once (more may be claimable). */
  const runTurn = async (conversationKey: string, token: string): Promise<boolean> => {
    const tenantId = tenantOfConversation(conversationKey);
    const job: QueueJob<TurnJob> = {
      id: conversationKey,
      data: { tenantId, conversationKey },
      updateData: () => Promise.reject(new Error("a turn claim carries no data to update")),
    };
    const stopRenewing = keepLeaseAlive(
      async () => {
        if (!(await claims.renew(conversationKey, token))) {
          logger.warn({ tenant: tenantId }, "a turn outlived its lease; another worker may take it over");
        }
      },
      leaseMs,
      (error) => logger.warn({ err: error }, "could not renew a turn lease"),
    );
    let settlement: TurnSettlement;
    try {
      settlement = settlementOf((await handler(job)) ?? undefined, conversationKey);
    } catch (error) {
      settlement = { kind: "failed" };
      logger.warn({ err: error, tenant: tenantId }, "turn failed");
    } finally {
      stopRenewing();
    }
    try {
      const { failuresInARow, readyTurns } = await claims.settle(conversationKey, token, settlement);
      if (failuresInARow >= 5) {
        logger.error({ tenant: tenantId, failuresInARow }, "a conversation's turns keep failing");
      }
      // A done turn with nothing ready needs no claim now: the next message's wake-up brings one. A
      // retry or a failure was delayed, and a claim answers when the soonest delayed turn is due.
      return settlement.kind !== "done" || readyTurns > 0;
    } catch (error) {
      // The lease lapses and the turn is claimed again; the journal makes the rerun answer nothing twice.
      logger.warn({ err: error, tenant: tenantId }, "could not settle a turn; it runs again after its lease");
      return true;
    }
  };

  const start = (conversationKey: string, token: string) => {
    const done = runTurn(conversationKey, token)
      .catch(() => true)
      .then((claimAgain) => {
        running.delete(conversationKey);
        // Wake-ups that came while every slot was busy were not acted on: look now that one is free.
        if (claimAgain || skippedWhileFull) {
          skippedWhileFull = false;
          kick();
        }
      });
    running.set(conversationKey, done);
  };

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

  let lastSweep = 0;
  const loop = async () => {
    while (open) {
      kicked = false;
      let sleepMs = idlePollMs;
      try {
        if (redis.status === "ready") {
          if (Date.now() - lastSweep >= sweepEveryMs) {
            lastSweep = Date.now();
            const swept = await claims.sweep();
            if (swept > 0) logger.warn({ conversations: swept }, "messages waited with no turn; given one");
          }
          const free = concurrency - running.size;
          if (free === 0) skippedWhileFull = true;
          if (free > 0) {
            const want = Math.min(free, CLAIM_BATCH);
            const token = randomUUID();
            const claimed = await claims.claim(want, token);
            for (const conversationKey of claimed.conversations) start(conversationKey, token);
            if (claimed.conversations.length === want) continue;
            if (claimed.nextDueInMs !== undefined) sleepMs = Math.min(sleepMs, claimed.nextDueInMs + 1);
          }
        }
      } catch (error) {
        logger.warn({ err: error }, "turn worker could not claim turns");
      }
      if (open && !kicked) await sleep(sleepMs);
    }
  };
  const looping = loop();

  return {
    async close(force = false) {
      open = false;
      wake?.();
      await looping;
      if (!force) await Promise.allSettled([...running.values()]);
      redis.off("ready", kick);
      subscriber.disconnect();
    },
  };
}
