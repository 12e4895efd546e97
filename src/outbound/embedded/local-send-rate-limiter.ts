import type { SendRateLimiter } from "../ports.js";
import { resolveSendRateLimitsByNumber, type SendRateLimitOptions } from "../send-rate-limits.js";

export interface LocalSendRateLimiterOptions extends SendRateLimitOptions {
  /** Clock, ms since the epoch, fractional allowed; default performance's (sub-ms, like Redis's TIME). */
  readonly now?: () => number;
}

/** Passed theoretical arrival times are forgotten every this many reservations, so memory stays bounded. */
const PRUNE_EVERY = 1024;

/**
 * SendRateLimiter in this process's memory, for embedded mode where one
 * process does every send: the same GCRA arithmetic, options and defaults as
 * the Redis script (rate-limit-script.ts), so both pace alike.
 *
 * Limits restart from zero after a process restart: a restarted gateway may
 * send a number's burst and each recipient's pair burst again at once. Meta
 * counts across the restart, so a restart in the middle of a flood can draw
 * a few 429-class answers, which the sender waits out as usual.
 */
export function createLocalSendRateLimiter(options: LocalSendRateLimiterOptions = {}): SendRateLimiter {
  const limitsOf = resolveSendRateLimitsByNumber(options);
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const numberTats = new Map<string, number>();
  const pairTats = new Map<string, number>();
  let reservations = 0;
  const prune = (at: number) => {
    for (const tats of [numberTats, pairTats]) {
      for (const [key, tat] of tats) if (tat <= at) tats.delete(key);
    }
  };
  // The script stores each TAT as "%.3f".
  const stored = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    async reserve(phoneNumberId, customer, horizonMs) {
      const limits = limitsOf(phoneNumberId);
      const at = now();
      const pairKey = `${phoneNumberId}:${customer}`;
      const numberTat = Math.max(at, numberTats.get(phoneNumberId) ?? 0);
      const pairTat = Math.max(at, pairTats.get(pairKey) ?? 0);
      const slot = Math.max(at, numberTat - limits.numberTolerance);
      const pairReady = pairTat - limits.pairTolerance;
      // Held back by its pair limit: reserve nothing, so one busy recipient holds up no other.
      if (pairReady > slot) return { granted: false, waitMs: Math.ceil(pairReady - at) };
      const wait = slot - at;
      if (wait > (horizonMs ?? limits.horizonMs)) return { granted: false, waitMs: Math.ceil(wait) };
      numberTats.set(phoneNumberId, stored(Math.max(numberTat, slot) + limits.numberInterval));
      pairTats.set(pairKey, stored(Math.max(pairTat, slot) + limits.pairInterval));
      if (++reservations % PRUNE_EVERY === 0) prune(at);
      return { granted: true, waitMs: Math.ceil(wait) };
    },
  };
}
