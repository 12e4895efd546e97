/**
 * Load generator for the webhook ingress: POSTs signed, distinct WhatsApp webhooks at a URL.
 *
 * - closed loop: `connections` keep-alive connections, each sending its next request as soon as the previous
 *   one is answered, for `durationSec` seconds or `requests` requests.
 * - open loop: a fixed `rate` (req/s) for `durationSec` seconds. Request i is due at t0 + i/rate and its
 *   latency is measured from that intended time, not from when it actually left, so a stalled server cannot
 *   hide its stall by slowing the generator down (no coordinated omission). Requests go out over a pool of up
 *   to `connections` (default 256) keep-alive connections, so they only queue behind one another when the
 *   server is slow.
 *
 * Every fresh request carries a new message (wamid `wamid.bench.<run>.<i>`, customer `234800<7 digits of i>`).
 * With `dup` > 0 that share of requests instead re-sends, byte for byte, a body that went out a while before
 * (at least DUP_MIN_LAG requests earlier), as Meta does when it retries a delivery.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import hdr from "hdr-histogram-js";
import { type Dispatcher, Pool } from "undici";
import { waitUntilClaimable } from "./claimable.js";
import { buildTextWebhook, DEFAULT_PHONE_NUMBER_ID, signBody } from "./webhook-body.js";

export type LoadMode = "closed" | "open";
/** `undici`: undici Pool.dispatch (default, fastest here); `undici-request`: Pool.request; `http`: node:http. */
export type ClientKind = "undici" | "undici-request" | "http";

export interface LoadOptions {
  url: string;
  secret: string;
  mode: LoadMode;
  /** closed: number of connections (default 50). open: the pool's cap (default 256). */
  connections?: number;
  /** open loop only: requests per second. */
  rate?: number;
  /** Measured seconds (default 10). */
  durationSec?: number;
  /** closed loop only: stop after this many measured requests (whichever of this and duration comes first). */
  requests?: number;
  /** Share of requests (0..1) that re-send an earlier body. Default 0. */
  dup?: number;
  /** Seconds of load before measuring starts; not counted in the figures. Default 2. */
  warmupSec?: number;
  /** Goes into every wamid; default `Date.now()` in base 36. */
  runId?: string;
  client?: ClientKind;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  phoneNumberId?: string;
  /** Seed of the PRNG that picks duplicates (default 1). */
  seed?: number;
  /**
   * The served ingress's admin /metrics: after the load, wait until `ss_queue_unscheduled_conversations`
   * reads 0 and count that time in `claimable.perSec` (a message is handled once a worker could take it).
   */
  claimableMetricsUrl?: string;
  /** Called once a second with a short progress line (optional). */
  onProgress?: (line: string) => void;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

export interface LoadResult {
  mode: LoadMode;
  client: ClientKind;
  url: string;
  runId: string;
  connections: number;
  /** open loop: the target rate; closed loop: null. */
  rate: number | null;
  warmupSec: number;
  /** Seconds the measured phase lasted (first send to last answer). */
  durationSec: number;
  /** Measured requests sent (fresh + duplicates). */
  requests: number;
  /** Measured requests answered (any status). */
  completed: number;
  reqPerSec: number;
  /** Latency in ms; open loop: from the intended send time. */
  latencyMs: LatencySummary;
  /** open loop only: latency from the actual send time, to compare with latencyMs. */
  serviceTimeMs: LatencySummary | null;
  /** open loop only: worst lag between a request's intended and actual send time, in ms. */
  maxSendLagMs: number | null;
  /**
   * open loop only: lag between intended and actual send time, in ms. With Node's 1 ms timer resolution,
   * requests due less than 1 ms apart leave in small batches, so this floor (~0.5-1 ms) is part of latencyMs.
   */
  sendLagMs: LatencySummary | null;
  status200: number;
  /** Non-200 answers by status code. */
  non200: Record<string, number>;
  /** Socket-level failures by error code (no HTTP answer). */
  errors: Record<string, number>;
  errorCount: number;
  /** Measured requests that carried a new message. */
  distinctSent: number;
  /** Measured requests that re-sent an earlier body. */
  duplicatesSent: number;
  /** Measured fresh messages answered 200. */
  distinctAcked: number;
  /** 200 answers per second of the measured phase. */
  ackedPerSec: number;
  /**
   * With claimableMetricsUrl: how long after the last answer every recorded conversation was claimable,
   * and the 200 answers per second counting that wait (measured phase + drain). Otherwise null.
   */
  claimable: { drainMs: number; firstReading: number; perSec: number } | null;
  /** Whole run, warmup included: what the server was given, to compare with what it enqueued. */
  total: {
    requests: number;
    distinctSent: number;
    distinctAcked: number;
    duplicatesSent: number;
    status200: number;
    errorCount: number;
  };
}

type Done = (status: number, err?: Error) => void;

interface Transport {
  send(body: Buffer, signature: string, done: Done): void;
  close(): Promise<void>;
}

const DUP_RING_SIZE = 16_384;
/** A duplicate re-sends a body sent at least this many requests earlier. */
export const DUP_MIN_LAG = 256;

function headersFor(signature: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-hub-signature-256": signature,
    "user-agent": "facebookexternalua",
  };
}

