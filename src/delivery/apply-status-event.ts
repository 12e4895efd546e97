import type { Logger } from "../observability/index.js";
import type { Reengage } from "../outbound/index.js";
import type { StatusEvent } from "../whatsapp/index.js";
import type { DeliveryMetrics } from "./delivery-metrics.js";
import type { ApplyOutcome, DeliveryStatusStore } from "./ports.js";
import { statusUpdateOf } from "./status-update-of.js";

/** Meta's "re-engagement message" error: the customer's 24 h window is closed. */
export const OUTSIDE_WINDOW_CODE = 131047;

const UNKNOWN_STATUS_CHARS = 32;
const MAX_WARNED_STATUSES = 100;

export interface ApplyStatusEventDeps {
  readonly store: DeliveryStatusStore;
  readonly logger: Logger;
  readonly metrics: DeliveryMetrics | undefined;
  /** Sends the re-engagement template for a message that failed with 131047; none: only recorded. */
  readonly reengage?: Reengage;
}

/**
 * Applies one status webhook event to the message's state, counts it and,
 * for a `failed` with 131047 on a message our sender recorded, asks for the
 * re-engagement template (idempotent: its job id is derived from the original
 * reply, so a redelivered or retried event queues nothing more).
 */
export function createApplyStatusEvent(deps: ApplyStatusEventDeps) {
  // A status Meta adds comes with every message: warn once per value, then only at debug.
  const warned = new Set<string>();
  return async function applyStatusEvent(event: StatusEvent): Promise<ApplyOutcome | "unknown_status"> {
    const update = statusUpdateOf(event);
    if (update === undefined) {
      deps.metrics?.statuses.inc({ status: "other", outcome: "unknown_status" });
      // The value comes from the request body: cut, so a log line cannot grow with it.
      const status = event.status.slice(0, UNKNOWN_STATUS_CHARS);
      const first = !warned.has(status) && warned.size < MAX_WARNED_STATUSES;
      if (first) warned.add(status);
      deps.logger[first ? "warn" : "debug"](
        { tenant: event.tenantId, status },
        "status we do not model: counted, not applied",
      );
      return "unknown_status";
    }
    const outcome = await deps.store.applyStatus(update);
    deps.metrics?.statuses.inc({ status: update.status, outcome });
    if (update.status !== "failed") return outcome;

    const code = update.error?.code;
    if (outcome === "applied") {
      deps.metrics?.failed.inc({ code: code === undefined ? "" : String(code) });
      deps.logger.warn(
        { tenant: update.tenantId, graphCode: code, title: update.error?.title },
        "Meta reports a message failed",
      );
    }
    if (code !== OUTSIDE_WINDOW_CODE || deps.reengage === undefined) return outcome;
    // Also on a stale repeat: the template's job id makes a second request a no-op, and a first attempt may have failed.
    const record = await deps.store.get(update.tenantId, update.wamid);
    if (record?.sent === undefined || record.status !== "failed" || record.errorCode !== code) return outcome;
    await deps.reengage(record.sent);
    return outcome;
  };
}
