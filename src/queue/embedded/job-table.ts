import { type SqliteDatabase, statementPerLimit } from "../../sqlite/index.js";

/** A job as the embedded queue keeps it. */
export interface JobRow {
  readonly queue: string;
  readonly id: string;
  readonly data: string;
  /** Failed runs so far (a delay is not a failure). */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly backoffMs: number;
}

export interface NewJob {
  readonly id: string;
  readonly data: unknown;
  /** ms since the epoch; default now. */
  readonly runAt?: number;
  /** Lower runs first; default 0. */
  readonly priority?: number;
  /** Runs that may fail before the job is failed for good; default 1. */
  readonly maxAttempts?: number;
  /** First retry delay, doubled per failed run, ms; default 1,000. */
  readonly backoffMs?: number;
}

/** How long ended jobs stay, ms; absent: deleted at once. Kept ids still deduplicate. */
export interface KeepOptions {
  readonly completedMs?: number;
  readonly failedMs?: number;
}

export type JobState = "missing" | "pending" | "ended";

/**
 * Due jobs, best priority first. Read in the order of queue_jobs_due, which stops after LIMIT rows:
 * left to itself the planner picks queue_jobs_next, reads every due row and sorts them, once per
 * free slot, so a backlog of n turns cost O(n log n) per started job and the queue collapsed
 * (18.7% of the embedded process's CPU at 800 messages/s, bench/RESULTS.md). What the index walk
 * skips is waiting rows not due yet that rank first (coalescing windows, retries). Ids only, from the
 * index: the running jobs come back too (they stay waiting), and only the ones to start are read whole.
 */
export const DUE_JOBS_SQL = `SELECT id FROM queue_jobs INDEXED BY queue_jobs_due
     WHERE queue = ? AND state = 'waiting' AND run_at <= ? ORDER BY priority, run_at LIMIT ?`;

/**
 * The embedded queue's jobs, in one SQLite table. A job is `waiting` (due at
 * `run_at`), `completed` or `failed`; which waiting jobs are running is the
 * runner's own (in memory), because in embedded mode one process owns the
 * file: after a crash every job that was running is simply waiting again.
 * Keyed jobs (turns: one per conversation) carry a `rerun` flag instead of a
 * second row when more work arrives while they run.
 *
 * Every method is synchronous, so callers can compose them in one
 * transaction with other writes.
 */
