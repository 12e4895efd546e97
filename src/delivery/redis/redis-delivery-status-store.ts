import type { SentMessage } from "../../outbound/index.js";
import { defineScript, type RedisClient } from "../../queue/redis/index.js";
import type { DeliveryRecord, DeliveryStatusStore } from "../ports.js";
import { isDeliveryStatus, SEEN_RANK, STATUS_RANK } from "../status-rank.js";
import { APPLY_STATUS_LUA } from "./apply-status-script.js";

export interface RedisDeliveryStatusStoreOptions {
  /** Owned by the caller. */
  readonly redis: RedisClient;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  /** How long a message's record lives after its last write, seconds; default 2,592,000 (30 days, Meta's message TTL). */
  readonly ttlSeconds?: number;
}

const SCRIPT = "ssApplyDeliveryStatus";

/**
 * recordSentMessage — writes what the sender sent into the message's hash and renews its expiry.
 *
 * KEYS[1]   the message's delivery hash
 * ARGV[1]   TTL, seconds    ARGV[2..] field, value, …
 */
const RECORD_SENT_LUA = `
redis.call("HSET", KEYS[1], unpack(ARGV, 2))
redis.call("EXPIRE", KEYS[1], ARGV[1])
return 1
`;

/** `{p}:delivery:{tenant}:{wamid}`: one hash per message we sent. */
export function deliveryKey(prefix: string, tenantId: string, wamid: string): string {
  return `${prefix}:delivery:${tenantId}:${wamid}`;
}

function toNumber(value: string | undefined): number | undefined {
  return value === undefined || value === "" ? undefined : Number(value);
}

function sentOf(tenantId: string, wamid: string, hash: Record<string, string>): SentMessage | undefined {
  const { turnId, phoneNumberId, conversationKey, part, sentAt } = hash;
  if (turnId === undefined || phoneNumberId === undefined || conversationKey === undefined) return undefined;
  return {
    tenantId,
    wamid,
    phoneNumberId,
    conversationKey,
    turnId,
    part: Number(part ?? 0),
    sentAt: Number(sentAt ?? 0),
    ...(hash.to === undefined ? {} : { to: hash.to }),
    ...(hash.sentRecipient === undefined ? {} : { recipient: hash.sentRecipient }),
    ...(hash.reengagement === "1" ? { reengagement: true as const } : {}),
    ...(hash.traceparent === undefined ? {} : { traceparent: hash.traceparent }),
  };
}

/**
 * The Redis adapter of DeliveryStatusStore: a hash per (tenant, wamid) holding
 * what the sender sent (turnId, part, conversation, customer) and the latest
 * status with Meta's timestamp, error code and title; every write renews its TTL.
 */
export function createRedisDeliveryStatusStore(
  options: RedisDeliveryStatusStoreOptions,
): DeliveryStatusStore {
  const { redis, prefix } = options;
  const ttl = options.ttlSeconds ?? 30 * 86_400;
  const apply = defineScript(redis, SCRIPT, APPLY_STATUS_LUA);
  const recordSentScript = defineScript(redis, "ssRecordSentMessage", RECORD_SENT_LUA);

  return {
    async recordSent(message) {
      const key = deliveryKey(prefix, message.tenantId, message.wamid);
      const fields: Record<string, string | number> = {
        phoneNumberId: message.phoneNumberId,
        conversationKey: message.conversationKey,
        turnId: message.turnId,
        part: message.part,
        sentAt: message.sentAt,
      };
      if (message.to !== undefined) fields.to = message.to;
      if (message.recipient !== undefined) fields.sentRecipient = message.recipient;
      if (message.reengagement === true) fields.reengagement = "1";
      if (message.traceparent !== undefined) fields.traceparent = message.traceparent;
      await recordSentScript(1, key, ttl, ...Object.entries(fields).flat());
    },

    async applyStatus(update) {
      const applied = await apply(
        1,
        deliveryKey(prefix, update.tenantId, update.wamid),
        update.status,
        STATUS_RANK[update.status],
        update.timestamp,
        update.recipient ?? "",
        update.error === undefined ? "" : update.error.code,
        update.error?.title ?? "",
        ttl,
        SEEN_RANK,
      );
      return applied === 1 ? "applied" : "stale_ignored";
    },

    async get(tenantId, wamid) {
      const hash = await redis.hgetall(deliveryKey(prefix, tenantId, wamid));
      if (Object.keys(hash).length === 0) return undefined;
      const sent = sentOf(tenantId, wamid, hash);
      const status = hash.status;
      const errorCode = toNumber(hash.errorCode);
      const statusAt = toNumber(hash.statusAt);
      return {
        tenantId,
        wamid,
        ...(sent === undefined ? {} : { sent }),
        ...(status !== undefined && isDeliveryStatus(status) ? { status } : {}),
        ...(statusAt === undefined ? {} : { statusAt }),
        ...(hash.recipient === undefined ? {} : { recipient: hash.recipient }),
        ...(errorCode === undefined ? {} : { errorCode }),
        ...(hash.errorTitle === undefined ? {} : { errorTitle: hash.errorTitle }),
      } satisfies DeliveryRecord;
    },
  };
}
