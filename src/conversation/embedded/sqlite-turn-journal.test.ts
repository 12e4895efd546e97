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
  const journal = createSqliteTurnJournal({ db, stepRecorded: () => commits.committed() });
  db.exec("CREATE TABLE replies_queued (turn_id TEXT)");
  const queueReplies = db.prepare("INSERT INTO replies_queued (turn_id) VALUES (?)");
  const reader = new Database(join(dir, "sharpsharp.db"), { readonly: true });
  opened.push(reader);
  const stepsSeen = reader.prepare("SELECT step FROM turn_journal_steps ORDER BY step").pluck();
  const queuedSeen = reader.prepare("SELECT turn_id FROM replies_queued").pluck();
  return {
    journal,
    commits,
    queueReplies,
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
});
