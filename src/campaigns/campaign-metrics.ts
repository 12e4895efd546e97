import { Counter, type Registry } from "prom-client";

/** What became of one campaign send attempt (the `outcome` label). */
export type CampaignSendOutcome = "sent" | "failed" | "retry" | "unknown" | "deferred" | "skipped";

export interface CampaignMetrics {
  /** Campaign send attempts by tenant, outcome and Meta error code ("" when none). */
  readonly sends: Counter<"tenant" | "outcome" | "code">;
  /** Campaigns paused by the gateway itself (quality_red, limit_downgrade, token…), by reason. */
  readonly autoPaused: Counter<"tenant" | "reason">;
  /** Claims found abandoned by a dead sender (`unknown`) and unknown recipients sent again after the grace. */
  readonly recovered: Counter<"outcome">;
  /** Customers who opted out or back in, by how (keyword, button, meta) and language. */
  readonly optChanges: Counter<"tenant" | "kind" | "source">;
  /** Replies to campaign messages. */
  readonly replies: Counter<"tenant">;
}

/** The campaigns' Prometheus metrics, registered on `registry` (no globals). */
export function createCampaignMetrics(registry: Registry): CampaignMetrics {
  return {
    sends: new Counter({
      name: "ss_campaign_sends_total",
      help: "Campaign template send attempts by outcome (sent, failed, retry, unknown, deferred, skipped) and Meta error code.",
      labelNames: ["tenant", "outcome", "code"],
      registers: [registry],
    }),
    autoPaused: new Counter({
      name: "ss_campaign_auto_paused_total",
      help: "Running campaigns paused by the gateway (quality_red, limit_downgrade), by reason.",
      labelNames: ["tenant", "reason"],
      registers: [registry],
    }),
    recovered: new Counter({
      name: "ss_campaign_recovered_total",
      help: "Campaign sends whose sender died mid-send: unknown (lease over) and resent (no status came back within the grace).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    optChanges: new Counter({
      name: "ss_campaign_opt_changes_total",
      help: "Customers who opted out of campaigns or back in, by kind (opt_out, opt_in) and source (keyword, button, meta).",
      labelNames: ["tenant", "kind", "source"],
      registers: [registry],
    }),
    replies: new Counter({
      name: "ss_campaign_replies_total",
      help: "Customer messages quoting a campaign message (the first per recipient).",
      labelNames: ["tenant"],
      registers: [registry],
    }),
  };
}
