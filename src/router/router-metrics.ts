import { Counter, Histogram, type Registry } from "prom-client";

/** The router's Prometheus metrics: how much traffic it answers locally, by intent and language. */
export interface RouterMetrics {
  /** Classified turns by tenant, best intent, language guess and whether the router answered (`resolved`). */
  readonly decisions: Counter<"tenant" | "intent" | "language" | "resolved">;
  /** The best intent's calibrated confidence. */
  readonly confidence: Histogram<"intent">;
}

/** Registers the router's metrics on `registry` (no global registry). */
export function createRouterMetrics(registry: Registry): RouterMetrics {
  return {
    decisions: new Counter({
      name: "ss_router_decisions_total",
      help: "Turns classified by the intent router, by best intent, language guess and local resolution",
      labelNames: ["tenant", "intent", "language", "resolved"],
      registers: [registry],
    }),
    confidence: new Histogram({
      name: "ss_router_confidence",
      help: "Calibrated confidence of the router's best intent",
      labelNames: ["intent"],
      buckets: [0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1],
      registers: [registry],
    }),
  };
}
