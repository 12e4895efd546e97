import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHECKPOINT_THREAD_NICE_STEPS } from "./checkpointer.js";
import { SqliteUnavailableError } from "./errors.js";
import { openSqliteDatabase } from "./open-sqlite.js";
import { batchWritesPerTick } from "./tick-commits.js";

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
    // Only the checkpoint thread copies pages into the database file: it grows once that ran. The
    // thread runs below the test's own priority, so on a busy machine it may take a few of its turns.
    const grown = () => statSync(join(dir, "sharpsharp.db")).size > before + 200_000;
    for (const until = Date.now() + 5000; !grown() && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(grown()).toBe(true);
    db.close();
  });

  it.runIf(process.platform === "linux")(
    "runs the checkpoint thread ten nice steps below the process, and the process keeps its own priority",
    async () => {
      const niceOf = (tid: string) => {
        try {
          return Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
        } catch {
          return undefined; // a thread that ended since the listing
        }
      };
      const mainNice = getPriority(0);
      const lowered = Math.min(19, mainNice + CHECKPOINT_THREAD_NICE_STEPS);
      const before = new Set(readdirSync("/proc/self/task"));
      const db = openSqliteDatabase({ dataDir: freshDir() });
      const loweredThreads = () =>
        readdirSync("/proc/self/task").filter((tid) => !before.has(tid) && niceOf(tid) === lowered);
      // The thread lowers itself once its code runs: wait for it.
      for (const until = Date.now() + 5000; loweredThreads().length === 0 && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(loweredThreads()).toHaveLength(1);
      expect(niceOf(String(process.pid))).toBe(mainNice);
      expect(getPriority(0)).toBe(mainNice);
      db.close();
    },
  );

  it("cuts the WAL back only past its catch-up length, so a WAL restarted at that length is never cut on the event loop", () => {
    for (const catchUpFrames of [undefined, 512]) {
      const db = openSqliteDatabase({
        dataDir: freshDir(),
        ...(catchUpFrames === undefined ? {} : { checkpointCatchUpFrames: catchUpFrames }),
      });
      const limit = db.pragma("journal_size_limit", { simple: true }) as number;
      const catchUpBytes = (catchUpFrames ?? 262_144) * (1024 + 24);
      expect(limit).toBeGreaterThan(catchUpBytes);
      expect(limit).toBeLessThan(catchUpBytes * 1.5);
      db.close();
    }
  });

  it("starts the WAL over under steady writes once it passes the catch-up length, where passes a second apart never do", async () => {
    // Writes in every few milliseconds, each turn of the loop its own commit, as the gateway makes
    // them under load, for 3 s; then how many frames the WAL holds since it last started over.
    const framesAfterSteadyWrites = async (catchUpFrames: number) => {
      const dir = freshDir();
      const db = openSqliteDatabase({
        dataDir: dir,
        checkpointMs: 1000,
        checkpointCatchUpFrames: catchUpFrames,
      });
      const ticks = batchWritesPerTick(db, () => {});
      db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
      const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
      let n = 0;
      const writer = setInterval(() => {
        for (let i = 0; i < 20; i += 1) insert.run(`${Math.random()}-${n++}`, "x".repeat(200));
      }, 10);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      clearInterval(writer);
      await ticks.committed();
      const [wal] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
      expect(db.prepare("SELECT COUNT(*) AS rows FROM t").get()).toEqual({ rows: n });
      db.close();
      return wal?.log ?? 0;
    };
    const starved = await framesAfterSteadyWrites(Number.MAX_SAFE_INTEGER);
    const caughtUp = await framesAfterSteadyWrites(512);
    // Passes a second apart: the WAL holds all 3 s of writes (about 9,500 frames here).
    expect(starved).toBeGreaterThan(6000);
    // Caught up: at most the catch-up length and the writes of the second since the last look.
    expect(caughtUp).toBeLessThan(starved / 2);
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
