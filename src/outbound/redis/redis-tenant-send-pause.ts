import type { RedisClient } from "../../queue/redis/index.js";
import type { TenantSendPause } from "../ports.js";
import { createOutboundKeys } from "./outbound-keys.js";

/** The Redis adapter of TenantSendPause: a key per paused tenant that expires when the pause ends. */
export function createRedisTenantSendPause(options: {
  readonly redis: RedisClient;
  readonly prefix: string;
}): TenantSendPause {
  const keys = createOutboundKeys(options.prefix);
  return {
    async pause(tenantId, forMs) {
      await options.redis.set(keys.paused(tenantId), "1", "PX", Math.max(1, Math.ceil(forMs)));
    },
    async remainingMs(tenantId) {
      return Math.max(0, await options.redis.pttl(keys.paused(tenantId)));
    },
  };
}
