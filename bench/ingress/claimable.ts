/**
 * When is what the ingress acknowledged also claimable by a worker? Polls the
 * served ingress's admin /metrics until `ss_queue_unscheduled_conversations`
 * (conversations with waiting messages and no due turn) reads 0, so a
 * benchmark cannot count as handled what still lags behind the 200.
 */
import { performance } from "node:perf_hooks";
import { request } from "undici";

const GAUGE = "ss_queue_unscheduled_conversations";

/** The gauge's value in a Prometheus text exposition; undefined when it is not there. */
export function unscheduledConversationsIn(exposition: string): number | undefined {
  for (const line of exposition.split("\n")) {
    if (!line.startsWith(`${GAUGE} `)) continue;
    const value = Number(line.slice(GAUGE.length + 1));
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}

export interface ClaimableWait {
  /** ms from `since` (performance.now() of the last answer) to the first scrape that read 0. */
  readonly drainMs: number;
  /** What the gauge read on the first scrape after the load (0: nothing lagged by then). */
  readonly firstReading: number;
  readonly scrapes: number;
}

/** Polls `metricsUrl` every `intervalMs` until the gauge reads 0; throws after `timeoutMs` or if it is missing. */
export async function waitUntilClaimable(
  metricsUrl: string,
  since: number,
  timeoutMs = 120_000,
  intervalMs = 10,
): Promise<ClaimableWait> {
  const deadline = performance.now() + timeoutMs;
  let firstReading: number | undefined;
  for (let scrapes = 1; ; scrapes++) {
    const response = await request(metricsUrl);
    const value = unscheduledConversationsIn(await response.body.text());
    if (value === undefined) throw new Error(`${metricsUrl} has no ${GAUGE}`);
    firstReading ??= value;
    if (value === 0) return { drainMs: Math.max(0, performance.now() - since), firstReading, scrapes };
    if (performance.now() > deadline) throw new Error(`${GAUGE} still ${value} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
