import type { Logger } from "../../observability/index.js";
import type { EventJob, JobHandler } from "../../queue/index.js";
import {
  createEventStreamRunner,
  type EventStreamRunner,
  type RedisClient,
} from "../../queue/redis/index.js";

/** Where the events worker runs. */
export interface EventsWorkerDeps {
  /** A client that waits out reconnects (`maxRetriesPerRequest: null`); owned by the caller. */
  readonly redis: RedisClient;
  /** REDIS_PREFIX. */
  readonly prefix: string;
  readonly logger: Logger;
}

export interface EventsWorkerOptions {
  /** Events in flight in this process; default 16. */
  readonly concurrency?: number;
  /** An event left pending this long by a worker that died is taken over, ms; default 30,000. */
  readonly claimIdleMs?: number;
  /** How often due retries are moved back and dead workers' events looked for, ms; default 500. */
  readonly maintenanceIntervalMs?: number;
  /** First retry delay after a thrown error, ms, doubled each attempt; default 1,000. */
  readonly backoffMs?: number;
}

export type EventsWorker = EventStreamRunner;

/**
 * The events worker: a consumer of the `{p}:events:stream` stream (see
 * createEventStreamRunner). Status events update the delivery state of our
 * messages (see createApplyStatusEvent); record-only messages are recorded;
 * other events are logged. Any number of processes may run it: each event
 * goes to one of them, and the store's updates are atomic.
 */
export function createEventsWorker(
  deps: EventsWorkerDeps,
  handler: JobHandler<EventJob>,
  options: EventsWorkerOptions = {},
): EventsWorker {
  return createEventStreamRunner(
    {
      redis: deps.redis,
      prefix: deps.prefix,
      ...options,
      onError(error, failed) {
        if (failed === undefined) deps.logger.error({ err: error }, "events worker error");
        else {
          const { event, final } = failed;
          const fields = { err: error, tenant: event.tenantId, kind: event.kind, dedupeId: event.dedupeId };
          if (final)
            deps.logger.error(fields, "event failed for good (kept in the events dead-letter stream)");
          else deps.logger.warn(fields, "event failed, retried with backoff");
        }
      },
    },
    handler,
  );
}
