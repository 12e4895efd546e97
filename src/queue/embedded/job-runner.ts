import { causedBySqliteWriteFailure } from "../../sqlite/index.js";
import { QueueUnavailableError } from "../errors.js";
import type { JobHandler } from "../job-outcome.js";
import type { QueueJob } from "../ports.js";
import type { JobRow, JobTable, KeepOptions } from "./job-table.js";

export interface JobRunnerOptions {
  /** Jobs of this queue in flight at once. */
  readonly concurrency: number;
  readonly keep?: KeepOptions;
  /** Longest sleep between looks at the table, ms (work added by this process wakes the runner sooner). */
  readonly idlePollMs?: number;
  readonly now?: () => number;
  /** Awaited after the handler's updateData is written, before it goes on (the sender acts on it: committed first). */
  readonly dataUpdated?: () => Promise<void>;
  /**
   * Awaited after a run's end (done, retry or failure) is written, before the job's slot is free: with
   * writes committed per turn of the event loop it resolves once they are, and a rejection (the commit
   * failed: a full disk) holds the job back like a write that failed at once.
   */
  readonly written?: () => Promise<void>;
  /** Awaited after a run's completion is written, before the job counts as done (the sender syncs it to disk). */
  readonly afterComplete?: () => Promise<void>;
  /** First wait before a job whose end could not be written runs again, ms; doubled each time, at most 60 s. Default 1,000. */
  readonly writeFailureBackoffMs?: number;
  /**
   * Commits of the table's database that failed so far (TickCommits.failures). A run that threw while
   * one failed failed for want of a disk, not on its own: it is held back like a run whose end could not
   * be written, and spends no attempt. A run that threw a write the disk refused (an SQLite write failure
   * or QueueUnavailableError in its causes, which `updateData` rejects with) is held back with or without
   * it. Leave it out for a queue whose handler acts on a failure of its own (the send order), so only the
   * failures it can tell apart are held back. Default: none ever fail.
   */
  readonly commitFailures?: () => number;
  /**
   * Which thrown errors are writes the disk refused, so the run is held back (see `commitFailures`).
   * Default: an SQLite write failure or QueueUnavailableError anywhere in the error's causes. A queue
   * whose handler decides on the same errors passes its own rule, so the two never disagree.
   */
  readonly heldBackOn?: (error: unknown) => boolean;
  /** A job that failed (retried or for good), or the loop's own errors. */
  readonly onError?: (error: unknown, job?: { id: string; final: boolean }) => void;
}

export interface JobRunner {
  start(): void;
  /** New work may be due: look now. */
  notify(): void;
  /** Jobs running now. */
  running(): number;
  /** Ids of the jobs running now (keyed jobs use it to mark a rerun). */
  readonly active: ReadonlySet<string>;
  /** Stops taking jobs and waits for the running ones (force: stops waiting; they run again at the next start). */
  close(force?: boolean): Promise<void>;
}

/**
 * Runs one queue of the embedded job table in this process with bounded
 * concurrency, calling `handler` with a BullMQ-shaped job (see QueueJob) and
 * applying its outcome to the table: a retry waits until its time without
 * spending an attempt; a give-up fails the job at once; a thrown error
 * spends an attempt and retries with backoff, unless the run failed for
 * want of a disk (see `commitFailures`): then it is held back and spends none.
 */