function keepAlivePool(url: URL, connections: number, timeoutMs: number): Pool {
  return new Pool(url.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

class UndiciDispatchTransport implements Transport {
  private readonly pool: Pool;
  private readonly path: string;
  constructor(url: URL, connections: number, timeoutMs: number) {
    this.pool = keepAlivePool(url, connections, timeoutMs);
    this.path = url.pathname + url.search;
  }
  send(body: Buffer, signature: string, done: Done): void {
    let status = 0;
    const handler: Dispatcher.DispatchHandlers = {
      onConnect() {},
      onHeaders(statusCode) {
        status = statusCode;
        return true;
      },
      onData: () => true,
      onComplete() {
        done(status);
      },
      onError(err) {
        done(status, err);
      },
    };
    this.pool.dispatch({ path: this.path, method: "POST", headers: headersFor(signature), body }, handler);
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

class UndiciRequestTransport implements Transport {
  private readonly pool: Pool;
  private readonly path: string;
  constructor(url: URL, connections: number, timeoutMs: number) {
    this.pool = keepAlivePool(url, connections, timeoutMs);
    this.path = url.pathname + url.search;
  }
  send(body: Buffer, signature: string, done: Done): void {
    this.pool
      .request({ path: this.path, method: "POST", headers: headersFor(signature), body })
      .then(async (res) => {
        await res.body.dump();
        done(res.statusCode);
      })
      .catch((err: Error) => done(0, err));
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

class NodeHttpTransport implements Transport {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private readonly timeoutMs: number;
  constructor(url: URL, connections: number, timeoutMs: number) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
  send(body: Buffer, signature: string, done: Done): void {
    let finished = false;
    const finish = (status: number, err?: Error) => {
      if (finished) return;
      finished = true;
      done(status, err);
    };
    const req = http.request(
      {
        agent: this.agent,
        host: this.url.hostname,
        port: this.url.port,
        path: this.url.pathname + this.url.search,
        method: "POST",
        headers: { ...headersFor(signature), "content-length": String(body.length) },
      },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => finish(res.statusCode ?? 0));
        res.on("error", (err) => finish(res.statusCode ?? 0, err));
      },
    );
    req.setTimeout(this.timeoutMs, () =>
      req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })),
    );
    req.on("error", (err) => finish(0, err));
    req.end(body);
  }
  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }
}

function makeTransport(kind: ClientKind, url: URL, connections: number, timeoutMs: number): Transport {
  switch (kind) {
    case "undici":
      return new UndiciDispatchTransport(url, connections, timeoutMs);
    case "undici-request":
      return new UndiciRequestTransport(url, connections, timeoutMs);
    case "http":
      return new NodeHttpTransport(url, connections, timeoutMs);
  }
}

