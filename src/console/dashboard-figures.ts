import type { Registry } from "prom-client";
import type { JobQueueSample } from "../observability/index.js";
import type { ActivityBucket, MessageStore } from "../store/index.js";
import { histogramQuantilesMs } from "./histogram-quantiles.js";

export interface DashboardDeps {
  readonly store: MessageStore;
  /** This process's metrics: webhook and end-to-end latency live where the ingress and sender run. */
  readonly registry?: Registry | undefined;
  /** The job queues' depth and oldest job (any process on the backend can read them). */
  readonly sampleJobQueues?: (() => Promise<readonly JobQueueSample[]>) | undefined;
  /** Minutes without a webhook, while traffic was expected, before the banner says Meta is silent. */
  readonly metaSilentMinutes: number;
  readonly now: () => number;
}

export type DashboardSource = ReturnType<typeof createDashboardSource>;

const HOUR_MS = 3_600_000;
const WAITING_STATES = ["waiting", "prioritized", "delayed"];

/** The dashboard's figures: the message log's history plus this process's live metrics. */
export function createDashboardSource(deps: DashboardDeps) {
  const { store } = deps;

  const latency = async () => {
    if (deps.registry === undefined) {
      return {
        webhookAckMs: null,
        endToEndMs: null,
        since: "not measured by this process (a console apart from the ingress)",
      };
    }
    const [webhookAckMs, endToEndMs] = await Promise.all([
      histogramQuantilesMs(deps.registry, "ss_ingress_request_duration_seconds", (labels) =>
        String(labels.route).startsWith("/webhook"),
      ),
      histogramQuantilesMs(deps.registry, "ss_end_to_end_seconds"),
    ]);
    return { webhookAckMs, endToEndMs, since: "since this process started" };
  };

  const llmCalls = async (tenantIds: readonly string[]) => {
    const metric = deps.registry?.getSingleMetric("ss_agent_llm_calls_total");
    if (metric === undefined) return undefined;
    const { values } = await metric.get();
    return values
      .filter((value) => tenantIds.includes(String(value.labels.tenant)))
      .reduce((sum, value) => sum + value.value, 0);
  };

  const queues = async () => {
    if (deps.sampleJobQueues === undefined) return [];
    const now = deps.now();
    return (await deps.sampleJobQueues()).map((sample) => ({
      name: sample.queue,
      depth: WAITING_STATES.reduce((sum, state) => sum + (sample.counts[state] ?? 0), 0),
      oldestAgeMs: sample.oldestWaitingAt === undefined ? 0 : Math.max(0, now - sample.oldestWaitingAt),
    }));
  };

  return {
    async figures(tenantIds: readonly string[], hours: number) {
      const now = deps.now();
      const since = now - hours * HOUR_MS;
      const [buckets, failures, handoffs, lastInboundAt, latencies, queueFigures, calls] = await Promise.all([
        store.console.activity(tenantIds, since, HOUR_MS),
        store.console.deliveryFailures(tenantIds, since),
        store.console.handoffQueue(tenantIds),
        store.console.lastInboundAt(tenantIds),
        latency(),
        queues().catch(() => []),
        llmCalls(tenantIds),
      ]);
      const totals = sumOf(buckets);
      const averageAgentTurnUsd = totals.agentTurns === 0 ? 0 : totals.costUsd / totals.agentTurns;
      return {
        bucketMs: HOUR_MS,
        buckets,
        totals: {
          ...totals,
          localShare: totals.turns === 0 ? 0 : totals.localTurns / totals.turns,
          ...(calls === undefined ? {} : { llmCalls: calls }),
          savedUsd: totals.localTurns * averageAgentTurnUsd,
        },
        latency: latencies,
        queues: queueFigures,
        deliveryFailures: failures,
        handoffs: {
          waiting: handoffs.waiting,
          ...(handoffs.oldestWaitingSince === undefined
            ? {}
            : { oldestWaitMs: now - handoffs.oldestWaitingSince }),
        },
        metaSilent: metaSilence(buckets, lastInboundAt, now, deps.metaSilentMinutes),
      };
    },
  };
}

function sumOf(buckets: readonly ActivityBucket[]) {
  const totals = {
    inbound: 0,
    outbound: 0,
    turns: 0,
    localTurns: 0,
    agentTurns: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
  };
  for (const bucket of buckets) {
    for (const name of Object.keys(totals) as (keyof typeof totals)[]) totals[name] += bucket[name];
  }
  return totals;
}

/**
 * Meta is silent when no webhook came for `minutes` although the tenants
 * usually get one that often: over the window, at least one message per
 * `minutes` on average. A quiet shop at night is not an outage.
 */
function metaSilence(
  buckets: readonly ActivityBucket[],
  lastInboundAt: number | undefined,
  now: number,
  minutes: number,
) {
  const windowMs = minutes * 60_000;
  const spanMs = Math.max(HOUR_MS, buckets.length * HOUR_MS);
  const inbound = buckets.reduce((sum, bucket) => sum + bucket.inbound, 0);
  const expected = inbound >= spanMs / windowMs;
  const quietFor = lastInboundAt === undefined ? Number.POSITIVE_INFINITY : now - lastInboundAt;
  return {
    silent: expected && quietFor >= windowMs,
    minutes,
    ...(lastInboundAt === undefined ? {} : { lastWebhookAt: lastInboundAt }),
  };
}
