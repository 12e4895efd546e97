import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { SendRateLimiter } from "../ports.js";
import {
  type GcraLimits,
  resolveSendRateLimitsByNumber,
  type SendRateLimitOptions,
} from "../send-rate-limits.js";
import { createOutboundKeys } from "./outbound-keys.js";
import { RESERVE_SEND_SLOT_LUA } from "./rate-limit-script.js";

export type { PairLimit } from "../send-rate-limits.js";

export interface RedisSendRateLimiterOptions extends SendRateLimitOptions {
  readonly redis: RedisClient;
  readonly prefix: string;
}

/** The Redis adapter of SendRateLimiter: one Lua script (see rate-limit-script.ts) per reservation. */
export function createRedisSendRateLimiter(options: RedisSendRateLimiterOptions): SendRateLimiter {
  const limitsOf = resolveSendRateLimitsByNumber(options);
  // The script's arguments per set of limits, built once: a send's hot path allocates none.
  const argsByLimits = new Map<GcraLimits, number[]>();
  const argsOf = (phoneNumberId: string) => {
    const limits = limitsOf(phoneNumberId);
    let args = argsByLimits.get(limits);
    if (args === undefined) {
      args = [
        limits.numberInterval,
        limits.numberTolerance,
        limits.pairInterval,
        limits.pairTolerance,
        limits.horizonMs,
      ];
      argsByLimits.set(limits, args);
    }
    return args;
  };
  const keys = createOutboundKeys(options.prefix);
  const reserve = defineScript(options.redis, "ssReserveSendSlot", RESERVE_SEND_SLOT_LUA);
  return {
    async reserve(phoneNumberId, customer, horizonMs) {
      const args = argsOf(phoneNumberId);
      const [granted, waitMs] = (await reserve(
        2,
        keys.numberRate(phoneNumberId),
        keys.pairRate(phoneNumberId, customer),
        ...(horizonMs === undefined ? args : [...args.slice(0, 4), horizonMs]),
      )) as [number, number];
      return { granted: granted === 1, waitMs };
    },
  };
}
