import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { JobHandler } from "../job-outcome.js";
import type { QueueJob } from "../ports.js";

/** BullMQ's own default lock, ms. */
const BULLMQ_DEFAULT_LOCK_MS = 30_000;

/** The job's lock is another worker's now (or gone): this worker must not act for it any more. */
export class JobLockLostError extends Error {
  constructor(jobId: string | undefined) {
    super(`the lock of job ${jobId ?? "?"} was lost: another worker took it over as stalled`);
    this.name = "JobLockLostError";
  }
}

/**
 * The job as the handler sees it, with `ensureOwned`: it renews the job's
 * lock under this worker's token and throws JobLockLostError if the lock is
 * no longer this worker's. A worker cut off from Redis for longer than its
 * lock has had its job taken over as stalled by another; without the check
 * it would go on, once Redis answered again, to send the same reply as the
 * new owner (the fault suite's Redis outage saw it). Renewed, the lock
 * cannot lapse again for `lockMs`, so a side effect started right after is
 * this worker's alone.
 */
function ownedJob<T>(job: Job<T, string>, token: string | undefined, lockMs: number): QueueJob<T> {
  return {
    id: job.id,
    get data() {
      return job.data;
    },
    updateData: (data: T) => job.updateData(data),
    async ensureOwned() {
      if (token !== undefined && (await job.extendLock(token, lockMs)) === 0)
        throw new JobLockLostError(job.id);
    },
  };
}

/**
 * A BullMQ processor from a job handler: its outcome becomes BullMQ's terms.
 * A retry moves the job to delayed and throws DelayedError (no attempt
 * spent); a give-up throws UnrecoverableError with the reason's message, so
 * BullMQ fails the job at once and records why. `lockMs` is the worker's
 * lock duration (BullMQ's `lockDuration`).
 */
export function bullProcessor<T>(handler: JobHandler<T>, options: { lockMs?: number } = {}) {
  const lockMs = options.lockMs ?? BULLMQ_DEFAULT_LOCK_MS;
  return async function process(job: Job<T, string>, token?: string): Promise<string> {
    const outcome = await handler(ownedJob(job, token, lockMs));
    if (outcome === undefined) return "done";
    switch (outcome.kind) {
      case "done":
        return outcome.result;
      case "retry":
        await job.moveToDelayed(outcome.at, token);
        throw new DelayedError();
      case "give_up":
        throw new UnrecoverableError(outcome.error.message);
    }
  };
}