export function createJobTable(db: SqliteDatabase) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS queue_jobs (
      queue TEXT NOT NULL,
      id TEXT NOT NULL,
      data TEXT NOT NULL,
      state TEXT NOT NULL,
      run_at INTEGER NOT NULL,
      priority INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL DEFAULT 1,
      backoff_ms INTEGER NOT NULL DEFAULT 1000,
      rerun INTEGER NOT NULL DEFAULT 0,
      keep_until INTEGER,
      error TEXT,
      PRIMARY KEY (queue, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS queue_jobs_due ON queue_jobs (queue, state, priority, run_at);
    CREATE INDEX IF NOT EXISTS queue_jobs_next ON queue_jobs (queue, state, run_at);
    CREATE INDEX IF NOT EXISTS queue_jobs_kept ON queue_jobs (keep_until) WHERE keep_until IS NOT NULL;
  `);
  const insert = db.prepare(
    `INSERT INTO queue_jobs (queue, id, data, state, run_at, priority, max_attempts, backoff_ms)
     VALUES (?, ?, ?, 'waiting', ?, ?, ?, ?) ON CONFLICT (queue, id) DO NOTHING`,
  );
  // A keyed job: a new one, or an ended one waiting again, or a running one marked to run once more.
  const upsertKeyed = db.prepare(
    `INSERT INTO queue_jobs (queue, id, data, state, run_at, priority, max_attempts, backoff_ms)
     VALUES (@queue, @id, @data, 'waiting', @runAt, @priority, @maxAttempts, @backoffMs)
     ON CONFLICT (queue, id) DO UPDATE SET
       state = 'waiting',
       rerun = CASE WHEN @running = 1 THEN 1 ELSE rerun END,
       run_at = CASE WHEN state = 'waiting' THEN run_at ELSE excluded.run_at END,
       attempts = CASE WHEN state = 'waiting' THEN attempts ELSE 0 END,
       priority = MIN(priority, excluded.priority),
       keep_until = NULL, error = NULL`,
  );
  // Limits written out (see statementPerLimit): `due` and `nextDue` run after every job.
  const due = statementPerLimit(db, DUE_JOBS_SQL);
  const selectJob = db.prepare(
    `SELECT queue, id, data, attempts, max_attempts AS maxAttempts, backoff_ms AS backoffMs
     FROM queue_jobs WHERE queue = ? AND id = ?`,
  );
  const nextDue = statementPerLimit(
    db,
    "SELECT id, run_at AS at FROM queue_jobs WHERE queue = ? AND state = 'waiting' ORDER BY run_at LIMIT ?",
  );
  const selectRerun = db.prepare("SELECT rerun FROM queue_jobs WHERE queue = ? AND id = ?");
  const rerunNow = db.prepare(
    "UPDATE queue_jobs SET rerun = 0, attempts = 0, run_at = ? WHERE queue = ? AND id = ?",
  );
  const remove = db.prepare("DELETE FROM queue_jobs WHERE queue = ? AND id = ?");
  const endAs = db.prepare(
    "UPDATE queue_jobs SET state = ?, keep_until = ?, error = ?, rerun = 0 WHERE queue = ? AND id = ?",
  );
  const setRunAt = db.prepare("UPDATE queue_jobs SET run_at = ?, rerun = 0 WHERE queue = ? AND id = ?");
  const setRetry = db.prepare(
    "UPDATE queue_jobs SET run_at = ?, attempts = attempts + 1, error = ? WHERE queue = ? AND id = ?",
  );
  const setData = db.prepare("UPDATE queue_jobs SET data = ? WHERE queue = ? AND id = ?");
  const selectState = db.prepare("SELECT state FROM queue_jobs WHERE queue = ? AND id = ?");
  const selectData = db.prepare(
    "SELECT data FROM queue_jobs WHERE queue = ? AND id = ? AND state = 'waiting'",
  );
  const oldestDue = statementPerLimit(
    db,
    "SELECT id, run_at AS at FROM queue_jobs WHERE queue = ? AND state = 'waiting' AND run_at <= ? ORDER BY run_at LIMIT ?",
  );
  const promoteStmt = db.prepare(
    "UPDATE queue_jobs SET run_at = ? WHERE queue = ? AND id = ? AND state = 'waiting' AND run_at > ?",
  );
  const countStmt = db.prepare(
    `SELECT state, run_at > ? AS later, COUNT(*) AS n FROM queue_jobs WHERE queue = ? GROUP BY state, later`,
  );
  const selectRunAt = db.prepare(
    "SELECT run_at AS runAt FROM queue_jobs WHERE queue = ? AND id = ? AND state = 'waiting'",
  );
  const sweepStmt = db.prepare("DELETE FROM queue_jobs WHERE keep_until IS NOT NULL AND keep_until <= ?");

  const ended = (
    queue: string,
    id: string,
    state: "completed" | "failed",
    keepMs: number | undefined,
    now: number,
    error?: string,
  ) => {
    if (keepMs === undefined || keepMs <= 0) remove.run(queue, id);
    else endAs.run(state, now + keepMs, error ?? null, queue, id);
  };

  return {
    /** Adds jobs whose id is new; answers true per job added, false for an id already held. */
    add(queue: string, jobs: readonly NewJob[], now: number): boolean[] {
      return jobs.map(
        (job) =>
          insert.run(
            queue,
            job.id,
            JSON.stringify(job.data),
            job.runAt ?? now,
            job.priority ?? 0,
            job.maxAttempts ?? 1,
            job.backoffMs ?? 1000,
          ).changes === 1,
      );
    },
    /**
     * Makes the keyed job `id` due: a new job, or an ended one waiting again;
     * a waiting one keeps its due time; a running one (`running`) is marked to
     * run once more when it ends.
     */
    schedule(queue: string, job: NewJob, running: boolean, now: number): void {
      upsertKeyed.run({
        queue,
        id: job.id,
        data: JSON.stringify(job.data),
        runAt: job.runAt ?? now,
        priority: job.priority ?? 0,
        maxAttempts: job.maxAttempts ?? 1,
        backoffMs: job.backoffMs ?? 1000,
        running: running ? 1 : 0,
      });
    },
    /** Waiting jobs due by `now`, best priority first, skipping `running`. */
    due(queue: string, now: number, limit: number, running: ReadonlySet<string>): JobRow[] {
      const ids = due(limit + running.size).all(queue, now) as { id: string }[];
      return ids
        .filter((row) => !running.has(row.id))
        .slice(0, limit)
        .map((row) => selectJob.get(queue, row.id) as JobRow);
    },
    /** When the next waiting job that is not `running` is due (ms), if any. */
    nextDueAt(queue: string, running: ReadonlySet<string>): number | undefined {
      const rows = nextDue(running.size + 1).all(queue) as { id: string; at: number }[];
      return rows.find((row) => !running.has(row.id))?.at;
    },
    /** The run succeeded: kept, deleted, or (a keyed job marked to run once more) due again now. */
    complete(queue: string, id: string, keepMs: number | undefined, now: number): void {
      const row = selectRerun.get(queue, id) as { rerun: number } | undefined;
      if (row === undefined) return;
      if (row.rerun === 1) rerunNow.run(now, queue, id);
      else ended(queue, id, "completed", keepMs, now);
    },
    /** The processor asked to run again at `runAt`; a rerun mark is dropped, that run will see the new work. */
    delay(queue: string, id: string, runAt: number): void {
      setRunAt.run(runAt, queue, id);
    },
    /**
     * The run failed: retried with backoff while attempts remain (or `final` is false), else failed;
     * a keyed job marked to run once more is then due again now, with fresh attempts.
     */
    fail(
      queue: string,
      row: JobRow,
      error: string,
      final: boolean,
      keepMs: number | undefined,
      now: number,
    ): "retry" | "failed" {
      const attempts = row.attempts + 1;
      if (final || attempts >= row.maxAttempts) {
        // Work that arrived during the failed run still gets its run (as BullMQ's keepLastIfActive does).
        const mark = selectRerun.get(queue, row.id) as { rerun: number } | undefined;
        if (mark?.rerun === 1) rerunNow.run(now, queue, row.id);
        else ended(queue, row.id, "failed", keepMs, now, error);
        return "failed";
      }
      setRetry.run(now + row.backoffMs * 2 ** (attempts - 1), error, queue, row.id);
      return "retry";
    },
    updateData(queue: string, id: string, data: unknown): void {
      setData.run(JSON.stringify(data), queue, id);
    },
    state(queue: string, id: string): JobState {
      const row = selectState.get(queue, id) as { state: string } | undefined;
      if (row === undefined) return "missing";
      return row.state === "waiting" ? "pending" : "ended";
    },
    /** The data of a waiting job, if there is one with this id. */
    read(queue: string, id: string): unknown {
      const row = selectData.get(queue, id) as { data: string } | undefined;
      return row === undefined ? undefined : JSON.parse(row.data);
    },
    /** When the longest-due waiting job that is not `running` became due (ms), if any is due. */
    oldestDueAt(queue: string, now: number, running: ReadonlySet<string> = new Set()): number | undefined {
      const rows = oldestDue(running.size + 1).all(queue, now) as { id: string; at: number }[];
      return rows.find((row) => !running.has(row.id))?.at;
    },
    /** A waiting job due later runs now. */
    promote(queue: string, id: string, now: number): boolean {
      return promoteStmt.run(now, queue, id, now).changes === 1;
    },
    /**
     * Job counts by BullMQ-like state (waiting = due now, delayed = due later);
     * the `running` jobs count as active, not as waiting or delayed.
     */
    counts(queue: string, now: number, running: ReadonlySet<string> = new Set()): Record<string, number> {
      const counts: Record<string, number> = { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 };
      for (const row of countStmt.all(now, queue) as { state: string; later: number; n: number }[]) {
        const name = row.state === "waiting" ? (row.later === 1 ? "delayed" : "waiting") : row.state;
        counts[name] = (counts[name] ?? 0) + row.n;
      }
      for (const id of running) {
        const row = selectRunAt.get(queue, id) as { runAt: number } | undefined;
        if (row === undefined) continue;
        const name = row.runAt > now ? "delayed" : "waiting";
        counts[name] = Math.max(0, (counts[name] ?? 0) - 1);
        counts.active = (counts.active ?? 0) + 1;
      }
      return counts;
    },
    /** Deletes ended jobs kept past their time; answers how many. */
    sweep(now: number): number {
      return sweepStmt.run(now).changes;
    },
  };
}

export type JobTable = ReturnType<typeof createJobTable>;
