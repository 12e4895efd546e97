import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The LLM agent's Prometheus metrics. */
export interface AgentMetrics {
  /** Agent turns by outcome: answered, handoff, confirm, holding (deadline), fallback (LLM failed), budget, busy. */
  readonly turns: Counter<"tenant" | "outcome">;
  readonly llmCalls: Counter<"tenant" | "provider" | "result">;
  readonly tokens: Counter<"tenant" | "kind">;
  readonly costUsd: Counter<"tenant">;
  readonly toolCalls: Counter<"tenant" | "tool" | "result">;
  /** Tool calls the egress policy refused, by range (loopback, link_local, private, unspecified, metadata). */
  readonly toolEgressRefused: Counter<"tenant" | "tool" | "range">;
  readonly turnSeconds: Histogram<"tenant">;
  /**
   * Share of the tenant's daily token budget spent (0 to 1, above 1 past it), set when a turn checks
   * the budget and after each LLM call; it keeps its value until the tenant's next agent turn.
   */
  readonly budgetUsed: Gauge<"tenant">;
}

export function createAgentMetrics(registry: Registry): AgentMetrics {
  return {
    turns: new Counter({
      name: "ss_agent_turns_total",
      help: "Agent turns by outcome",
      labelNames: ["tenant", "outcome"],
      registers: [registry],
    }),
    llmCalls: new Counter({
      name: "ss_agent_llm_calls_total",
      help: "LLM calls by provider and result (ok, error)",
      labelNames: ["tenant", "provider", "result"],
      registers: [registry],
    }),
    tokens: new Counter({
      name: "ss_agent_tokens_total",
      help: "LLM tokens used, by kind (prompt, completion)",
      labelNames: ["tenant", "kind"],
      registers: [registry],
    }),
    costUsd: new Counter({
      name: "ss_agent_cost_usd_total",
      help: "LLM cost in US dollars, from the tenant's llm prices",
      labelNames: ["tenant"],
      registers: [registry],
    }),
    toolCalls: new Counter({
      name: "ss_agent_tool_calls_total",
      help: "Tool calls by tool and result (ok, error, confirm_asked, refused)",
      labelNames: ["tenant", "tool", "result"],
      registers: [registry],
    }),
    toolEgressRefused: new Counter({
      name: "ss_agent_tool_egress_refused_total",
      help: "Tool calls not made because the address is in a range the tool's allowNetworks does not cover",
      labelNames: ["tenant", "tool", "range"],
      registers: [registry],
    }),
    turnSeconds: new Histogram({
      name: "ss_agent_turn_seconds",
      help: "Agent turn time, LLM calls and tools included",
      labelNames: ["tenant"],
      buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 25, 60],
      registers: [registry],
    }),
    budgetUsed: new Gauge({
      name: "ss_agent_token_budget_used_ratio",
      help: "Share of the tenant's daily LLM token budget spent today (UTC), as of its last agent turn",
      labelNames: ["tenant"],
      registers: [registry],
    }),
  };
}
