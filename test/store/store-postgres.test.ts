import { afterAll, describe } from "vitest";
import { openPostgresMessageStore } from "../../src/store/postgres/index.js";
import { describeMessageStoreContract } from "../contracts/message-store.contract.js";
import { createTestPool, dropSchema, skipWithoutPostgres, uniqueSchema } from "../support/postgres.js";

// A pool connects lazily, so creating it without Postgres is harmless.
const pool = createTestPool();
const schemas: string[] = [];

describe.skipIf(skipWithoutPostgres)("PostgreSQL message store", () => {
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });

  // A fresh schema per test, so each starts empty and migrations run from scratch every time.
  describeMessageStoreContract("postgres", async (options = {}) => {
    const schema = uniqueSchema("store");
    schemas.push(schema);
    return openPostgresMessageStore({ pool: pool, schema, ...options });
  });
});
