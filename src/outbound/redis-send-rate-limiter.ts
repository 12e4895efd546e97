import type { Redis } from "ioredis";
import { createOutboundKeys } from "./outbound-keys.js";
import type { SendRateLimiter } from "./ports.js";
import { RESERVE_SEND_SLOT_LUA } from "./rate-limit-script.js";

/** Meta's pair limit as the sender paces it. */
export interface PairLimit {
  /** Sends allowed at once to one recipient (default 10, as Meta allows short bursts). */
  readonly burst: number;
  /** One more send per this many ms (default 6,000: Meta's one message per 6 s). */
  readonly intervalMs: number;
}

export interface RedisSendRateLimiterOptions {
  readonly redis: Redis;
  readonly prefix: string;
  /** Sends per second per phone number id; default 80 (Meta's standard tier). */
  readonly throughputMps?: number;
  /**
   * Sends one number may make at once before pacing starts; default mps ÷ 10.
   * Smaller than Meta's bucket (a second's worth) on purpose: the rest is
   * headroom for network jitter, which bunches sends up on Meta's side.
   */
  readonly throughputBurst?: number;
  readonly pairLimit?: Partial<PairLimit>;
  /** Slots further away than this are not reserved (the job is delayed instead), ms; default 1,000. */
  readonly horizonMs?: number;
}

export const DEFAULT_THROUGHPUT_MPS = 80;
export const DEFAULT_PAIR_LIMIT: PairLimit = { burst: 10, intervalMs: 6000 };

type ReserveScript = (numberKey: string, pairKey: string, ...args: number[]) => Promise<[number, number]>;

/** The Redis adapter of SendRateLimiter: one Lua script (see rate-limit-script.ts) per reservation. */
export function createRedisSendRateLimiter(options: RedisSendRateLimiterOptions): SendRateLimiter {
  const mps = options.throughputMps ?? DEFAULT_THROUGHPUT_MPS;
  if (!(mps > 0)) throw new TypeError("throughputMps must be positive");
  const burst = options.throughputBurst ?? Math.max(1, Math.ceil(mps / 10));
  const pair: PairLimit = { ...DEFAULT_PAIR_LIMIT, ...options.pairLimit };
  if (!(pair.burst >= 1 && pair.intervalMs > 0))
    throw new TypeError("pairLimit needs burst ≥ 1, intervalMs > 0");
  const interval = 1000 / mps;
  const args = [
    interval,
    (burst - 1) * interval,
    pair.intervalMs,
    (pair.burst - 1) * pair.intervalMs,
    options.horizonMs ?? 1000,
  ];
  const keys = createOutboundKeys(options.prefix);
  options.redis.defineCommand("ssReserveSendSlot", { numberOfKeys: 2, lua: RESERVE_SEND_SLOT_LUA });
  const reserve = (options.redis as unknown as Record<string, ReserveScript>)
    .ssReserveSendSlot as ReserveScript;
  return {
    async reserve(phoneNumberId, customer) {
      const [granted, waitMs] = await reserve.call(
        options.redis,
        keys.numberRate(phoneNumberId),
        keys.pairRate(phoneNumberId, customer),
        ...args,
      );
      return { granted: granted === 1, waitMs };
    },
  };
}
