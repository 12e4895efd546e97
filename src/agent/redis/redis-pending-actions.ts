import { randomBytes } from "node:crypto";
import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { PendingAction, PendingActionStore } from "../ports.js";

/**
 * claimPendingAction: KEYS[1] the action; ARGV[1] the claiming message id.
 * Returns {status, json}: status "claimed" (first claim, or the same message
 * again), "already" (claimed by another message) or "missing".
 */
const CLAIM_LUA = `
local raw = redis.call("GET", KEYS[1])
if not raw then return {"missing", ""} end
local action = cjson.decode(raw)
if action.claimedBy == nil then
  action.claimedBy = ARGV[1]
  redis.call("SET", KEYS[1], cjson.encode(action), "KEEPTTL")
  return {"claimed", raw}
end
if action.claimedBy == ARGV[1] then return {"claimed", raw} end
return {"already", raw}
`;

export function createRedisPendingActions(redis: RedisClient, prefix: string): PendingActionStore {
  const key = (conversationKey: string, id: string) => `${prefix}:pending:${conversationKey}:${id}`;
  const claimAction = defineScript(redis, "ssClaimPendingAction", CLAIM_LUA);
  return {
    async create(conversationKey, action, ttlMs) {
      const stored: PendingAction = { ...action, id: randomBytes(9).toString("base64url") };
      await redis.set(key(conversationKey, stored.id), JSON.stringify(stored), "PX", ttlMs);
      return stored;
    },
    async claim(conversationKey, id, by) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) return { kind: "missing" };
      const [status, raw] = (await claimAction(1, key(conversationKey, id), by)) as [string, string];
      if (status === "missing") return { kind: "missing" };
      const { claimedBy: _claimedBy, ...action } = JSON.parse(raw) as PendingAction & { claimedBy?: string };
      return { kind: status === "claimed" ? "claimed" : "already", action };
    },
  };
}
