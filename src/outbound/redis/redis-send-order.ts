import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { SendOrder, SendOrderCursor } from "../ports.js";
import { createOutboundKeys } from "./outbound-keys.js";
import { ASSIGN_SEND_ORDER_LUA, FINISH_SEND_ORDER_LUA, PEEK_SEND_ORDER_LUA } from "./send-order-script.js";

export interface RedisSendOrderOptions {
  /** Owned by the caller. */
  readonly redis: RedisClient;
  readonly prefix: string;
  /** A conversation's order is forgotten after this long without a reply, seconds; default 7 days. */
  readonly ttlSeconds?: number;
}

/** The Redis adapter of SendOrder: one hash per conversation, one Lua script per step (send-order-script.ts). */
export function createRedisSendOrder(options: RedisSendOrderOptions): SendOrder {
  const { redis } = options;
  const ttl = options.ttlSeconds ?? 7 * 86_400;
  const keys = createOutboundKeys(options.prefix);
  const assignOrder = defineScript(redis, "ssAssignSendOrder", ASSIGN_SEND_ORDER_LUA);
  const peekOrder = defineScript(redis, "ssPeekSendOrder", PEEK_SEND_ORDER_LUA);
  const finishOrder = defineScript(redis, "ssFinishSendOrder", FINISH_SEND_ORDER_LUA);
  const cursorOf = (answer: unknown): SendOrderCursor => {
    const [next, jobId] = answer as [number, string];
    return jobId === "" ? { next } : { next, jobId };
  };
  return {
    async assign(tenantId, conversationKey, jobIds) {
      if (jobIds.length === 0) return [];
      const key = keys.order(tenantId, conversationKey);
      return (await assignOrder(1, key, ttl, ...jobIds)) as number[];
    },
    async peek(tenantId, conversationKey) {
      return cursorOf(await peekOrder(1, keys.order(tenantId, conversationKey)));
    },
    async finish(tenantId, conversationKey, seq) {
      const key = keys.order(tenantId, conversationKey);
      return cursorOf(await finishOrder(1, key, seq, ttl));
    },
  };
}
