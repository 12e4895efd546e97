import { causedBySqliteWriteFailure, type SqliteDatabase } from "../../sqlite/index.js";
import { TurnJournalError } from "../errors.js";
import type { JournaledTurn, SetAsideTurn, TurnJournal } from "../ports.js";

export interface SqliteTurnJournalOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** A begun turn is forgotten this long after its last write, ms; default 7 days. */
  readonly ttlMs?: number;
  /** Set-aside turns kept (newest first); default 10,000. */
  readonly keepSetAside?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /**
   * Awaited after a step is recorded (not a repeatable one, see StepOptions) and after a resumed run
   * is counted, before the turn goes on: with writes committed per turn of the event loop
   * (batchWritesPerTick) it resolves once they are, so a tool is not called again after a crash, and a
   * turn that kills the process is still counted.
   */
  readonly stepRecorded?: () => Promise<void>;
  /**
   * Batches of writes that failed to commit so far (TickCommits.failures): a run during which one failed
   * may have lost its repeatable records, and queues nothing (assertWritesKept). Default: none ever fail.
   */
  readonly commitFailures?: () => number;
}

/** The embedded TurnJournal, plus the housekeeping sweep. */
export interface SqliteTurnJournal extends TurnJournal {
  /** Deletes begun turns past their expiry; answers how many rows. */
  sweepExpired(): number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS turn_journal (
  conversation_key TEXT PRIMARY KEY,
  turn_id TEXT NOT NULL,
  turn TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS turn_journal_expiry ON turn_journal (expires_at);
CREATE TABLE IF NOT EXISTS turn_journal_steps (
  conversation_key TEXT NOT NULL,
  step TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (conversation_key, step)
);
CREATE TABLE IF NOT EXISTS set_aside_turns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entry TEXT NOT NULL
);
`;

/**
 * TurnJournal in the embedded database: `turn_journal` holds each
 * conversation's begun turn, `turn_journal_steps` its recorded steps,
 * `set_aside_turns` the turns taken out of the way (the newest
 * `keepSetAside`). Each call is one transaction (or a savepoint of the
 * process's batch, see batchWritesPerTick).
 */
export function createSqliteTurnJournal(options: SqliteTurnJournalOptions): SqliteTurnJournal {
  const { db } = options;
  const ttlMs = options.ttlMs ?? 7 * 24 * 3_600_000;
  const keep = options.keepSetAside ?? 10_000;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const upsertTurn =
    db.prepare(`INSERT INTO turn_journal (conversation_key, turn_id, turn, attempts, expires_at)
    VALUES (?, ?, ?, 1, ?) ON CONFLICT (conversation_key) DO UPDATE SET turn_id = excluded.turn_id,
    turn = excluded.turn, attempts = 1, expires_at = excluded.expires_at`);
  const dropSteps = db.prepare("DELETE FROM turn_journal_steps WHERE conversation_key = ?");
  const readTurn = db.prepare<[string, number], { turn_id: string; turn: string; attempts: number }>(
    "SELECT turn_id, turn, attempts FROM turn_journal WHERE conversation_key = ? AND expires_at > ?",
  );
  // Counts this run, less the runs given back whose own write was not kept (see release).
  const countRun = db.prepare(
    "UPDATE turn_journal SET attempts = MAX(0, attempts + 1 - ?), expires_at = ? WHERE conversation_key = ?",
  );
  const readSteps = db.prepare<[string], { step: string; value: string }>(
    "SELECT step, value FROM turn_journal_steps WHERE conversation_key = ?",
  );
  const writeStep =
    db.prepare(`INSERT INTO turn_journal_steps (conversation_key, step, value) VALUES (?, ?, ?)
    ON CONFLICT (conversation_key, step) DO UPDATE SET value = excluded.value`);
  const uncountRun = db.prepare(
    "UPDATE turn_journal SET attempts = attempts - 1 WHERE conversation_key = ? AND attempts > 0",
  );
  const renew = db.prepare("UPDATE turn_journal SET expires_at = ? WHERE conversation_key = ?");
  const dropTurn = db.prepare("DELETE FROM turn_journal WHERE conversation_key = ?");
  const insertSetAside = db.prepare("INSERT INTO set_aside_turns (entry) VALUES (?)");
  const trimSetAside = db.prepare(
    "DELETE FROM set_aside_turns WHERE id NOT IN (SELECT id FROM set_aside_turns ORDER BY id DESC LIMIT ?)",
  );
  const listSetAside = db.prepare<[number], { entry: string }>(
    "SELECT entry FROM set_aside_turns ORDER BY id DESC LIMIT ?",
  );
  const expired = db.prepare<[number], { conversation_key: string }>(
    "SELECT conversation_key FROM turn_journal WHERE expires_at <= ?",
  );

  const commitFailures = options.commitFailures ?? (() => 0);
  // The failed commits counted when each conversation's run began (or resumed), while it runs.
  const failuresAtStart = new Map<string, number>();
  const current = (conversationKey: string, turnId: string) => {
    const row = readTurn.get(conversationKey, now());
    return row?.turn_id === turnId ? row : undefined;
  };
  const drop = (conversationKey: string) => {
    dropSteps.run(conversationKey);
    dropTurn.run(conversationKey);
  };
  const begin = db.transaction((conversationKey: string, turn: JournaledTurn) => {
    dropSteps.run(conversationKey);
    upsertTurn.run(conversationKey, turn.turnId, JSON.stringify(turn), now() + ttlMs);
  });
  const resume = db.transaction((conversationKey: string, givenBack: number) => {
    const row = readTurn.get(conversationKey, now());
    if (row === undefined) return undefined;
    countRun.run(givenBack, now() + ttlMs, conversationKey);
    const steps = new Map<string, unknown>();
    for (const { step, value } of readSteps.all(conversationKey)) steps.set(step, JSON.parse(value));
    const attempts = Math.max(0, row.attempts + 1 - givenBack);
    return { ...(JSON.parse(row.turn) as JournaledTurn), attempts, steps };
  });
  const record = db.transaction((conversationKey: string, turnId: string, step: string, value: string) => {
    if (current(conversationKey, turnId) === undefined) return;
    writeStep.run(conversationKey, step, value);
    renew.run(now() + ttlMs, conversationKey);
  });
  const release = db.transaction((conversationKey: string, turnId: string) => {
    if (current(conversationKey, turnId) === undefined) return false;
    uncountRun.run(conversationKey);
    return true;
  });
  const finish = db.transaction((conversationKey: string, turnId: string) => {
    if (current(conversationKey, turnId) !== undefined) drop(conversationKey);
  });
  const setAside = db.transaction((conversationKey: string, turnId: string, reason: string) => {
    const row = current(conversationKey, turnId);
    if (row === undefined) return;
    const entry: SetAsideTurn = {
      ...(JSON.parse(row.turn) as JournaledTurn),
      conversationKey,
      attempts: row.attempts,
      reason,
      setAsideAt: now(),
    };
    insertSetAside.run(JSON.stringify(entry));
    trimSetAside.run(keep);
    drop(conversationKey);
  });
  const sweep = db.transaction(() => {
    const keys = expired.all(now());
    for (const { conversation_key } of keys) drop(conversation_key);
    return keys.length;
  });

  const writesLost = (conversationKey: string, error?: unknown) => {
    const atStart = failuresAtStart.get(conversationKey);
    return (atStart !== undefined && atStart !== commitFailures()) || causedBySqliteWriteFailure(error);
  };
  // Runs given back whose decrement was not kept (its commit failed: a full disk), per conversation: the
  // next resume counts that many fewer, or a long full disk would still set the turn aside.
  const givenBackUnkept = new Map<string, number>();

  return {
    async begin(conversationKey, turn) {
      failuresAtStart.set(conversationKey, commitFailures());
      givenBackUnkept.delete(conversationKey);
      begin(conversationKey, turn);
    },
    async resume(conversationKey) {
      failuresAtStart.set(conversationKey, commitFailures());
      const resumed = resume(conversationKey, givenBackUnkept.get(conversationKey) ?? 0);
      if (resumed !== undefined) await options.stepRecorded?.();
      givenBackUnkept.delete(conversationKey);
      return resumed;
    },
    async record(conversationKey, turnId, step, value, stepOptions) {
      record(conversationKey, turnId, step, JSON.stringify(value ?? null));
      // A repeatable step's record shares the commit of the turn's later writes: one commit a turn fewer.
      if (stepOptions?.repeatable !== true) await options.stepRecorded?.();
    },
    writesLost,
    assertWritesKept(conversationKey, turnId) {
      if (!writesLost(conversationKey)) return;
      throw new TurnJournalError(
        "writes kept",
        new Error(
          `a commit failed while ${turnId} ran (a full disk?): its records may be lost; it runs again`,
        ),
      );
    },
    async release(conversationKey, turnId) {
      failuresAtStart.delete(conversationKey);
      try {
        if (!release(conversationKey, turnId)) return;
        await options.stepRecorded?.();
      } catch {
        givenBackUnkept.set(conversationKey, (givenBackUnkept.get(conversationKey) ?? 0) + 1);
      }
    },
    async finish(conversationKey, turnId) {
      failuresAtStart.delete(conversationKey);
      givenBackUnkept.delete(conversationKey);
      finish(conversationKey, turnId);
    },
    async setAside(conversationKey, turnId, reason) {
      failuresAtStart.delete(conversationKey);
      givenBackUnkept.delete(conversationKey);
      setAside(conversationKey, turnId, reason);
    },
    async setAsideTurns(limit) {
      return listSetAside.all(Math.max(0, limit)).map((row) => JSON.parse(row.entry) as SetAsideTurn);
    },
    sweepExpired() {
      return sweep();
    },
  };
}
