import { afterAll, describe, expect, it } from "vitest";
import { StoreSchemaTooNewError } from "../../src/store/index.js";
import {
  createPostgresMessageStore,
  MIGRATIONS,
  migrateMessageStore,
} from "../../src/store/postgres/index.js";
import { createTestPool, dropSchema, skipWithoutPostgres, uniqueSchema } from "../support/postgres.js";

// A pool connects lazily, so creating it without Postgres is harmless.
const pool = createTestPool();
const schemas: string[] = [];
const fresh = (label: string) => {
  const schema = uniqueSchema(label);
  schemas.push(schema);
  return schema;
};
const latest = MIGRATIONS.at(-1)?.version ?? 0;
const upTo = (version: number) => MIGRATIONS.filter((m) => m.version <= version);

async function appliedVersions(schema: string): Promise<number[]> {
  const result = await pool.query<{ version: number }>(
    `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
  );
  return result.rows.map((row) => row.version);
}

describe.skipIf(skipWithoutPostgres)("message store migrations (PostgreSQL)", () => {
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });

  it("migrates an empty database to the latest version and creates the tables", async () => {
    const schema = fresh("empty");
    const result = await migrateMessageStore(pool, { schema });
    expect(result).toEqual({ applied: MIGRATIONS.map((m) => m.version), version: latest });
    const tables = await pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [schema],
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "api_tokens",
      "campaign_recipients",
      "campaigns",
      "conversations",
      "deliveries",
      "messages",
      "messaging_window",
      "notes",
      "number_standings",
      "operator_grants",
      "operators",
      "schema_migrations",
      "sessions",
      "suppressions",
      "turns",
    ]);
  });

  it("moves a schema of migration 1 to 2 with its rows, then keeps content and the deleted status", async () => {
    const schema = fresh("v1to2");
    await migrateMessageStore(pool, { schema, migrations: MIGRATIONS.filter((m) => m.version === 1) });
    await pool.query(
      `INSERT INTO "${schema}".deliveries (tenant_id, wamid, status, status_at) VALUES ('acme', 'wamid.old', 'read', now())`,
    );
    await expect(pool.query(`UPDATE "${schema}".deliveries SET status = 'deleted'`)).rejects.toThrow(
      /check constraint/,
    );
    expect((await migrateMessageStore(pool, { schema, migrations: upTo(2) })).applied).toEqual([2]);
    await pool.query(`UPDATE "${schema}".deliveries SET status = 'deleted'`);
    await pool.query(
      `INSERT INTO "${schema}".messages (tenant_id, conversation_key, direction, wamid, customer_id, type, content, at)
       VALUES ('acme', 'k', 'inbound', 'wamid.in', '1', 'reaction', '{"emoji": "x"}', now())`,
    );
    const row = await pool.query(`SELECT content FROM "${schema}".messages`);
    expect(row.rows[0]).toEqual({ content: { emoji: "x" } });
  });

  it("moves a schema of migration 2 to 3 with its rows, backfilling what the console lists", async () => {
    const schema = fresh("v2to3");
    await migrateMessageStore(pool, { schema, migrations: upTo(2) });
    const key = "acme:106540352242922:2348012345678";
    const quietKey = "acme:106540352242922:2348000000000";
    const at = (ms: number) => `to_timestamp(${ms / 1000})`;
    await pool.query(`
      SET search_path TO "${schema}";
      INSERT INTO conversations (conversation_key, tenant_id, customer_id, mode, last_activity_at)
        VALUES ('${key}', 'acme', '2348012345678', 'human', ${at(5000)}),
               ('${quietKey}', 'acme', '2348000000000', 'bot', ${at(2500)});
      INSERT INTO messages (tenant_id, conversation_key, direction, wamid, customer_id, type, text, content, at)
        VALUES ('acme', '${key}', 'inbound', 'wamid.1', '2348012345678', 'text', 'hello',
                '{"customer":{"waId":"2348012345678","name":" Chinedu "}}', ${at(1000)}),
               ('acme', '${key}', 'inbound', 'wamid.3', '2348012345678', 'text', 'still there?',
                '{"customer":{"waId":"2348012345678"}}', ${at(4000)}),
               ('acme', '${key}', 'inbound', 'wamid.4', '2348012345678', 'text', 'hello??', NULL, ${at(5000)}),
               ('acme', '${quietKey}', 'inbound', 'wamid.q', '2348000000000', 'text', 'thanks', NULL, ${at(2000)});
      INSERT INTO messages (tenant_id, conversation_key, direction, turn_id, part, type, text, at)
        VALUES ('acme', '${key}', 'outbound', 'turn-1', 0, 'text', 'welcome', ${at(2000)}),
               ('acme', '${quietKey}', 'outbound', 'turn-q', 0, 'text', 'you are welcome', ${at(2500)});
      INSERT INTO turns (turn_id, tenant_id, conversation_key, decision, agent_outcome, prompt_tokens,
                         completion_tokens, cost_usd, tools, at)
        VALUES ('turn-1', 'acme', '${key}', '{"intent":"greeting","confidence":1,"resolved":false,"tier":"agent"}',
                'answered', 10, 2, 0.5, ARRAY['get_transfer'], ${at(2000)});
      RESET search_path;
    `);
    expect((await migrateMessageStore(pool, { schema })).applied).toEqual([3, 4, 5]);
    const store = createPostgresMessageStore({ pool, schema });
    const { items } = await store.listConversations("acme", { limit: 10 });
    expect(items).toEqual([
      expect.objectContaining({
        conversationKey: key,
        phoneNumberId: "106540352242922",
        customerName: "Chinedu",
        mode: "human",
        lastInboundAt: 5000,
        awaitingReplySince: 4000,
        unread: true,
      }),
      expect.objectContaining({ conversationKey: quietKey, lastInboundAt: 2000, unread: true }),
    ]);
    expect(items[1]).not.toHaveProperty("awaitingReplySince");
    expect(items[1]).not.toHaveProperty("customerName");
    expect((await store.messagesOf(key, { limit: 10 })).items.map((m) => m.wamid ?? m.turnId)).toEqual([
      "wamid.4",
      "wamid.3",
      "turn-1",
      "wamid.1",
    ]);
    expect(await store.console.handoffQueue(["acme"])).toEqual({ waiting: 1, oldestWaitingSince: 4000 });
    const [turn] = (await store.console.turnsOf(key, { limit: 5 })).items;
    expect(turn?.agent).toEqual({
      outcome: "answered",
      promptTokens: 10,
      completionTokens: 2,
      costUsd: 0.5,
      tools: ["get_transfer"],
    });
    expect(
      await store.recordInbound({
        tenantId: "acme",
        conversationKey: key,
        wamid: "wamid.4",
        customerId: "2348012345678",
        type: "text",
        metaTimestamp: 5,
        receivedAt: 5000,
      }),
    ).toBe("duplicate");
  });

  it("is a no-op on a migrated schema", async () => {
    const schema = fresh("rerun");
    await migrateMessageStore(pool, { schema });
    expect(await migrateMessageStore(pool, { schema })).toEqual({ applied: [], version: latest });
    expect(await appliedVersions(schema)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("applies each migration once when two runners start together", async () => {
    const schema = fresh("race");
    const slow = [
      ...MIGRATIONS,
      // Holds the lock a while, so the second runner surely waits on it.
      { version: latest + 1, name: "slow", sql: "SELECT pg_sleep(0.2); CREATE TABLE marker (id int);" },
    ];
    const [first, second] = await Promise.all([
      migrateMessageStore(pool, { schema, migrations: slow }),
      migrateMessageStore(pool, { schema, migrations: slow }),
    ]);
    expect([...first.applied, ...second.applied].sort((a, b) => a - b)).toEqual(slow.map((m) => m.version));
    expect(first.version).toBe(latest + 1);
    expect(second.version).toBe(latest + 1);
    expect(await appliedVersions(schema)).toEqual(slow.map((m) => m.version));
  });

  it("refuses a database migrated by a newer version, with a clear error", async () => {
    const schema = fresh("newer");
    await migrateMessageStore(pool, { schema });
    await pool.query(
      `INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, 'from the future')`,
      [latest + 5],
    );
    const refused = migrateMessageStore(pool, { schema });
    await expect(refused).rejects.toBeInstanceOf(StoreSchemaTooNewError);
    await expect(refused).rejects.toMatchObject({
      code: "SS_STORE_SCHEMA_TOO_NEW",
      message: expect.stringContaining(`migration ${latest + 5}, newer than the ${latest}`),
    });
  });

  it("rolls a failing migration back whole and leaves the version where it was", async () => {
    const schema = fresh("broken");
    await migrateMessageStore(pool, { schema });
    const broken = [
      ...MIGRATIONS,
      { version: latest + 1, name: "broken", sql: "CREATE TABLE half (id int); SELECT nope;" },
    ];
    await expect(migrateMessageStore(pool, { schema, migrations: broken })).rejects.toThrow();
    expect(await appliedVersions(schema)).toEqual(MIGRATIONS.map((m) => m.version));
    const half = await pool.query("SELECT to_regclass($1) AS found", [`"${schema}".half`]);
    expect(half.rows[0].found).toBeNull();
  });
});
