import type { CounterCell, IngressMetrics } from "../observability/index.js";

type Observe = (seconds: number) => void;

/**
 * What onResponse records for each request, with every label set bound once
 * (per route and outcome) instead of a label object built and hashed per request.
 */
export function createRequestMetrics(metrics: IngressMetrics) {
  const webhookRequests = new Map<string, CounterCell>();
  const durations = new Map<string, Map<string, Observe>>();

  const durationOf = (route: string, outcome: string): Observe => {
    let byOutcome = durations.get(route);
    if (byOutcome === undefined) {
      byOutcome = new Map();
      durations.set(route, byOutcome);
    }
    let observe = byOutcome.get(outcome);
    if (observe === undefined) {
      const bound = metrics.requestDuration.labels(route, outcome);
      observe = (seconds) => bound.observe(seconds);
      byOutcome.set(outcome, observe);
    }
    return observe;
  };

  return {
    /** `outcome`: the webhook route's (accepted, bad_signature, …); none for other routes. */
    record(route: string, outcome: string | undefined, statusCode: number, seconds: number): void {
      if (outcome !== undefined) {
        let cell = webhookRequests.get(outcome);
        if (cell === undefined) {
          cell = metrics.requests.cell("webhook", outcome);
          webhookRequests.set(outcome, cell);
        }
        cell.inc();
      }
      durationOf(route, outcome ?? String(statusCode))(seconds);
    },
  };
}
