/**
 * The part of a queued job a handler uses. BullMQ's Job has this shape, and
 * so does the embedded runner's, so one handler serves both modes. A handler
 * never moves its job itself: it returns a JobOutcome (see job-outcome.ts).
 */
export interface QueueJob<T> {
  readonly id?: string | undefined;
  readonly data: T;
  /** Replaces the job's data durably (it survives a crash of the process). */
  updateData(data: T): Promise<void>;
}
