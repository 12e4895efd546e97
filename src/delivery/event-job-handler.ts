import { fingerprint, type Logger, type Tracing } from "../observability/index.js";
import type { Reengage } from "../outbound/index.js";
import { type EventJob, type JobOutcome, jobDone, type QueueJob } from "../queue/index.js";
import type { InboundMessage, StatusEvent } from "../whatsapp/index.js";
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
  /**
   * A span per status, under its webhook's and linked to the span of the send it
   * reports on (found by the message's wamid); optional (off).
   */
  readonly tracing?: Tracing;
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
  const tracing = deps.tracing;
  const applyTraced = async (event: StatusEvent) => {
    if (tracing === undefined || !tracing.enabled) return applyStatusEvent(event);
    // One read more per status, only with tracing on: the send's traceparent is kept with its wamid.
    const sent = (await deps.store.get(event.tenantId, event.wamid))?.sent;
    return tracing.inSpan(
      "delivery.status",
      {
        kind: "consumer",
        parent: event.traceparent,
        links: [sent?.traceparent],
        attributes: {
          "ss.tenant": event.tenantId,
          "ss.status": event.status.slice(0, 32),
          "ss.wamid.hash": fingerprint(event.wamid),
          "ss.status.ours": sent !== undefined,
          "ss.turn.id": sent?.turnId,
        },
      },
      async (span) => {
        const outcome = await applyStatusEvent(event);
        span.setAttributes({ "ss.status.outcome": outcome });
        return outcome;
      },
    );
  };
  return async function runEventJob(job: QueueJob<EventJob>): Promise<JobOutcome> {
    const event = job.data;
    if (event.kind === "status") return jobDone(await applyTraced(event));
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
