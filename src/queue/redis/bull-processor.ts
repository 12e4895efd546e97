import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { JobHandler } from "../job-outcome.js";

/**
 * A BullMQ processor from a job handler: its outcome becomes BullMQ's terms.
 * A retry moves the job to delayed and throws DelayedError (no attempt
 * spent); a give-up throws UnrecoverableError with the reason's message, so
 * BullMQ fails the job at once and records why.
 */
export function bullProcessor<T>(handler: JobHandler<T>) {
  return async function process(job: Job<T, string>, token?: string): Promise<string> {
    const outcome = await handler(job);
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
