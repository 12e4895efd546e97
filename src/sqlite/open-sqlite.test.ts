import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteUnavailableError } from "./errors.js";
import { openSqliteDatabase } from "./open-sqlite.js";

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
  it("keeps what it creates to its owner: the directory 0700, the database, its WAL and the lock 0600", () => {
    const dir = join(freshDir(), "private", "data");
    const db = openSqliteDatabase({ dataDir: dir });
    db.exec("CREATE TABLE t (v TEXT)");
    db.prepare("INSERT INTO t VALUES (?)").run("2348012345678");
    const mode = (path: string) => statSync(path).mode & 0o777;
    try {
      expect(mode(dir)).toBe(0o700);
      for (const file of ["sharpsharp.db", "sharpsharp.db-wal", "sharpsharp.db-shm", "sharpsharp.lock"]) {
        expect(mode(join(dir, file)), file).toBe(0o600);
      }
    } finally {
      db.close();
    }
  });

  it("creates the directory, opens the file in WAL mode, and checkpoints it from another thread", async () => {
    const dir = join(freshDir(), "nested", "data");
    const db = openSqliteDatabase({ dataDir: dir, checkpointMs: 50 });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    db.exec("CREATE TABLE t (v TEXT)");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    const before = statSync(join(dir, "sharpsharp.db")).size;
    for (let i = 0; i < 2000; i += 1) insert.run("x".repeat(200));
    // Only the checkpoint thread copies pages into the database file: it grows once that ran.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(statSync(join(dir, "sharpsharp.db")).size).toBeGreaterThan(before + 200_000);
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
