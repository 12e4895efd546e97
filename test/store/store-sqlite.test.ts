import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import { describeMessageStoreContract } from "../contracts/message-store.contract.js";

const opened: { db: SqliteDatabase; dir: string }[] = [];

describe("SQLite message store", () => {
  afterEach(() => {
    for (const { db, dir } of opened.splice(0)) {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A fresh file per test, opened as production opens it (WAL, exclusive), so migrations run from scratch.
  describeMessageStoreContract("sqlite", async (options = {}) => {
    const dir = mkdtempSync(join(tmpdir(), "ss-store-"));
    const db = openSqliteDatabase({ dataDir: dir });
    opened.push({ db, dir });
    return createSqliteMessageStore(db, options);
  });

  it("turns a database failure into a rejection, never a throw at the call site", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ss-store-"));
    const db = openSqliteDatabase({ dataDir: dir });
    const store = createSqliteMessageStore(db);
    db.close();
    opened.push({ db: openSqliteDatabase({ dataDir: dir }), dir });
    const pending = store.listConversations("acme", { limit: 1 });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).rejects.toThrow(/not open/);
  });
});
