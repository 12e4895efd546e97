import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach } from "vitest";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from "./redis.js";

/**
 * One Redis client for a contract suite and a fresh key prefix per call of
 * `prefix()`; every prefix's keys are deleted after each test. Call inside a describe.
 */
export function redisPerTest(label: string): { readonly redis: Redis; prefix(): string } {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  const prefixes: string[] = [];
  afterEach(async () => {
    for (const prefix of prefixes.splice(0)) await deleteKeys(redis, prefix);
  });
  afterAll(() => redis.disconnect());
  return {
    redis,
    prefix() {
      const prefix = uniquePrefix(label);
      prefixes.push(prefix);
      return prefix;
    },
  };
}

/** A fresh embedded database in its own temp dir per call; closed and removed after each test. */
export function sqlitePerTest(): { open(): SqliteDatabase } {
  const opened: { db: SqliteDatabase; dir: string }[] = [];
  afterEach(() => {
    for (const { db, dir } of opened.splice(0)) {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return {
    open() {
      const dir = mkdtempSync(join(tmpdir(), "ss-contract-"));
      const db = openSqliteDatabase({ dataDir: dir });
      opened.push({ db, dir });
      return db;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
