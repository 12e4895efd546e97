import type { SharpsharpError } from "../errors/index.js";
import type { QueueJob } from "./ports.js";

/**
 * How one run of a job ended, for either queue backend. Handlers return it
 * and the runner moves the job (BullMQ's runner inside `queue/redis/`, the
 * embedded job runner on its SQLite table), so capability code never holds
 * a queue library's types. An error a handler throws instead spends an
 * attempt and is retried with the job's backoff.
 */
export type JobOutcome =
  | { readonly kind: "done"; readonly result: string }
  /** Run again at `at` (ms since the epoch) without spending an attempt: a wait, not a failure. */
  | { readonly kind: "retry"; readonly at: number }
  /** Failed for good, whatever attempts remain; `error` says why (its code is the reason, its message is recorded). */
  | { readonly kind: "give_up"; readonly error: SharpsharpError };

/** One run of a job of payload `T`; resolving with nothing counts as done. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that only does its work may end without a value, which is "done".
export type JobHandler<T> = (job: QueueJob<T>) => Promise<JobOutcome | undefined | void>;

/** The job is finished; `result` is what the runner records (a wamid, an outcome name). */
export function jobDone(result: string): JobOutcome {
  return { kind: "done", result };
}

/** Run the job again at `at`, ms since the epoch, without spending an attempt. */
export function retryAt(at: number): JobOutcome {
  return { kind: "retry", at };
}

/** Fail the job for good with `error`. */
export function giveUp(error: SharpsharpError): JobOutcome {
  return { kind: "give_up", error };
}
