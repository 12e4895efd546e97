import { Counter, Histogram, type Registry } from "prom-client";

/** Media read per kind and outcome, how long, and what speech to text cost. */
export interface MediaMetrics {
  read(tenant: string, kind: string, outcome: string, seconds: number): void;
  sttCost(tenant: string, usd: number): void;
}

export function createMediaMetrics(registry: Registry): MediaMetrics {
  const reads = new Counter({
    name: "ss_media_reads_total",
    help: "Media read in turns, by kind and outcome (read, or the failure's code: no_transcriber, SS_MEDIA_TOO_LARGE, …)",
    labelNames: ["tenant", "kind", "outcome"],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: "ss_media_read_seconds",
    help: "Time from a turn's start of reading to one medium read (download, speech to text, vision, PDF)",
    labelNames: ["kind"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [registry],
  });
  const cost = new Counter({
    name: "ss_stt_cost_usd_total",
    help: "Speech to text cost in US dollars, from the provider's price per minute",
    labelNames: ["tenant"],
    registers: [registry],
  });
  return {
    read(tenant, kind, outcome, took) {
      reads.inc({ tenant, kind, outcome });
      seconds.observe({ kind }, took);
    },
    sttCost(tenant, usd) {
      cost.inc({ tenant }, usd);
    },
  };
}
