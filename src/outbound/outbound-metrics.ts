import { Counter, Histogram, type Registry } from "prom-client";

/** What became of one send attempt (the `outcome` label). */
export type SendOutcome =
  | "sent"
  | "retry"
  | "wait"
  | "retry_unknown"
  | "given_up"
  /** Not attempted: the tenant is paused. */
  | "deferred_paused"
  /** Not attempted yet: an earlier reply of the conversation is still to send. */
  | "deferred_order"
  /** Not sent again: this process had sent it, and the queue lost the mark (Redis cut off, a failed commit). */
  | "already_sent";

/** Why a send waited before it was attempted (the `limit` label). */
export type LimiterWait = "slot" | "delayed";

export interface OutboundMetrics {
  /** Send attempts by tenant, outcome and Meta error code ("" when none). */
  readonly sends: Counter<"tenant" | "outcome" | "code">;
  /** Sends given up for good by reason. */
  readonly givenUp: Counter<"tenant" | "reason">;
  /** Rate-limiter waits: `slot` slept until a reserved slot; `delayed` moved back to BullMQ's delayed set. */
  readonly limiterWaits: Histogram<"kind">;
  /** Replies refused with 131047, by what followed: queued (template), no_template, skipped (a template itself). */
  readonly reengagements: Counter<"tenant" | "outcome">;
  /** Replies sent ahead of an earlier one of their conversation after waiting the longest allowed. */
  readonly orderOverdue: Counter<"tenant">;
  /** Time from the turn's first message reaching the ingress to the Graph API accepting its reply, seconds. */
  readonly endToEndSeconds: Histogram<"tenant">;
}

/** The outbound sender's Prometheus metrics, registered on `registry` (no globals). */
export function createOutboundMetrics(registry: Registry): OutboundMetrics {
  return {
    sends: new Counter({
      name: "ss_outbound_sends_total",
      help: "Graph API send attempts by outcome (sent, retry, wait, retry_unknown, given_up, deferred_paused, deferred_order) and Meta error code.",
      labelNames: ["tenant", "outcome", "code"],
      registers: [registry],
    }),
    givenUp: new Counter({
      name: "ss_outbound_given_up_total",
      help: "Replies given up for good, by reason (reengagement_required, access_token_invalid, …).",
      labelNames: ["tenant", "reason"],
      registers: [registry],
    }),
    limiterWaits: new Histogram({
      name: "ss_outbound_rate_limit_wait_seconds",
      help: "Waits imposed by the shared rate limiters (throughput per number, pair limit), by kind: slot (slept) or delayed (job moved to delayed).",
      labelNames: ["kind"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    reengagements: new Counter({
      name: "ss_outbound_reengagements_total",
      help: "Messages refused outside the 24 h window (131047), by outcome: queued (re-engagement template), no_template, skipped.",
      labelNames: ["tenant", "outcome"],
      registers: [registry],
    }),
    orderOverdue: new Counter({
      name: "ss_outbound_order_overdue_total",
      help: "Replies sent ahead of an earlier reply of their conversation after waiting orderMaxWaitMs for it.",
      labelNames: ["tenant"],
      registers: [registry],
    }),
    endToEndSeconds: new Histogram({
      name: "ss_end_to_end_seconds",
      help: "Time from the webhook carrying a turn's first message being received to the Graph API accepting its reply.",
      labelNames: ["tenant"],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
  };
}