/** mulberry32: small seeded PRNG so a run's duplicate pattern is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Outgoing {
  body: Buffer;
  signature: string;
  fresh: boolean;
}

/** Hands out the bodies: fresh ones numbered 0, 1, 2... and, with share `dup`, re-sends of older ones. */
class BodySource {
  private next = 0;
  private readonly ring: Outgoing[] = [];
  private ringPos = 0;
  private readonly random: () => number;
  constructor(
    private readonly runId: string,
    private readonly secret: string,
    private readonly dup: number,
    private readonly phoneNumberId: string,
    seed: number,
  ) {
    this.random = prng(seed);
  }
  take(): Outgoing {
    const size = this.ring.length;
    if (this.dup > 0 && size >= DUP_MIN_LAG && this.random() < this.dup) {
      // Pick among bodies sent at least DUP_MIN_LAG fresh requests ago (lag in [DUP_MIN_LAG, size]).
      const lag = DUP_MIN_LAG + Math.floor(this.random() * (size - DUP_MIN_LAG + 1));
      const idx = (((this.ringPos - lag) % DUP_RING_SIZE) + DUP_RING_SIZE) % DUP_RING_SIZE;
      const old = this.ring[idx];
      if (old) return { body: old.body, signature: old.signature, fresh: false };
    }
    const i = this.next++;
    const body = buildTextWebhook({
      wamid: `wamid.bench.${this.runId}.${i}`,
      from: `234800${String(i % 10_000_000).padStart(7, "0")}`,
      timestamp: Math.floor(Date.now() / 1000),
      phoneNumberId: this.phoneNumberId,
    });
    const out: Outgoing = { body, signature: signBody(body, this.secret), fresh: true };
    if (size < DUP_RING_SIZE) this.ring.push(out);
    else this.ring[this.ringPos] = out;
    this.ringPos = (this.ringPos + 1) % DUP_RING_SIZE;
    return out;
  }
}

