import { DelayedError, UnrecoverableError } from "bullmq";
import type { QueueJob } from "../queue-job.js";
import type { JobRow, JobTable, KeepOptions } from "./job-table.js";

export interface JobRunnerOptions {
  /** Jobs of this queue in flight at once. */
  readonly concurrency: number;
  readonly keep?: KeepOptions;
  /** Longest sleep between looks at the table, ms (work added by this process wakes the runner sooner). */
  readonly idlePollMs?: number;
  readonly now?: () => number;
  /** Runs the write that ends a run (complete, fail, delay); default: as is. The sender's is synced to disk. */
  readonly commit?: <R>(work: () => R) => R;
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
 * concurrency, calling `handler` with a BullMQ-shaped job (see QueueJob).
 * A processor that throws DelayedError after moveToDelayed waits without
 * spending an attempt; UnrecoverableError fails the job at once; any other
 * error spends an attempt and retries with backoff.
 */
export function createJobRunner<T>(
  table: JobTable,
  queue: string,
  handler: (job: QueueJob<T>) => Promise<unknown>,
  options: JobRunnerOptions,
): JobRunner {
  const now = options.now ?? Date.now;
  const idlePollMs = options.idlePollMs ?? 1000;
  const onError = options.onError ?? (() => {});
  const commit = options.commit ?? (<R>(work: () => R) => work());
  const active = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;

  const runOne = async (row: JobRow) => {
    let delayedUntil: number | undefined;
    let data = JSON.parse(row.data) as T;
    const job: QueueJob<T> = {
      id: row.id,
      get data() {
        return data;
      },
      async updateData(next) {
        table.updateData(queue, row.id, next);
        data = next;
      },
      async moveToDelayed(timestamp) {
        delayedUntil = timestamp;
      },
    };
    try {
      await handler(job);
      commit(() => table.complete(queue, row.id, options.keep?.completedMs, now()));
    } catch (error) {
      try {
        if (error instanceof DelayedError && delayedUntil !== undefined) {
          const until = delayedUntil;
          commit(() => table.delay(queue, row.id, until));
        } else {
          const final = error instanceof UnrecoverableError;
          const message = error instanceof Error ? error.message : String(error);
          const outcome = commit(() => table.fail(queue, row, message, final, options.keep?.failedMs, now()));
          onError(error, { id: row.id, final: outcome === "failed" });
        }
      } catch (tableError) {
        // The table could not be written (disk full): the job stays waiting and runs again.
        onError(tableError);
      }
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
        rows = table.due(queue, now(), free, active);
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
      const next = table.nextDueAt(queue, active);
      if (next !== undefined) wait = Math.min(wait, Math.max(1, next - now()));
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
