import { createKeyedTokenBuckets } from "./token-bucket.js";
import { customerKey } from "./validate-send.js";

/** Meta's limits on sends, each off unless given. */
export interface SendLimitOptions {
  /** Throughput per phone number id: `mps` messages/s (default 80), a bucket of `mps` tokens refilled over 1 s. */
  readonly throughput?: { readonly mps?: number };
  /**
   * Pair rate limit (one business number to one customer): a bucket of
   * `burst` tokens (default 10) gaining one every `refillEveryMs` (default 6000).
   */
  readonly pair?: { readonly burst?: number; readonly refillEveryMs?: number };
}

/** Which limit a send broke, as Meta's error code. */
export type LimitVerdict = 130429 | 131056 | undefined;

export interface SendLimits {
  /** Counts one send from `phoneNumberId` to `address`; says which limit, if any, refuses it. */
  take(phoneNumberId: string, address: string): LimitVerdict;
  clear(): void;
}

export const DEFAULT_THROUGHPUT_MPS = 80;
export const DEFAULT_PAIR_BURST = 10;
export const DEFAULT_PAIR_REFILL_MS = 6000;

/** Throughput and pair limits, checked in that order, as Meta applies them. */
export function createSendLimits(options: SendLimitOptions, now: () => number): SendLimits {
  const mps = options.throughput?.mps ?? DEFAULT_THROUGHPUT_MPS;
  const throughput =
    options.throughput === undefined
      ? undefined
      : createKeyedTokenBuckets({ capacity: mps, refillTokens: mps, refillEveryMs: 1000, now });
  const pair =
    options.pair === undefined
      ? undefined
      : createKeyedTokenBuckets({
          capacity: options.pair.burst ?? DEFAULT_PAIR_BURST,
          refillTokens: 1,
          refillEveryMs: options.pair.refillEveryMs ?? DEFAULT_PAIR_REFILL_MS,
          now,
        });
  return {
    take(phoneNumberId, address) {
      if (throughput !== undefined && !throughput.tryTake(phoneNumberId)) return 130429;
      if (pair !== undefined && !pair.tryTake(`${phoneNumberId}\u0000${customerKey(address)}`)) return 131056;
      return undefined;
    },
    clear() {
      throughput?.clear();
      pair?.clear();
    },
  };
}
