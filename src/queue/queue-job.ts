/**
 * The part of a queued job a processor uses. BullMQ's Job has this shape,
 * and so does the embedded runner's, so one processor serves both modes.
 * To wait, a processor calls moveToDelayed and then throws BullMQ's
 * DelayedError; to give up for good it throws UnrecoverableError.
 */
export interface QueueJob<T> {
  readonly id?: string | undefined;
  readonly data: T;
  /** Replaces the job's data durably (it survives a crash of the process). */
  updateData(data: T): Promise<void>;
  /** Runs the job again at `timestamp` (ms since the epoch) once the processor throws DelayedError. */
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}
