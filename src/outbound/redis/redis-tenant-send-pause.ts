import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { TenantSendPause } from "../ports.js";
import { createOutboundKeys } from "./outbound-keys.js";

/**
 * longestPause — ms until the last of the given pauses ends (0: none is paused).
 *
 * KEYS   one pause key per scope
 */
const LONGEST_PAUSE_LUA = `
local longest = 0
for _, key in ipairs(KEYS) do
  local left = redis.call("PTTL", key)
  if left > longest then longest = left end
end
return longest
`;

/**
 * The Redis adapter of TenantSendPause: a key per paused tenant that expires when the pause ends. A
 * send asks for the tenant's and its number's pause in one script, one round trip.
 */
export function createRedisTenantSendPause(options: {
  readonly redis: RedisClient;
  readonly prefix: string;
}): TenantSendPause {
  const keys = createOutboundKeys(options.prefix);
  const longestPause = defineScript(options.redis, "ssLongestSendPause", LONGEST_PAUSE_LUA);
  return {
    async pause(tenantId, forMs) {
      await options.redis.set(keys.paused(tenantId), "1", "PX", Math.max(1, Math.ceil(forMs)));
    },
    async remainingMs(...scopes) {
      if (scopes.length === 0) return 0;
      return (await longestPause(scopes.length, ...scopes.map((scope) => keys.paused(scope)))) as number;
    },
  };
}
