import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../observability/index.js";
import type { Reengage } from "../outbound/index.js";
import { type EventJob, QUEUE_NAMES, type QueueJob } from "../queue/index.js";
import { createApplyStatusEvent } from "./apply-status-event.js";
import type { DeliveryMetrics } from "./delivery-metrics.js";
import type { DeliveryStatusStore } from "./ports.js";

export interface EventsWorkerDeps {
  /** A client for BullMQ (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: Redis;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  readonly store: DeliveryStatusStore;
  readonly logger: Logger;
  readonly metrics?: DeliveryMetrics;
  readonly reengage?: Reengage;
}

export interface EventsWorkerOptions {
  /** Events in flight in this process; default 16. */
  readonly concurrency?: number;
}

export interface EventsWorker {
  readonly worker: Worker<EventJob>;
  /** Stops taking jobs and waits for the active ones (force: abandons them to the stalled-job check). */
  close(force?: boolean): Promise<void>;
}

/**
 * One run of an events job, for either queue backend: status events update
 * the delivery state of our messages (see createApplyStatusEvent); other
 * events are logged.
 */
export function createEventJobHandler(deps: Omit<EventsWorkerDeps, "redis" | "prefix">) {
  const applyStatusEvent = createApplyStatusEvent({
    store: deps.store,
    logger: deps.logger,
    metrics: deps.metrics,
    ...(deps.reengage === undefined ? {} : { reengage: deps.reengage }),
  });
  return async function runEventJob(job: QueueJob<EventJob>): Promise<string> {
    const event = job.data;
    if (event.kind === "status") return applyStatusEvent(event);
    deps.logger.info({ tenant: event.tenantId, kind: event.kind, field: event.field }, "webhook event");
    return "logged";
  };
}

/**
 * The events worker: a BullMQ worker on the `events` queue. Status events
 * update the delivery state of our messages (see createApplyStatusEvent);
 * `value.errors` and other fields' changes are logged and completed.
 * Any number of processes may run it: the store's updates are atomic.
 */
export function createEventsWorker(deps: EventsWorkerDeps, options: EventsWorkerOptions = {}): EventsWorker {
  const handle = createEventJobHandler(deps);
  const worker = new Worker<EventJob>(QUEUE_NAMES.events, (job: Job<EventJob>) => handle(job), {
    connection: deps.redis,
    prefix: deps.prefix,
    concurrency: options.concurrency ?? 16,
    maxStalledCount: 5,
  });
  worker.on("error", (error) => deps.logger.error({ err: error }, "events worker error"));
  return { worker, close: (force = false) => worker.close(force) };
}