function newHistogram() {
  // Values in microseconds; autoResize so a pathological stall is still recorded exactly.
  return hdr.build({
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
}
type Histogram = ReturnType<typeof newHistogram>;

function summarize(h: Histogram): LatencySummary {
  const ms = (us: number) => Math.round(us) / 1000;
  if (h.totalCount === 0) return { p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0 };
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    max: ms(h.maxValue),
    mean: ms(h.mean),
  };
}

class Tally {
  requests = 0;
  completed = 0;
  status200 = 0;
  distinctSent = 0;
  duplicatesSent = 0;
  distinctAcked = 0;
  errorCount = 0;
  readonly non200: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  onSend(fresh: boolean): void {
    this.requests++;
    if (fresh) this.distinctSent++;
    else this.duplicatesSent++;
  }
  onDone(fresh: boolean, status: number, err?: Error): void {
    if (err && status === 0) {
      this.errorCount++;
      const code = (err as NodeJS.ErrnoException).code ?? err.name;
      this.errors[code] = (this.errors[code] ?? 0) + 1;
      return;
    }
    this.completed++;
    if (status === 200) {
      this.status200++;
      if (fresh) this.distinctAcked++;
    } else {
      const key = String(status);
      this.non200[key] = (this.non200[key] ?? 0) + 1;
    }
    if (err) {
      // An answer arrived but its body broke off: count it as a socket error as well.
      this.errorCount++;
      const code = (err as NodeJS.ErrnoException).code ?? err.name;
      this.errors[code] = (this.errors[code] ?? 0) + 1;
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Run one load test and return its figures. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const mode = options.mode;
  const client = options.client ?? "undici";
  const connections = options.connections ?? (mode === "closed" ? 50 : 256);
  const durationSec = options.durationSec ?? 10;
  const warmupSec = options.warmupSec ?? 2;
  const runId = options.runId ?? Date.now().toString(36);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const dup = options.dup ?? 0;
  const rate = options.rate ?? 0;
  if (!(connections >= 1)) throw new Error("connections must be >= 1");
  if (!(durationSec > 0)) throw new Error("duration must be > 0");
  if (!(warmupSec >= 0)) throw new Error("warmup must be >= 0");
  if (!(dup >= 0 && dup < 1)) throw new Error("dup must be in [0, 1)");
  if (mode === "open" && !(rate > 0)) throw new Error("open loop needs a rate > 0");

  const transport = makeTransport(client, url, connections, timeoutMs);
  const source = new BodySource(
    runId,
    options.secret,
    dup,
    options.phoneNumberId ?? DEFAULT_PHONE_NUMBER_ID,
    options.seed ?? 1,
  );
  const warm = new Tally();
  const meas = new Tally();
  const latency = newHistogram();
  const service = newHistogram();
  const sendLag = newHistogram();
  let inFlight = 0;
  let lastDone = 0;
  let maxSendLag = 0;

  const progress = options.onProgress
    ? setInterval(() => {
        const t = meas.requests > 0 ? "measuring" : "warmup";
        options.onProgress?.(
          `[${t}] sent=${warm.requests + meas.requests} answered=${warm.completed + meas.completed} inflight=${inFlight}`,
        );
      }, 1000)
    : null;

  let measureStart = 0;
  try {
    if (mode === "closed") {
      const start = performance.now();
      measureStart = start + warmupSec * 1000;
      const measureEnd = measureStart + durationSec * 1000;
      const maxRequests = options.requests ?? Number.POSITIVE_INFINITY;
      await new Promise<void>((resolve) => {
        let workers = connections;
        const next = () => {
          const now = performance.now();
          const measured = now >= measureStart;
          if (now >= measureEnd || (measured && meas.requests >= maxRequests)) {
            if (--workers === 0) resolve();
            return;
          }
          const out = source.take();
          const tally = measured ? meas : warm;
          tally.onSend(out.fresh);
          inFlight++;
          const sentAt = performance.now();
          transport.send(out.body, out.signature, (status, err) => {
            const end = performance.now();
            inFlight--;
            tally.onDone(out.fresh, status, err);
            if (measured) {
              if (status !== 0) latency.recordValue(Math.max(1, Math.round((end - sentAt) * 1000)));
              lastDone = end;
            }
            // Keep going on a socket error too, after a short pause so a dead server is not spun on.
            if (err && status === 0) setTimeout(next, 10);
            else next();
          });
        };
        for (let w = 0; w < connections; w++) next();
      });
    } else {
      const start = performance.now() + 5;
      measureStart = start + warmupSec * 1000;
      const intervalMs = 1000 / rate;
      const warmCount = Math.round(warmupSec * rate);
      const total = warmCount + Math.round(durationSec * rate);
      let issued = 0;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const now = performance.now();
          while (issued < total) {
            const intended = start + issued * intervalMs;
            if (intended > now) break;
            const measured = issued >= warmCount;
            const out = source.take();
            const tally = measured ? meas : warm;
            tally.onSend(out.fresh);
            inFlight++;
            const sentAt = performance.now();
            if (measured) {
              if (sentAt - intended > maxSendLag) maxSendLag = sentAt - intended;
              sendLag.recordValue(Math.max(1, Math.round((sentAt - intended) * 1000)));
            }
            transport.send(out.body, out.signature, (status, err) => {
              const end = performance.now();
              inFlight--;
              tally.onDone(out.fresh, status, err);
              if (measured) {
                if (status !== 0) {
                  latency.recordValue(Math.max(1, Math.round((end - intended) * 1000)));
                  service.recordValue(Math.max(1, Math.round((end - sentAt) * 1000)));
                }
                lastDone = end;
              }
            });
            issued++;
          }
          if (issued >= total) {
            resolve();
            return;
          }
          const wait = start + issued * intervalMs - performance.now();
          setTimeout(tick, Math.max(0, wait));
        };
        setTimeout(tick, 5);
      });
    }

    // Let what is still in flight finish (bounded by the request timeout).
    const drainDeadline = performance.now() + timeoutMs + 1000;
    while (inFlight > 0 && performance.now() < drainDeadline) await sleep(5);
    if (inFlight > 0) {
      meas.errors.unfinished = (meas.errors.unfinished ?? 0) + inFlight;
      meas.errorCount += inFlight;
    }
  } finally {
    if (progress) clearInterval(progress);
    await transport.close().catch(() => {});
  }

  const measuredMs =
    mode === "open"
      ? Math.max(durationSec * 1000, lastDone - measureStart)
      : Math.max(1, (lastDone || performance.now()) - measureStart);
  const elapsed = measuredMs / 1000;
  let claimable: LoadResult["claimable"] = null;
  if (options.claimableMetricsUrl !== undefined) {
    const wait = await waitUntilClaimable(options.claimableMetricsUrl, lastDone || performance.now());
    const drainMs = Math.round(wait.drainMs * 10) / 10;
    claimable = {
      drainMs,
      firstReading: wait.firstReading,
      perSec: Math.round((meas.status200 / (elapsed + drainMs / 1000)) * 10) / 10,
    };
  }
  return {
    mode,
    client,
    url: options.url,
    runId,
    connections,
    rate: mode === "open" ? rate : null,
    warmupSec,
    durationSec: Math.round(elapsed * 1000) / 1000,
    requests: meas.requests,
    completed: meas.completed,
    reqPerSec: Math.round((meas.completed / elapsed) * 10) / 10,
    latencyMs: summarize(latency),
    serviceTimeMs: mode === "open" ? summarize(service) : null,
    maxSendLagMs: mode === "open" ? Math.round(maxSendLag * 1000) / 1000 : null,
    sendLagMs: mode === "open" ? summarize(sendLag) : null,
    status200: meas.status200,
    non200: meas.non200,
    errors: meas.errors,
    errorCount: meas.errorCount,
    distinctSent: meas.distinctSent,
    duplicatesSent: meas.duplicatesSent,
    distinctAcked: meas.distinctAcked,
    ackedPerSec: Math.round((meas.status200 / elapsed) * 10) / 10,
    claimable,
    total: {
      requests: warm.requests + meas.requests,
      distinctSent: warm.distinctSent + meas.distinctSent,
      distinctAcked: warm.distinctAcked + meas.distinctAcked,
      duplicatesSent: warm.duplicatesSent + meas.duplicatesSent,
      status200: warm.status200 + meas.status200,
      errorCount: warm.errorCount + meas.errorCount,
    },
  };
}

