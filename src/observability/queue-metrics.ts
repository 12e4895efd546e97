import { Gauge, type Registry } from "prom-client";

/** One BullMQ queue as a scrape sees it. */
export interface JobQueueSample {
  /** Queue name (`turns`, `outbound`, `events`). */
  readonly queue: string;
  /** Jobs per BullMQ state (waiting, active, delayed, prioritized, failed). */
  readonly counts: Readonly<Record<string, number>>;
  /** When the oldest job still waiting was created, ms since the epoch; none when nothing waits. */
  readonly oldestWaitingAt: number | undefined;
}

export interface QueueMetricsOptions {
  /** Read once per scrape (shared by both gauges); a failure leaves the gauges at their last value. */
  readonly sample: () => Promise<readonly JobQueueSample[]>;
  /** ms since the epoch. */
  readonly now: () => number;
}

/**
 * Queue depth and oldest waiting job age per queue, collected on scrape
 * (no timers): `ss_queue_depth{queue,state}` and
 * `ss_queue_oldest_waiting_seconds{queue}` (0 when nothing waits).
 * Registered on `registry` (no globals).
 */
export function createQueueMetrics(registry: Registry, options: QueueMetricsOptions): void {
  let last: Promise<readonly JobQueueSample[]> | undefined;
  // One sample per scrape, shared by the gauges collected in it.
  const read = () => {
    last ??= options.sample().finally(() => {
      setTimeout(() => {
        last = undefined;
      }, 50).unref();
    });
    return last;
  };
  new Gauge({
    name: "ss_queue_depth",
    help: "Jobs per BullMQ queue (turns, outbound, events) and state (waiting, active, delayed, prioritized, failed).",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      for (const { queue, counts } of await read()) {
        for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
      }
    },
  });
  new Gauge({
    name: "ss_queue_oldest_waiting_seconds",
    help: "Age of the oldest job waiting to be picked up, per queue, seconds (0 when none waits).",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      const now = options.now();
      for (const { queue, oldestWaitingAt } of await read()) {
        this.set({ queue }, oldestWaitingAt === undefined ? 0 : Math.max(0, now - oldestWaitingAt) / 1000);
      }
    },
  });
}
