import { describe, expect, it } from "vitest";
import { createSqliteDeliveryStatusStore } from "../../src/delivery/embedded/index.js";
import { createRedisDeliveryStatusStore } from "../../src/delivery/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeDeliveryStatusStoreContract } from "./delivery-status-store.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-delivery");
  describeDeliveryStatusStoreContract("redis", async () =>
    createRedisDeliveryStatusStore({ redis: backend.redis, prefix: backend.prefix() }),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeDeliveryStatusStoreContract("sqlite", async () =>
    createSqliteDeliveryStatusStore({ db: backend.open() }),
  );

  it("forgets a record ttlMs after its last write, and sweeps it", async () => {
    let now = 1_000_000;
    const store = createSqliteDeliveryStatusStore({ db: backend.open(), ttlMs: 1000, now: () => now });
    const update = { tenantId: "t", wamid: "w1", status: "read", timestamp: 5 } as const;
    await store.applyStatus(update);
    await store.applyStatus({ ...update, wamid: "w2" });
    now += 999;
    await store.applyStatus({ ...update, wamid: "w2", status: "played" });
    expect(await store.get("t", "w1")).toMatchObject({ status: "read" });
    now += 1;
    expect(await store.get("t", "w1")).toBeUndefined();
    // An expired record is gone for writes too: a lower status starts afresh.
    expect(await store.applyStatus({ ...update, status: "sent" })).toBe("applied");
    expect(await store.get("t", "w2")).toMatchObject({ status: "played" });
    now += 1000;
    expect(store.sweepExpired()).toBe(2);
    expect(store.sweepExpired()).toBe(0);
  });

  it("adds the deleted status's column to a file written before it, keeping the rows", async () => {
    const db = backend.open();
    db.exec(`CREATE TABLE delivery_messages (
      tenant_id TEXT NOT NULL, wamid TEXT NOT NULL,
      phone_number_id TEXT, conversation_key TEXT, turn_id TEXT, part INTEGER, sent_at INTEGER,
      sent_to TEXT, sent_recipient TEXT, reengagement INTEGER,
      status TEXT, status_rank INTEGER, status_at INTEGER, recipient TEXT, error_code INTEGER, error_title TEXT,
      at_sent INTEGER, at_delivered INTEGER, at_read INTEGER, at_played INTEGER, at_failed INTEGER,
      expires_at INTEGER NOT NULL, PRIMARY KEY (tenant_id, wamid))`);
    db.prepare(
      "INSERT INTO delivery_messages (tenant_id, wamid, status, status_rank, status_at, at_read, expires_at) VALUES ('t', 'old', 'read', 3, 5, 5, ?)",
    ).run(Date.now() + 60_000);
    const store = createSqliteDeliveryStatusStore({ db });
    expect(await store.get("t", "old")).toMatchObject({ status: "read" });
    expect(await store.applyStatus({ tenantId: "t", wamid: "old", status: "deleted", timestamp: 6 })).toBe(
      "applied",
    );
    expect(await store.get("t", "old")).toMatchObject({ status: "deleted", statusAt: 6 });
  });
});
