import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteUnavailableError } from "./errors.js";
import { commitDurably, openSqliteDatabase } from "./open-sqlite.js";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "ss-sqlite-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});
const isRoot = process.getuid?.() === 0;

describe("openSqliteDatabase", () => {
  it("creates the directory and opens the file in WAL mode; durable commits sync fully, then return to normal", () => {
    const dir = join(freshDir(), "nested", "data");
    const db = openSqliteDatabase({ dataDir: dir });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    db.exec("CREATE TABLE t (v TEXT)");
    const seen = commitDurably(db, () => {
      db.prepare("INSERT INTO t VALUES ('a')").run();
      return db.pragma("synchronous", { simple: true });
    });
    expect(seen).toBe(2);
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(() =>
      commitDurably(db, () => {
        db.prepare("INSERT INTO t VALUES ('b')").run();
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(db.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1 });
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    db.close();
  });

  it("refuses a second owner of the same file with a message naming the way out", () => {
    const dir = freshDir();
    const first = openSqliteDatabase({ dataDir: dir });
    try {
      expect(() => openSqliteDatabase({ dataDir: dir })).toThrow(/held by another sharpsharp process/);
    } finally {
      first.close();
    }
    openSqliteDatabase({ dataDir: dir }).close();
  });

  it.skipIf(isRoot)("refuses a read-only directory with SqliteUnavailableError", () => {
    const dir = freshDir();
    chmodSync(dir, 0o555);
    expect(() => openSqliteDatabase({ dataDir: dir })).toThrow(SqliteUnavailableError);
  });
});
