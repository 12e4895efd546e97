import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase } from "../../sqlite/index.js";
import { batchWritesPerTick } from "../../sqlite/tick-commits.js";
import { createSqliteTurnJournal } from "./sqlite-turn-journal.js";

const dirs: string[] = [];
const opened: { close(): unknown; open: boolean }[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The journal on a database batched per tick, as `sharpsharp start` wires it, and what another connection sees. */
function setUp() {
  const dir = mkdtempSync(join(tmpdir(), "ss-journal-"));
  dirs.push(dir);
  const db = openSqliteDatabase({ dataDir: dir });
  opened.push(db);
  const commits = batchWritesPerTick(db, () => {}, { unawaitedCommitMs: 60_000 });
  const journal = createSqliteTurnJournal({
    db,
    stepRecorded: () => commits.committed(),
    commitFailures: () => commits.failures(),
  });
  db.exec("CREATE TABLE replies_queued (turn_id TEXT)");
  // A deferred foreign key is checked at COMMIT: a way to make a commit fail, as a full disk does.
  db.pragma("foreign_keys = ON");
  db.exec("CREATE TABLE parents (id INTEGER PRIMARY KEY)");
  db.exec("CREATE TABLE orphans (parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)");
  const orphan = db.prepare("INSERT INTO orphans (parent) VALUES (-1)");
  const queueReplies = db.prepare("INSERT INTO replies_queued (turn_id) VALUES (?)");
  const reader = new Database(join(dir, "sharpsharp.db"), { readonly: true });
  opened.push(reader);
  const stepsSeen = reader.prepare("SELECT step FROM turn_journal_steps ORDER BY step").pluck();
  const queuedSeen = reader.prepare("SELECT turn_id FROM replies_queued").pluck();
  return {
    journal,
    commits,
    queueReplies,
    failNextCommit: () => orphan.run(),
    committedSteps: () => stepsSeen.all() as string[],
    committedQueued: () => queuedSeen.all() as string[],
  };
}

const turn = { turnId: "turn-1", messages: [], startedAt: 0 };

describe("the embedded turn journal under per-tick commits", () => {
  it("commits a step before the turn goes on unless the step is repeatable", async () => {
    const { journal, commits, committedSteps } = setUp();
    await journal.begin("c1", turn);
    await journal.record("c1", "turn-1", "tool:0", { refunded: true });
    // A tool's result: durable once record resolves, so a crash from here on does not call it again.
    expect(committedSteps()).toEqual(["tool:0"]);
    await journal.record("c1", "turn-1", "replies", [{ text: "hi" }], { repeatable: true });
    // No commit of its own: it stays in the open batch for the next commit.
    expect(committedSteps()).toEqual(["tool:0"]);
    await commits.committed();
    expect(committedSteps()).toEqual(["replies", "tool:0"]);
  });

  it("never lets the replies queued after a repeatable step be durable without it", async () => {
    const { journal, commits, queueReplies, committedSteps, committedQueued } = setUp();
    await journal.begin("c1", turn);
    await journal.record("c1", "turn-1", "replies", [{ text: "hi" }], { repeatable: true });
    queueReplies.run("turn-1");
    expect([committedSteps(), committedQueued()]).toEqual([[], []]);
    // One commit for both, whichever write is waited for next: the file holds both or neither.
    await commits.committed();
    expect([committedSteps(), committedQueued()]).toEqual([["replies"], ["turn-1"]]);
    const resumed = await journal.resume("c1");
    expect(resumed?.steps.get("replies")).toEqual([{ text: "hi" }]);
  });

  it("refuses to let a run queue its replies after a failed commit may have taken its repeatable record", async () => {
    const { journal, commits, failNextCommit, committedSteps } = setUp();
    await journal.begin("c1", turn);
    await journal.record("c1", "turn-1", "replies", [{ text: "hi" }], { repeatable: true });
    expect(() => journal.assertWritesKept?.("c1", "turn-1")).not.toThrow();
    failNextCommit();
    // Someone else's commit fails: the unawaited record goes with it, and a later commit would not hold it.
    await expect(commits.committed()).rejects.toThrow();
    expect(committedSteps()).toEqual([]);
    expect(() => journal.assertWritesKept?.("c1", "turn-1")).toThrow(/commit failed while turn-1 ran/);
    // The next run starts from what the journal kept (here nothing: a new begin) and may queue.
    expect(await journal.resume("c1")).toBeUndefined();
    await journal.begin("c1", turn);
    expect(() => journal.assertWritesKept?.("c1", "turn-1")).not.toThrow();
  });

  it("does not count a run given back even when the commit of its giving back fails", async () => {
    const { journal, commits, failNextCommit } = setUp();
    await journal.begin("c1", turn);
    await commits.committed();
    // Five runs on a full disk: each is counted (that commit goes through), then given back, and the
    // commit holding the giving back fails.
    for (let run = 0; run < 5; run += 1) {
      expect((await journal.resume("c1"))?.attempts).toBe(2);
      failNextCommit();
      await journal.release("c1", "turn-1");
    }
    // Room again: the next run is counted as the second, not the seventh.
    expect((await journal.resume("c1"))?.attempts).toBe(2);
    await journal.release("c1", "turn-1");
    expect((await journal.resume("c1"))?.attempts).toBe(2);
  });

  it("tells a run that failed on a write the disk refused, even before any commit failed", async () => {
    const { journal } = setUp();
    await journal.begin("c1", turn);
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    expect(journal.writesLost?.("c1", new Error("could not journal", { cause: full }))).toBe(true);
    expect(journal.writesLost?.("c1", new Error("the model choked"))).toBe(false);
  });
});
