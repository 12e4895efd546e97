import { Counter, Histogram, type Registry } from "prom-client";

/** The turn worker's Prometheus metrics. */
export interface TurnMetrics {
  /** Turn job runs by tenant and outcome (`handled`, `empty`, `postpone`, `busy`). */
  readonly runs: Counter<"tenant" | "outcome">;
  /** Messages answered together as one turn. */
  readonly messagesPerTurn: Histogram<"tenant">;
  /** Messages handled as stale (Meta replayed them long after they were written). */
  readonly staleMessages: Counter<"tenant">;
  /** Time from a job run's start to its replies queued, seconds. */
  readonly turnSeconds: Histogram<"tenant">;
  /** Time from the turn's first message reaching the ingress to its replies queued, seconds. */
  readonly latencySeconds: Histogram<"tenant">;
  /** Turns picked up from the journal after a run failed or died. */
  readonly resumed: Counter<"tenant">;
  /** Turns set aside unanswered after failing too often. */
  readonly setAside: Counter<"tenant">;
}

/** Registers the turn worker's metrics on `registry` (no global registry). */
export function createTurnMetrics(registry: Registry): TurnMetrics {
  return {
    runs: new Counter({
      name: "ss_turn_runs_total",
      help: "Turn job runs by outcome",
      labelNames: ["tenant", "outcome"],
      registers: [registry],
    }),
    messagesPerTurn: new Histogram({
      name: "ss_turn_messages",
      help: "Messages coalesced into one turn",
      labelNames: ["tenant"],
      buckets: [1, 2, 3, 5, 10, 20, 50, 100],
      registers: [registry],
    }),
    staleMessages: new Counter({
      name: "ss_turn_stale_messages_total",
      help: "Messages handled as stale replays",
      labelNames: ["tenant"],
      registers: [registry],
    }),
    turnSeconds: new Histogram({
      name: "ss_turn_duration_seconds",
      help: "Turn job run time until its replies are queued",
      labelNames: ["tenant"],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    latencySeconds: new Histogram({
      name: "ss_turn_latency_seconds",
      help: "Time from the turn's first message reaching the ingress (webhook received) to its replies queued",
      labelNames: ["tenant"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    resumed: new Counter({
      name: "ss_turn_resumed_total",
      help: "Turns finished from the turn journal after an earlier run failed or died",
      labelNames: ["tenant"],
      registers: [registry],
    }),
    setAside: new Counter({
      name: "ss_turn_set_aside_total",
      help: "Turns set aside unanswered after failing too often (see sharpsharp turns set-aside)",
      labelNames: ["tenant"],
      registers: [registry],
    }),
  };
}
