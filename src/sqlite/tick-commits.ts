import type { SqliteDatabase } from "./open-sqlite.js";

/** The writes of one turn of the event loop, committed together (see batchWritesPerTick). */
export interface TickCommits {
  /**
   * Resolves once every write made so far is committed (at the end of this turn of the event loop,
   * shared by every caller in it): await it before acting outside the process on what was written.
   */
  committed(): Promise<void>;
  /** Commits the writes so far at once (before a flush to disk, before the file is closed); throws if it cannot. */
  commitNow(): void;
  /**
   * Batches that could not be committed since the start. Each took every write in it with it, the
   * unawaited ones too, while later batches may commit: work that went on from a write nothing waited
   * for compares this count before acting on that write.
   */
  failures(): number;
}

type Transaction = ((...args: unknown[]) => unknown) & {
  deferred: (...args: unknown[]) => unknown;
  immediate: (...args: unknown[]) => unknown;
  exclusive: (...args: unknown[]) => unknown;
};

/**
 * How long writes that nothing waits for may stay open to share a later commit, ms. About a quarter
 * of the commits at 100 messages/s had no waiter (message-log rows, history, conversation state), and
 * each cost as much as one that had (bench/RESULTS.md).
 */
export const UNAWAITED_COMMIT_MS = 4;

/**
 * Makes every write on `db` made in one turn of the event loop one
 * transaction, committed by a setImmediate at its end: a commit costs
 * ~200 µs here (each touched page written to the WAL, locks), a write in an
 * open transaction ~20 µs, and a turn, its send and the message log made
 * about fifteen commits per message (the embedded knee was below 800
 * messages/s, bench/RESULTS.md). Writes that nothing waits for in their
 * turn of the loop stay open up to `unawaitedCommitMs` longer, so they
 * join the next commit someone waits for instead of paying for their own.
 *
 * What changes for a crash: a kill -9 loses the writes of the last turn of
 * the loop, or of the last few milliseconds that nothing waited for, as if
 * it had come a moment earlier, and the file always holds a prefix of the
 * writes (one connection, committed in order). Work that acts outside the
 * process on a write first awaits `committed()` (a send marked started, a
 * journaled step) or calls `commitNow()` (the WAL flush before a webhook is
 * acknowledged), which commits every earlier write with it, so nothing
 * acted on is lost.
 *
 * Installs itself by wrapping `db.prepare` (statements that write) and
 * `db.transaction` (each becomes a savepoint of the open transaction), so
 * call it before any statement is prepared. A failed commit rolls the batch
 * back, rejects its waiters and is reported to `onError`.
 */
export function batchWritesPerTick(
  db: SqliteDatabase,
  onError: (error: unknown) => void,
  options: { readonly unawaitedCommitMs?: number } = {},
): TickCommits {
  const unawaitedCommitMs = options.unawaitedCommitMs ?? UNAWAITED_COMMIT_MS;
  let open = false;
  let atEndOfTick = false;
  let later: NodeJS.Timeout | undefined;
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let failures = 0;

  // Commits the batch; throws (after rolling it back) when it cannot be committed.
  const commitNow = () => {
    clearTimeout(later);
    later = undefined;
    const batch = waiters;
    waiters = [];
    if (!open) {
      for (const waiter of batch) waiter.resolve();
      return;
    }
    open = false;
    try {
      // A full disk or an I/O error can make SQLite roll the whole transaction back by itself.
      if (!db.inTransaction) throw new Error("the batch of writes was rolled back by SQLite after an error");
      db.exec("COMMIT");
    } catch (error) {
      failures += 1;
      try {
        if (db.inTransaction) db.exec("ROLLBACK");
      } catch {
        // Nothing more to undo.
      }
      for (const waiter of batch) waiter.reject(error);
      throw error;
    }
    for (const waiter of batch) waiter.resolve();
  };
  const commitScheduled = () => {
    atEndOfTick = false;
    try {
      commitNow();
    } catch (error) {
      onError(error);
    }
  };
  const commitAtEndOfTick = () => {
    if (atEndOfTick) return;
    atEndOfTick = true;
    setImmediate(commitScheduled);
  };
  const begin = () => {
    if (open) {
      if (db.inTransaction) return;
      // SQLite rolled the batch back (see commitNow): its waiters learn it at once.
      commitScheduled();
    }
    // Inside a transaction of the caller's own (the body of a db.transaction): it is the batch already.
    if (db.inTransaction) return;
    db.exec("BEGIN");
    open = true;
    if (unawaitedCommitMs <= 0) commitAtEndOfTick();
    else if (later === undefined && !atEndOfTick) later = setTimeout(commitScheduled, unawaitedCommitMs);
  };

  const prepare = db.prepare.bind(db) as (source: string) => ReturnType<SqliteDatabase["prepare"]>;
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.readonly) return statement;
    for (const method of ["run", "get", "all"] as const) {
      const original = statement[method] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        begin();
        return original.apply(statement, args);
      };
    }
    return statement;
  }) as SqliteDatabase["prepare"];

  const transaction = db.transaction.bind(db) as unknown as (
    fn: (...args: unknown[]) => unknown,
  ) => Transaction;
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const inner = transaction(fn);
    const within =
      (variant: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) => {
        begin();
        return variant(...args);
      };
    return Object.assign(within(inner), {
      deferred: within(inner.deferred),
      immediate: within(inner.immediate),
      exclusive: within(inner.exclusive),
    });
  }) as unknown as SqliteDatabase["transaction"];

  const close = db.close.bind(db);
  db.close = () => {
    if (db.open) commitScheduled();
    return close();
  };

  return {
    committed() {
      if (!open) return Promise.resolve();
      commitAtEndOfTick();
      return new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    commitNow,
    failures: () => failures,
  };
}
