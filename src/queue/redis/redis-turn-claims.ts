import { defineScript } from "./define-script.js";
import { createKeys } from "./keys.js";
import type { RedisClient } from "./redis-client.js";
import type { JobQueueDepth } from "./sample-job-queues.js";
import {
  CLAIM_TURNS_LUA,
  RENEW_TURN_LEASE_LUA,
  SETTLE_TURN_LUA,
  SWEEP_WAITING_INBOXES_LUA,
} from "./turn-claim-scripts.js";

/** The fairness window of the ready set's rank, ms: the record script and the claims use the same. */
export const TURN_FAIRNESS_WINDOW_MS = 10_000;

export interface RedisTurnClaimsOptions {
  /** A client that waits out reconnects (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** How long a claim holds without renewal, ms; a dead worker's turn is taken over after it. */
  readonly leaseMs: number;
  /** First wait after a failed run, ms; doubled per failure in a row. Default 1,000. */
  readonly failureBackoffMs?: number;
  /** The longest wait after failures, ms. Default 60,000. */
  readonly maxFailureBackoffMs?: number;
  /** Messages waiting this long while their conversation is in no turn set get a turn again, ms. Default 120,000. */
  readonly sweepAfterMs?: number;
}

export interface ClaimedTurns {
  readonly conversations: readonly string[];
  /** When the next delayed turn or lease expiry is due, ms from now; undefined when none is. */
  readonly nextDueInMs: number | undefined;
}

/** How a worker's run of a turn ended. */
export type TurnSettlement =
  | { readonly kind: "done" }
  /** Claimable again at `at` (ms since the epoch): a coalescing window or a busy conversation. */
  | { readonly kind: "retry"; readonly at: number }
  /** The run failed: claimable again after a backoff that doubles per failure in a row. */
  | { readonly kind: "failed" };

export interface RedisTurnClaims {
  /** Leases up to `want` conversations, best rank first, under `token`. */
  claim(want: number, token: string): Promise<ClaimedTurns>;
  /** Extends the lease; false when it is no longer this token's (it expired and was taken over). */
  renew(conversationKey: string, token: string): Promise<boolean>;
  /**
   * Ends the lease with the run's outcome; `settled` false when it was no longer this token's.
   * `readyTurns`: turns claimable now, after this one settled (0: nothing to claim until a wake-up).
   */
  settle(
    conversationKey: string,
    token: string,
    settlement: TurnSettlement,
  ): Promise<{ readonly settled: boolean; readonly failuresInARow: number; readonly readyTurns: number }>;
  /** Gives a turn to messages that waited too long in no turn set; answers how many conversations. */
  sweep(): Promise<number>;
  /** Turn counts (waiting = ready, delayed, active = leased, failed = failing in a row) and the oldest waiting message's arrival. */
  sample(): Promise<JobQueueDepth>;
  /** The channel the record script publishes on when the ready set stops being empty. */
  readonly wakeChannel: string;
}

/**
 * Turns claimed straight from the ready set the ingress's record script
 * writes (see turn-claim-scripts.ts): no job per turn, one script per claim
 * batch, per renewal and per settlement.
 */
export function createRedisTurnClaims(options: RedisTurnClaimsOptions): RedisTurnClaims {
  const { redis, prefix, leaseMs } = options;
  const keys = createKeys(prefix);
  const failureBackoffMs = options.failureBackoffMs ?? 1000;
  const maxFailureBackoffMs = options.maxFailureBackoffMs ?? 60_000;
  const sweepAfterMs = options.sweepAfterMs ?? 120_000;
  const scripts = {
    ssClaimTurns: CLAIM_TURNS_LUA,
    ssRenewTurnLease: RENEW_TURN_LEASE_LUA,
    ssSettleTurn: SETTLE_TURN_LUA,
    ssSweepWaitingInboxes: SWEEP_WAITING_INBOXES_LUA,
  };
  const run = (name: keyof typeof scripts) => defineScript(redis, name, scripts[name]);
  const claimScript = run("ssClaimTurns");
  const renewScript = run("ssRenewTurnLease");
  const settleScript = run("ssSettleTurn");
  const sweepScript = run("ssSweepWaitingInboxes");
  const turnSets = [keys.ready, keys.delayedTurns, keys.leasedTurns] as const;

  return {
    wakeChannel: keys.turnWakeChannel,
    async claim(want, token) {
      const [nextDue, ...conversations] = (await claimScript(
        4,
        ...turnSets,
        keys.turnLeases,
        leaseMs,
        want,
        token,
        prefix,
        TURN_FAIRNESS_WINDOW_MS,
      )) as [number, ...string[]];
      return { conversations, nextDueInMs: nextDue < 0 ? undefined : nextDue };
    },
    async renew(conversationKey, token) {
      const renewed = await renewScript(
        2,
        keys.leasedTurns,
        keys.turnLeases,
        conversationKey,
        token,
        leaseMs,
      );
      return renewed === 1;
    },
    async settle(conversationKey, token, settlement) {
      const outcome =
        settlement.kind === "retry"
          ? ["retry", Math.round(settlement.at)]
          : settlement.kind === "failed"
            ? ["failed", failureBackoffMs, maxFailureBackoffMs]
            : ["done"];
      const [settled, failures, readyTurns] = (await settleScript(
        6,
        ...turnSets,
        keys.turnLeases,
        keys.turnFailures,
        keys.inbox(conversationKey),
        conversationKey,
        token,
        prefix,
        TURN_FAIRNESS_WINDOW_MS,
        ...outcome,
      )) as [number, number, number];
      return { settled: settled === 1, failuresInARow: failures, readyTurns };
    },
    async sweep() {
      return (await sweepScript(
        4,
        keys.inboxes,
        ...turnSets,
        sweepAfterMs,
        1000,
        prefix,
        TURN_FAIRNESS_WINDOW_MS,
      )) as number;
    },
    async sample() {
      const [waiting, delayed, active, failed, oldest] = await Promise.all([
        redis.zcard(keys.ready),
        redis.zcard(keys.delayedTurns),
        redis.zcard(keys.leasedTurns),
        redis.hlen(keys.turnFailures),
        redis.zrange(keys.inboxes, 0, 0, "WITHSCORES"),
      ]);
      return {
        queue: "turns",
        counts: { waiting, delayed, active, failed },
        oldestWaitingAt: oldest[1] === undefined ? undefined : Number(oldest[1]),
      };
    },
  };
}