function fmtCounts(c: Record<string, number>): string {
  const keys = Object.keys(c);
  return keys.length === 0 ? "none" : keys.map((k) => `${k}=${c[k]}`).join(" ");
}

function fmtLatency(l: LatencySummary): string {
  return `p50=${l.p50} p90=${l.p90} p99=${l.p99} p99.9=${l.p999} max=${l.max} mean=${l.mean}`;
}

/** Human-readable report of a result (several lines, ending in a newline). */
export function formatResult(r: LoadResult): string {
  const lines = [
    `mode:        ${r.mode} (${r.mode === "open" ? `rate ${r.rate} req/s, pool up to ${r.connections} connections` : `${r.connections} connections`}, client ${r.client})`,
    `url:         ${r.url}  run-id ${r.runId}`,
    `duration:    ${r.durationSec} s measured (+${r.warmupSec} s warmup not counted)`,
    `requests:    ${r.requests} sent, ${r.completed} answered, ${r.reqPerSec} req/s achieved`,
    `latency ms:  ${fmtLatency(r.latencyMs)}${r.mode === "open" ? "  (from intended send time)" : ""}`,
  ];
  if (r.serviceTimeMs) lines.push(`service ms:  ${fmtLatency(r.serviceTimeMs)}  (from actual send time)`);
  if (r.sendLagMs) {
    lines.push(
      `send lag ms: p50=${r.sendLagMs.p50} p99=${r.sendLagMs.p99} max=${r.maxSendLagMs} (behind schedule)`,
    );
  }
  lines.push(
    `status:      200=${r.status200}  non-200: ${fmtCounts(r.non200)}`,
    `errors:      ${r.errorCount} (${fmtCounts(r.errors)})`,
    `messages:    ${r.distinctSent} distinct sent (${r.distinctAcked} acked 200), ${r.duplicatesSent} duplicates sent`,
    r.claimable === null
      ? "claimable:   not measured (no --claimable-metrics)"
      : `claimable:   ${r.ackedPerSec} acked/s, ${r.claimable.perSec} acked-and-claimable/s ` +
          `(all conversations claimable ${r.claimable.drainMs} ms after the last answer; first reading ${r.claimable.firstReading})`,
    `whole run:   ${r.total.requests} requests, ${r.total.distinctSent} distinct (${r.total.distinctAcked} acked 200), ${r.total.duplicatesSent} duplicates, ${r.total.errorCount} errors (warmup included)`,
  );
  return `${lines.join("\n")}\n`;
}
