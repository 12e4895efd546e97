import type { Logger } from "../observability/index.js";
import type { Reengage } from "../outbound/index.js";
import { type EventJob, type JobOutcome, jobDone, type QueueJob } from "../queue/index.js";
import type { InboundMessage } from "../whatsapp/index.js";
import { createApplyStatusEvent } from "./apply-status-event.js";
import type { DeliveryMetrics } from "./delivery-metrics.js";
import type { DeliveryStatusStore } from "./ports.js";

/** What an events job handler is given. */
export interface EventJobHandlerDeps {
  readonly store: DeliveryStatusStore;
  readonly logger: Logger;
  readonly metrics?: DeliveryMetrics;
  readonly reengage?: Reengage;
  /**
   * Keeps a message that is recorded and never answered (the message log's
   * recorder); a rejection retries the job. None: such messages are only logged.
   */
  readonly recordMessage?: (message: InboundMessage) => Promise<unknown>;
}

/**
 * One run of an events job, for either queue backend: status events update
 * the delivery state of our messages (see createApplyStatusEvent); messages
 * that are never answered are recorded; other events are logged.
 */
export function createEventJobHandler(deps: EventJobHandlerDeps) {
  const applyStatusEvent = createApplyStatusEvent({
    store: deps.store,
    logger: deps.logger,
    metrics: deps.metrics,
    ...(deps.reengage === undefined ? {} : { reengage: deps.reengage }),
  });
  return async function runEventJob(job: QueueJob<EventJob>): Promise<JobOutcome> {
    const event = job.data;
    if (event.kind === "status") return jobDone(await applyStatusEvent(event));
    if (event.kind === "message") {
      await deps.recordMessage?.(event.message);
      deps.logger.debug(
        { tenant: event.tenantId, type: event.message.type, reason: event.message.unanswerable },
        "message recorded, not answered",
      );
      return jobDone(deps.recordMessage === undefined ? "logged" : "recorded");
    }
    deps.logger.info({ tenant: event.tenantId, kind: event.kind, field: event.field }, "webhook event");
    return jobDone("logged");
  };
}
