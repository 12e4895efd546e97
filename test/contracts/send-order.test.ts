import { describe, expect, it } from "vitest";
import { createSqliteSendOrder } from "../../src/outbound/embedded/index.js";
import { createRedisSendOrder } from "../../src/outbound/redis/index.js";
import { QueueUnavailableError } from "../../src/queue/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeSendOrderContract } from "./send-order.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-order");
  describeSendOrderContract("redis", async () =>
    createRedisSendOrder({ redis: backend.redis, prefix: backend.prefix() }),
  );
});

describe("sqlite", () => {
  const backend = sqlitePerTest();
  describeSendOrderContract("sqlite", async () => createSqliteSendOrder({ db: backend.open() }));

  it("forgets a conversation's order ttlMs after its last assign or finish, and sweeps it", async () => {
    let now = 0;
    const order = createSqliteSendOrder({ db: backend.open(), ttlMs: 1_000, now: () => now });
    await order.assign("t", "c1", ["a", "b"]);
    await order.assign("t", "c2", ["a"]);
    now = 999;
    expect(await order.finish("t", "c1", 1)).toEqual({ next: 2, jobId: "b" });
    now = 1_000;
    // Peeking renews nothing; c2 is gone, c1 lives on from its finish.
    expect(await order.peek("t", "c2")).toEqual({ next: 1 });
    expect(await order.peek("t", "c1")).toEqual({ next: 2, jobId: "b" });
    expect(await order.assign("t", "c2", ["z"])).toEqual([1]);
    expect(await order.peek("t", "c2")).toEqual({ next: 1, jobId: "z" });
    now = 1_999;
    expect(order.sweepExpired()).toBe(1);
    expect(await order.assign("t", "c1", ["b"])).toEqual([1]);
  });

  it("answers a finish the disk refuses with QueueUnavailableError, so the send that met it runs again", async () => {
    const db = backend.open();
    const order = createSqliteSendOrder({ db });
    await order.assign("t", "c1", ["a", "b"]);
    // Writes refused as on a read-only or full disk (SQLITE_READONLY).
    db.pragma("query_only = ON");
    await expect(order.finish("t", "c1", 1)).rejects.toBeInstanceOf(QueueUnavailableError);
    db.pragma("query_only = OFF");
    expect(await order.finish("t", "c1", 1)).toEqual({ next: 2, jobId: "b" });
  });
});
