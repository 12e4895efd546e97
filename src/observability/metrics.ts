import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type CellCounter, createCellCounter } from "./counter-cells.js";

/** Outcomes of a webhook POST, one label value each. */
export type WebhookOutcome =
  | "accepted"
  | "bad_signature"
  | "malformed"
  | "unavailable"
  | "unknown_tenant"
  | "too_large"
  | "unsupported_media_type";

export interface QueueDepthSample {
  readonly inboxMessages: number;
  readonly inboxConversations: number;
  readonly unscheduledConversations: number;
  readonly jobs: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export interface IngressMetrics {
  readonly registry: Registry;
  readonly requestDuration: Histogram<"route" | "outcome">;
  readonly requests: CellCounter<"route" | "outcome">;
  readonly messages: CellCounter<"tenant" | "result">;
  readonly events: CellCounter<"tenant" | "kind" | "result">;
  readonly webhookErrors: CellCounter<"tenant" | "code">;
  readonly dropped: CellCounter<"tenant" | "reason">;
  /** Messages recorded and never answered, by why (see src/whatsapp/answerability.ts). */
  readonly unanswered: CellCounter<"tenant" | "reason">;
  /** Messages whose Meta timestamp was minutes ahead of arrival (ordered by arrival instead). */
  readonly futureTimestamps: CellCounter<"tenant">;
}

export interface CreateIngressMetricsOptions {
  /** Read on every scrape; a failure leaves the gauges at their last value. */
  readonly sampleQueueDepth?: () => Promise<QueueDepthSample>;
  readonly defaultMetrics?: boolean;
}

/**
 * The ingress's Prometheus metrics on their own registry (no globals), so
 * tests and several apps in one process never share counters.
 */
export function createIngressMetrics(options: CreateIngressMetricsOptions = {}): IngressMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: "ss_process_" });
  const metrics: IngressMetrics = {
    registry,
    requestDuration: new Histogram({
      name: "ss_ingress_request_duration_seconds",
      help: "Time from request to response, by route and outcome.",
      labelNames: ["route", "outcome"],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    requests: createCellCounter({
      name: "ss_ingress_requests_total",
      help: "Webhook requests by route and outcome (accepted, bad_signature, malformed, unavailable, …).",
      labelNames: ["route", "outcome"],
      registers: [registry],
    }),
    messages: createCellCounter({
      name: "ss_ingress_messages_total",
      help: "Inbound customer messages by result: accepted (new) or duplicate (already recorded).",
      labelNames: ["tenant", "result"],
      registers: [registry],
    }),
    events: createCellCounter({
      name: "ss_ingress_events_total",
      help: "Statuses and other webhook events by kind and result (accepted or duplicate).",
      labelNames: ["tenant", "kind", "result"],
      registers: [registry],
    }),
    webhookErrors: createCellCounter({
      name: "ss_ingress_webhook_errors_total",
      help: "value.errors entries Meta reported (system, app or account level), by error code.",
      labelNames: ["tenant", "code"],
      registers: [registry],
    }),
    dropped: createCellCounter({
      name: "ss_ingress_dropped_items_total",
      help: "Items of an otherwise valid webhook that could not be queued (no id, no sender, bad status).",
      labelNames: ["tenant", "reason"],
      registers: [registry],
    }),
    unanswered: createCellCounter({
      name: "ss_ingress_unanswered_messages_total",
      help: "Messages recorded and never answered, by reason (reaction, edit, revoke, system, group, unlisted_number, no_reply_address, own_number).",
      labelNames: ["tenant", "reason"],
      registers: [registry],
    }),
    futureTimestamps: createCellCounter({
      name: "ss_ingress_future_timestamps_total",
      help: "Messages whose Meta timestamp lay minutes ahead of arrival; ordered by arrival instead.",
      labelNames: ["tenant"],
      registers: [registry],
    }),
  };
  const sample = options.sampleQueueDepth;
  if (sample !== undefined) {
    let last: Promise<QueueDepthSample> | undefined;
    // One sample per scrape, shared by the gauges collected in it.
    const read = () => {
      last ??= sample().finally(() => {
        setTimeout(() => {
          last = undefined;
        }, 50).unref();
      });
      return last;
    };
    new Gauge({
      name: "ss_queue_inbox_messages",
      help: "Messages recorded and waiting in conversation inboxes.",
      registers: [registry],
      async collect() {
        this.set((await read()).inboxMessages);
      },
    });
    new Gauge({
      name: "ss_queue_inbox_conversations",
      help: "Conversations with at least one waiting message.",
      registers: [registry],
      async collect() {
        this.set((await read()).inboxConversations);
      },
    });
    new Gauge({
      name: "ss_queue_unscheduled_conversations",
      help: "Conversations with waiting messages and no due turn a worker could claim (0 when nothing lags).",
      registers: [registry],
      async collect() {
        this.set((await read()).unscheduledConversations);
      },
    });
    new Gauge({
      name: "ss_queue_jobs",
      help: "Jobs per queue and state (turns, events).",
      labelNames: ["queue", "state"],
      registers: [registry],
      async collect() {
        for (const [queue, states] of Object.entries((await read()).jobs)) {
          for (const [state, count] of Object.entries(states)) this.set({ queue, state }, count);
        }
      },
    });
  }
  return metrics;
}
