import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../../observability/index.js";
import { type EventJob, type JobHandler, QUEUE_NAMES } from "../../queue/index.js";
import { bullProcessor } from "../../queue/redis/index.js";

/** Where the events worker runs. */
export interface EventsWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  readonly logger: Logger;
}

export interface EventsWorkerOptions {
  /** Events in flight in this process; default 16. */
  readonly concurrency?: number;
}

export interface EventsWorker {
  readonly worker: Worker<EventJob, string>;
  /** Stops taking jobs and waits for the active ones (force: abandons them to the stalled-job check). */
  close(force?: boolean): Promise<void>;
}

/**
 * The events worker: a BullMQ worker on the `events` queue. Status events
 * update the delivery state of our messages (see createApplyStatusEvent);
 * `value.errors` and other fields' changes are logged and completed.
 * Any number of processes may run it: the store's updates are atomic.
 */
export function createEventsWorker(
  deps: EventsWorkerDeps,
  handler: JobHandler<EventJob>,
  options: EventsWorkerOptions = {},
): EventsWorker {
  const worker = new Worker<EventJob, string>(QUEUE_NAMES.events, bullProcessor(handler), {
    connection: deps.redis,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 16,
    maxStalledCount: 5,
  });
  worker.on("error", (error) => deps.logger.error({ err: error }, "events worker error"));
  return { worker, close: (force = false) => worker.close(force) };
}
