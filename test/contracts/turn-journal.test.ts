import { describe } from "vitest";
import { createSqliteTurnJournal } from "../../src/conversation/embedded/index.js";
import { createRedisTurnJournal } from "../../src/conversation/redis/index.js";
import { redisPerTest, sqlitePerTest } from "../support/contract-backends.js";
import { skipWithoutRedis } from "../support/redis.js";
import { describeTurnJournalContract } from "./turn-journal.contract.js";

describe.skipIf(skipWithoutRedis)("redis", () => {
  const backend = redisPerTest("c-journal");
  describeTurnJournalContract("redis", async () =>
    createRedisTurnJournal({ redis: backend.redis, prefix: backend.prefix() }),
  );
});

describe("sqlite", () => {
  const sqlite = sqlitePerTest();
  describeTurnJournalContract("sqlite", async () => createSqliteTurnJournal({ db: sqlite.open() }));
});
