import { Counter, type Registry } from "prom-client";

export interface DeliveryMetrics {
  /** Status events by status and outcome (applied, stale_ignored, unknown_status). */
  readonly statuses: Counter<"status" | "outcome">;
  /** `failed` statuses applied, by Meta's error code. */
  readonly failed: Counter<"code">;
}

/** The events worker's Prometheus metrics, registered on `registry` (no globals). */
export function createDeliveryMetrics(registry: Registry): DeliveryMetrics {
  return {
    statuses: new Counter({
      name: "ss_delivery_statuses_total",
      help: "Delivery status webhooks by status and outcome: applied, stale_ignored (duplicate or out of order), unknown_status.",
      labelNames: ["status", "outcome"],
      registers: [registry],
    }),
    failed: new Counter({
      name: "ss_delivery_failed_total",
      help: "Messages Meta reported failed, by Meta's error code.",
      labelNames: ["code"],
      registers: [registry],
    }),
  };
}
