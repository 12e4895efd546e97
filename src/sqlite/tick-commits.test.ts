import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase, type SqliteDatabase } from "./open-sqlite.js";
import { batchWritesPerTick, type TickCommits } from "./tick-commits.js";

const dirs: string[] = [];
const opened: { close(): unknown; open: boolean }[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The database batched per tick, and a second connection that sees only what is committed. */
function setUp(options: { unawaitedCommitMs?: number } = {}): {
  db: SqliteDatabase;
  commits: TickCommits;
  errors: unknown[];
  committedRows: () => number[];
} {
  const dir = mkdtempSync(join(tmpdir(), "ss-tick-"));
  dirs.push(dir);
  const db = openSqliteDatabase({ dataDir: dir });
  opened.push(db);
  const errors: unknown[] = [];
  const commits = batchWritesPerTick(db, (error) => errors.push(error), options);
  db.exec("CREATE TABLE t (n INTEGER PRIMARY KEY)");
  const reader = new Database(join(dir, "sharpsharp.db"), { readonly: true });
  opened.push(reader);
  const select = reader.prepare("SELECT n FROM t ORDER BY n").pluck();
  return { db, commits, errors, committedRows: () => select.all() as number[] };
}

describe("batchWritesPerTick", () => {
  it("commits the statements and transactions of one turn of the event loop together, at its end", async () => {
    const { db, commits, committedRows } = setUp();
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    const insertTwo = db.transaction((a: number, b: number) => {
      insert.run(a);
      insert.run(b);
    });
    insert.run(1);
    insertTwo(2, 3);
    await Promise.resolve();
    insert.run(4);
    // Written in this connection, not committed yet: another connection does not see them.
    expect(db.prepare("SELECT COUNT(*) FROM t").pluck().get()).toBe(4);
    expect(committedRows()).toEqual([]);
    await commits.committed();
    expect(committedRows()).toEqual([1, 2, 3, 4]);
    await new Promise((resolve) => setImmediate(resolve));
    insert.run(5);
    commits.commitNow();
    expect(committedRows()).toEqual([1, 2, 3, 4, 5]);
  });

  it("undoes a failed transaction alone: the rest of the batch is committed", async () => {
    const { db, commits, errors, committedRows } = setUp();
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    const failing = db.transaction(() => {
      insert.run(2);
      insert.run(1); // a duplicate key: this transaction fails
    });
    insert.run(1);
    expect(() => failing()).toThrow();
    insert.run(3);
    await commits.committed();
    expect(committedRows()).toEqual([1, 3]);
    expect(errors).toEqual([]);
  });

  it("loses every write of a batch whose commit fails, the unawaited ones too, and counts it; the next batch commits", async () => {
    const { db, commits, errors, committedRows } = setUp({ unawaitedCommitMs: 60_000 });
    // A deferred foreign key is checked at COMMIT: a way to make a commit fail, as a full disk does.
    db.pragma("foreign_keys = ON");
    db.exec("CREATE TABLE child (parent INTEGER REFERENCES t (n) DEFERRABLE INITIALLY DEFERRED)");
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    const orphan = db.prepare("INSERT INTO child (parent) VALUES (?)");
    insert.run(1); // nothing waits for it
    orphan.run(99);
    expect(commits.failures()).toBe(0);
    await expect(commits.committed()).rejects.toThrow(/FOREIGN KEY/);
    expect(commits.failures()).toBe(1);
    expect(errors).toHaveLength(1);
    insert.run(2);
    await commits.committed();
    // The batch that failed took 1 with it; the later one holds 2: not a prefix of the writes.
    expect(committedRows()).toEqual([2]);
    expect(commits.failures()).toBe(1);
  });

  it("commits what is pending when the file is closed", () => {
    const { db, committedRows } = setUp();
    db.prepare("INSERT INTO t (n) VALUES (?)").run(7);
    expect(committedRows()).toEqual([]);
    db.close();
    expect(committedRows()).toEqual([7]);
  });

  it("keeps writes that nothing waits for open a few milliseconds, to share the next commit waited for", async () => {
    const { db, commits, committedRows } = setUp({ unawaitedCommitMs: 10_000 });
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    insert.run(1);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(committedRows()).toEqual([]);
    insert.run(2);
    await commits.committed();
    // One commit for both: the earlier write is never left behind the one waited for.
    expect(committedRows()).toEqual([1, 2]);
  });

  it("commits writes that nothing waits for within unawaitedCommitMs", async () => {
    const { db, committedRows } = setUp({ unawaitedCommitMs: 20 });
    db.prepare("INSERT INTO t (n) VALUES (?)").run(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(committedRows()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(committedRows()).toEqual([1]);
  });

  it("with unawaitedCommitMs 0, commits every write at the end of its turn of the event loop", async () => {
    const { db, committedRows } = setUp({ unawaitedCommitMs: 0 });
    db.prepare("INSERT INTO t (n) VALUES (?)").run(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(committedRows()).toEqual([1]);
  });

  it("commits the open writes with a flush (commitNow), and a later batch gets its own timer", async () => {
    const { db, commits, committedRows } = setUp({ unawaitedCommitMs: 20 });
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    insert.run(1);
    commits.commitNow();
    expect(committedRows()).toEqual([1]);
    insert.run(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(committedRows()).toEqual([1, 2]);
  });

  it("answers committed() at once when nothing is pending, and leaves reads out of the batch", async () => {
    const { db, commits } = setUp();
    db.prepare("SELECT COUNT(*) FROM t").get();
    expect(db.inTransaction).toBe(false);
    await expect(commits.committed()).resolves.toBeUndefined();
  });
});
