import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApplyStatusEvent,
  createDeliveryMetrics,
  type DeliveryStatusStore,
} from "../../src/delivery/index.js";
import { createRedisDeliveryStatusStore, deliveryKey } from "../../src/delivery/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { StatusEvent } from "../../src/whatsapp/index.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const T0 = 1_795_165_900;

function statusEvent(wamid: string, status: string, timestamp: number, errors?: unknown[]): StatusEvent {
  return {
    kind: "status",
    dedupeId: `default:${wamid}:${status}`,
    tenantId: "default",
    phoneNumberId: "106540352242922",
    wamid,
    status,
    timestamp,
    receivedAt: Date.now(),
    recipient: { waId: "2348012345678" },
    ...(errors === undefined ? {} : { errors }),
  };
}

// Port behaviour (ranks, failed, recorded sends) is in test/contracts/delivery-status-store.contract.ts.
describe.skipIf(skipWithoutRedis)("delivery status store on Redis: events, metrics, TTL", () => {
  const prefix = uniquePrefix("delivery");
  let redis: Redis;
  let store: DeliveryStatusStore;
  let registry: Registry;
  let apply: ReturnType<typeof createApplyStatusEvent>;
  let n = 0;
  const wamid = () => `wamid.test.${n++}`;

  const logLines: string[] = [];
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
    store = createRedisDeliveryStatusStore({ redis, prefix });
    registry = new Registry();
    apply = createApplyStatusEvent({
      store,
      logger: createLogger({ level: "warn", destination: { write: (line: string) => logLines.push(line) } }),
      metrics: createDeliveryMetrics(registry),
    });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it("never moves back: read before delivered, delivered twice, sent last", async () => {
    const id = wamid();
    const outcomes = [
      await apply(statusEvent(id, "read", T0 + 5)),
      await apply(statusEvent(id, "delivered", T0 + 3)),
      await apply(statusEvent(id, "delivered", T0 + 3)),
      await apply(statusEvent(id, "sent", T0)),
    ];
    expect(outcomes).toEqual(["applied", "stale_ignored", "stale_ignored", "stale_ignored"]);
    expect(await store.get("default", id)).toMatchObject({
      status: "read",
      statusAt: T0 + 5,
      recipient: "2348012345678",
    });
    const metrics = await registry.getSingleMetricAsString("ss_delivery_statuses_total");
    expect(metrics).toContain('status="read",outcome="applied"} 1');
    expect(metrics).toContain('status="delivered",outcome="stale_ignored"} 2');
  });

  it("keeps a message's hash for 30 days after a write (Redis TTL)", async () => {
    const id = wamid();
    expect(await apply(statusEvent(id, "sent", T0 + 1))).toBe("applied");
    expect(await redis.ttl(deliveryKey(prefix, "default", id))).toBeGreaterThan(29 * 86_400);
  });

  it("records failed with its code and title, counts it, and keeps it over a later sent or delivered", async () => {
    const id = wamid();
    await apply(statusEvent(id, "sent", T0));
    const failed = statusEvent(id, "failed", T0 + 2, [{ code: 131047, title: "Re-engagement message" }]);
    expect(await apply(failed)).toBe("applied");
    expect(await apply(statusEvent(id, "delivered", T0 + 1))).toBe("stale_ignored");
    expect(await store.get("default", id)).toMatchObject({
      status: "failed",
      errorCode: 131047,
      errorTitle: "Re-engagement message",
    });
    expect(await registry.getSingleMetricAsString("ss_delivery_failed_total")).toContain('code="131047"} 1');
  });

  it("records deleted, and counts an unknown status with one warning per value, the value cut short", async () => {
    const id = wamid();
    expect(await apply(statusEvent(id, "deleted", T0 + 1))).toBe("applied");
    expect(await store.get("default", id)).toMatchObject({ status: "deleted" });
    const long = `in_orbit_${"x".repeat(500)}`;
    for (const status of [long, long, "in_orbit"]) {
      expect(await apply(statusEvent(wamid(), status, T0))).toBe("unknown_status");
    }
    const metrics = await registry.getSingleMetricAsString("ss_delivery_statuses_total");
    expect(metrics).toContain('status="other",outcome="unknown_status"} 3');
    const warnings = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg.includes("do not model"));
    expect(warnings.map((line) => line.status)).toEqual([long.slice(0, 32), "in_orbit"]);
  });
});
