import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { StoreSchemaTooNewError } from "../../src/store/index.js";
import {
  createSqliteMessageStore,
  migrateSqliteMessageStore,
  SQLITE_MIGRATIONS,
} from "../../src/store/sqlite/index.js";

const dirs: string[] = [];
const open: SqliteDatabase[] = [];
function freshDb(): SqliteDatabase {
  const dir = mkdtempSync(join(tmpdir(), "ss-store-migrate-"));
  dirs.push(dir);
  const db = openSqliteDatabase({ dataDir: dir });
  open.push(db);
  return db;
}
const latest = SQLITE_MIGRATIONS.at(-1)?.version ?? 0;
const upTo = (version: number) => SQLITE_MIGRATIONS.filter((m) => m.version <= version);
const tablesOf = (db: SqliteDatabase) =>
  (
    db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((row) => row.name);
const versionsOf = (db: SqliteDatabase) =>
  (db.prepare("SELECT version FROM store_migrations ORDER BY version").all() as { version: number }[]).map(
    (row) => row.version,
  );

describe("message store migrations (SQLite)", () => {
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("migrates an empty file to the latest version, beside other modules' tables", () => {
    const db = freshDb();
    expect(migrateSqliteMessageStore(db, { now: () => 42 })).toEqual({
      applied: SQLITE_MIGRATIONS.map((m) => m.version),
      version: latest,
    });
    // ss_meta belongs to the opener; every table of the store is namespaced.
    expect(tablesOf(db)).toEqual([
      "ss_meta",
      "store_api_tokens",
      "store_campaign_recipients",
      "store_campaigns",
      "store_conversations",
      "store_deliveries",
      "store_messages",
      "store_messaging_window",
      "store_migrations",
      "store_notes",
      "store_number_standings",
      "store_operator_grants",
      "store_operators",
      "store_sessions",
      "store_suppressions",
      "store_turns",
    ]);
    expect(db.prepare("SELECT applied_at FROM store_migrations").pluck().all()).toEqual(
      SQLITE_MIGRATIONS.map(() => 42),
    );
  });

  it("moves a file of migration 1 to 2 with its rows, then keeps content and the deleted status", async () => {
    const db = freshDb();
    migrateSqliteMessageStore(db, { migrations: SQLITE_MIGRATIONS.filter((m) => m.version === 1) });
    db.prepare(
      `INSERT INTO store_deliveries (tenant_id, wamid, status, status_at, error_code, error_title, updated_at)
       VALUES ('acme', 'wamid.old', 'failed', 5, 131047, 'Re-engagement message', 6)`,
    ).run();
    expect(() =>
      db.prepare("UPDATE store_deliveries SET status = 'deleted' WHERE wamid = 'wamid.old'").run(),
    ).toThrow(/CHECK/);
    expect(migrateSqliteMessageStore(db, { migrations: upTo(2) }).applied).toEqual([2]);
    expect(db.prepare("SELECT status, error_code FROM store_deliveries").all()).toEqual([
      { status: "failed", error_code: 131047 },
    ]);
    const store = createSqliteMessageStore(db);
    expect(await store.updateDelivery("acme", "wamid.new", "deleted", 7)).toBe("applied");
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'store_deliveries'").pluck();
    expect(indexes.all()).toContain("store_deliveries_tenant_status_at");
  });

  it("moves a file of migration 2 to 3 with its rows, backfilling what the console lists", async () => {
    const db = freshDb();
    migrateSqliteMessageStore(db, { migrations: upTo(2) });
    const key = "acme:106540352242922:2348012345678";
    const quietKey = "acme:106540352242922:2348000000000";
    db.exec(`
      INSERT INTO store_conversations (conversation_key, tenant_id, customer_id, mode, last_activity_at, created_at)
        VALUES ('${key}', 'acme', '2348012345678', 'human', 5000, 1000),
               ('${quietKey}', 'acme', '2348000000000', 'bot', 2500, 1000);
      INSERT INTO store_messages (tenant_id, conversation_key, direction, wamid, customer_id, type, text, content, at)
        VALUES ('acme', '${key}', 'inbound', 'wamid.1', '2348012345678', 'text', 'hello',
                '{"customer":{"waId":"2348012345678","name":" Chinedu "}}', 1000),
               ('acme', '${key}', 'inbound', 'wamid.3', '2348012345678', 'text', 'still there?',
                '{"customer":{"waId":"2348012345678"}}', 4000),
               ('acme', '${key}', 'inbound', 'wamid.4', '2348012345678', 'text', 'hello??', NULL, 5000),
               ('acme', '${quietKey}', 'inbound', 'wamid.q', '2348000000000', 'text', 'thanks', NULL, 2000);
      INSERT INTO store_messages (tenant_id, conversation_key, direction, turn_id, part, type, text, at)
        VALUES ('acme', '${key}', 'outbound', 'turn-1', 0, 'text', 'welcome', 2000),
               ('acme', '${quietKey}', 'outbound', 'turn-q', 0, 'text', 'you are welcome', 2500);
      INSERT INTO store_turns (turn_id, tenant_id, conversation_key, decision, agent_outcome, prompt_tokens,
                               completion_tokens, cost_usd, tools, at)
        VALUES ('turn-1', 'acme', '${key}', '{"intent":"greeting","confidence":1,"resolved":false,"tier":"agent"}',
                'answered', 10, 2, 0.5, '["get_transfer"]', 2000);
    `);
    expect(migrateSqliteMessageStore(db).applied).toEqual([3, 4, 5]);
    const store = createSqliteMessageStore(db);
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

  it("is a no-op on a migrated file, and a second store on it sees the first one's rows", async () => {
    const db = freshDb();
    const first = createSqliteMessageStore(db);
    const turn = {
      turnId: "turn-1",
      tenantId: "acme",
      conversationKey: "acme:1:2",
      decision: { intent: "greeting", confidence: 1, resolved: true, tier: "rules" },
      at: 1,
    };
    await first.recordTurn(turn);
    expect(migrateSqliteMessageStore(db)).toEqual({ applied: [], version: latest });
    const second = createSqliteMessageStore(db);
    expect(versionsOf(db)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    expect(await second.recordTurn(turn)).toBe("duplicate");
  });

  it("refuses a file migrated by a newer version, with a clear error, and changes nothing", () => {
    const db = freshDb();
    migrateSqliteMessageStore(db);
    db.prepare(
      "INSERT INTO store_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)",
    ).run(latest + 5);
    const refuse = () => createSqliteMessageStore(db);
    expect(refuse).toThrow(StoreSchemaTooNewError);
    expect(refuse).toThrow(
      expect.objectContaining({
        code: "SS_STORE_SCHEMA_TOO_NEW",
        message: expect.stringMatching(
          new RegExp(`migration ${latest + 5}, newer than the ${latest}.*SHARPSHARP_DATA_DIR`),
        ),
      }),
    );
    expect(versionsOf(db)).toEqual([...SQLITE_MIGRATIONS.map((m) => m.version), latest + 5]);
  });

  it("applies pending migrations all or none: a failing one leaves the file as it was", () => {
    const db = freshDb();
    const broken = [
      ...SQLITE_MIGRATIONS,
      { version: latest + 1, name: "broken", sql: "CREATE TABLE store_half (id INTEGER); SELECT nope;" },
    ];
    // From empty: not even migration 1 stays.
    expect(() => migrateSqliteMessageStore(db, { migrations: broken })).toThrow(/nope/);
    expect(tablesOf(db)).toEqual(["ss_meta"]);
    migrateSqliteMessageStore(db);
    expect(() => migrateSqliteMessageStore(db, { migrations: broken })).toThrow(/nope/);
    expect(versionsOf(db)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    expect(tablesOf(db)).not.toContain("store_half");
  });

  it("applies a later migration on top of the shipped ones, once", () => {
    const db = freshDb();
    migrateSqliteMessageStore(db);
    const next = [
      ...SQLITE_MIGRATIONS,
      { version: latest + 1, name: "marker", sql: "CREATE TABLE store_marker (id INTEGER) STRICT;" },
    ];
    expect(migrateSqliteMessageStore(db, { migrations: next })).toEqual({
      applied: [latest + 1],
      version: latest + 1,
    });
    expect(migrateSqliteMessageStore(db, { migrations: next })).toEqual({ applied: [], version: latest + 1 });
    expect(tablesOf(db)).toContain("store_marker");
  });
});