export function createJobRunner<T>(
  table: JobTable,
  queue: string,
  handler: JobHandler<T>,
  options: JobRunnerOptions,
): JobRunner {
  const now = options.now ?? Date.now;
  const idlePollMs = options.idlePollMs ?? 1000;
  const onError = options.onError ?? (() => {});
  const active = new Set<string>();
  // Jobs whose end could not be written (a full disk): held back in memory so they do not spin, with
  // the data their run left. The failed commit may have taken the run's last updateData with it (a
  // reply marked sent), and the next run must see it, or it would send the reply again.
  const heldBack = new Map<string, { until: number; waitMs: number; data: T }>();
  const firstBackoffMs = options.writeFailureBackoffMs ?? 1000;
  const commitFailures = options.commitFailures ?? (() => 0);
  const heldBackOn = options.heldBackOn ?? causedByWriteFailure;
  const holdBack = (id: string, data: T) => {
    const waitMs = Math.min(60_000, (heldBack.get(id)?.waitMs ?? firstBackoffMs / 2) * 2);
    heldBack.set(id, { until: now() + waitMs, waitMs, data });
  };
  const excluded = (): ReadonlySet<string> => {
    if (heldBack.size === 0) return active;
    const at = now();
    const ids = new Set(active);
    // Expired holds stay (their wait doubles on the next failure) until the job's end is written.
    for (const [id, hold] of heldBack) if (hold.until > at) ids.add(id);
    return ids;
  };
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;

  const runOne = async (row: JobRow) => {
    const held = heldBack.get(row.id);
    let data = held === undefined ? (JSON.parse(row.data) as T) : held.data;
    const job: QueueJob<T> = {
      id: row.id,
      get data() {
        return data;
      },
      async updateData(next) {
        // Kept first: should the write fail (a full disk), a held-back job runs again with what its run left.
        data = next;
        // Typed, so a handler can tell "not kept, and this run will come again" from its own failures. Only
        // a write the disk refused is: data that cannot be written at all (not serialisable) is the run's own
        // failure, and holding it back would hold it for ever.
        try {
          table.updateData(queue, row.id, next);
        } catch (error) {
          if (!causedBySqliteWriteFailure(error)) throw error;
          throw new QueueUnavailableError("a job's data could not be written (a full disk?)", error);
        }
        try {
          await options.dataUpdated?.();
        } catch (error) {
          // The commit failed: whatever the cause, nothing of this tick was kept.
          throw new QueueUnavailableError("a job's data could not be committed (a full disk?)", error);
        }
      },
    };
    const failed = (error: unknown, final: boolean) => {
      const message = error instanceof Error ? error.message : String(error);
      const state = table.fail(queue, row, message, final, options.keep?.failedMs, now());
      onError(error, { id: row.id, final: state === "failed" });
    };
    const failuresAtStart = commitFailures();
    try {
      if (held !== undefined) table.updateData(queue, row.id, data);
      let outcome: Awaited<ReturnType<JobHandler<T>>>;
      try {
        outcome = await handler(job);
      } catch (error) {
        if (commitFailures() !== failuresAtStart || heldBackOn(error)) {
          holdBack(row.id, data);
          onError(error, { id: row.id, final: false });
          return;
        }
        failed(error, false);
        await options.written?.();
        heldBack.delete(row.id);
        return;
      }
      if (outcome?.kind === "retry") table.delay(queue, row.id, outcome.at);
      else if (outcome?.kind === "give_up") failed(outcome.error, true);
      else table.complete(queue, row.id, options.keep?.completedMs, now());
      await options.written?.();
      if (outcome?.kind !== "retry" && outcome?.kind !== "give_up") await options.afterComplete?.();
      heldBack.delete(row.id);
    } catch (tableError) {
      // The table could not be written (disk full): the job stays waiting, and runs again after a backoff.
      holdBack(row.id, data);
      onError(tableError);
    }
  };

  const pump = () => {
    scheduled = false;
    if (!running) return;
    clearTimeout(timer);
    timer = undefined;
    const free = options.concurrency - active.size;
    if (free > 0) {
      let rows: JobRow[] = [];
      try {
        rows = table.due(queue, now(), free, excluded());
      } catch (error) {
        onError(error);
      }
      for (const row of rows) {
        active.add(row.id);
        const run = runOne(row).finally(() => {
          active.delete(row.id);
          inFlight.delete(run);
          wake();
        });
        inFlight.add(run);
      }
    }
    if (active.size >= options.concurrency) return;
    let wait = idlePollMs;
    try {
      const skip = excluded();
      const next = table.nextDueAt(queue, skip);
      if (next !== undefined) wait = Math.min(wait, Math.max(1, next - now()));
      for (const hold of heldBack.values()) {
        if (hold.until > now()) wait = Math.min(wait, hold.until - now());
      }
    } catch (error) {
      onError(error);
    }
    timer = setTimeout(pump, wait);
    timer.unref();
  };

  const wake = () => {
    if (!running || scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  return {
    active,
    start() {
      if (running) return;
      running = true;
      wake();
    },
    notify: wake,
    running: () => active.size,
    async close(force = false) {
      running = false;
      clearTimeout(timer);
      if (!force) await Promise.allSettled([...inFlight]);
    },
  };
}

/** A write the disk or the table refused somewhere in the error's chain of causes (a handler may wrap it). */
function causedByWriteFailure(error: unknown): boolean {
  return causedBySqliteWriteFailure(error, (cause) => cause instanceof QueueUnavailableError);
}
