/**
 * End-to-end benchmark: signed webhooks into one `sharpsharp ingress`, two
 * `sharpsharp worker` processes, replies to the fake Graph API (its throughput
 * limit and the sender's both 2,000/s, above the rates run here, so neither paces
 * the run: Meta's own ceiling is 1,000/s a number). Open loop at a fixed message rate: a mix of
 * single messages and 3-message bursts (200 ms apart) over 2,001 customers or
 * more (customersFor), each customer's units at least 15 s apart. Prints replies received vs
 * expected, duplicates, end-to-end latency (webhook sent → Graph API accepted
 * the reply, from the unit's last message) and peak memory per process.
 *
 *   node dist/bench/e2e/run.js [--rate 200] [--duration 60] [--coalesce on|off|both] [--knee 200,400,800]
 *     [--mode redis|embedded] [--ingresses 1] [--workers 2] [--warmup 5] [--dump <file prefix>]
 *
 * Needs `npm run build`; Redis at REDIS_URL (default redis://127.0.0.1:6379) unless --mode embedded,
 * which runs one `sharpsharp start` process on SQLite in a temporary SHARPSHARP_DATA_DIR instead.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { build } from "hdr-histogram-js";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { createFakeGraphApi } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { buildTextWebhook } from "../ingress/webhook-body.js";
import { deletePrefix } from "./delete-prefix.js";
import { type SharpsharpProcess, startProcess } from "./processes.js";
import { type RedisCostPerMessage, redisCostPerMessage, redisSnapshot } from "./redis-cost.js";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    duration: { type: "string", default: "60" },
    coalesce: { type: "string", default: "both" },
    knee: { type: "string" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    // "embedded": one `sharpsharp start` process on SQLite instead of an ingress and two workers on Redis.
    mode: { type: "string", default: "redis" },
    // The gateway's webhook port (another bench may hold the default); more ingresses take the next ports.
    port: { type: "string", default: "3021" },
    // Redis mode: how many ingress and worker processes (the load goes round-robin over the ingresses).
    ingresses: { type: "string", default: "1" },
    workers: { type: "string", default: "2" },
    // Latency is also given apart for units sent in the first this many seconds (start-up) and after them.
    warmup: { type: "string", default: "5" },
    // Writes each answered unit (customer, last message sent, reply, latency) to this file as JSON lines.
    dump: { type: "string" },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (values.help) {
  process.stdout.write(`End to end: signed webhooks in, replies at a fake Graph API out; latency, CPU, memory.

node dist/bench/e2e/run.js [options]
  --mode redis|embedded   an ingress and workers on Redis, or one embedded process (default redis)
  --rate N                messages a second, open loop (default 200)
  --duration S            seconds of load (default 60)
  --coalesce on|off|both  the turn's coalescing window (default both: a run each)
  --knee R1,R2,...        raise the rate through these until p99 passes 1 s (instead of --rate)
  --warmup S              latency also apart for units sent in the first S seconds and after (default 5)
  --dump PATH             each answered unit as JSON lines
  --redis URL             Redis mode's server (default redis://127.0.0.1:6379)
  --port N                the gateway's webhook port (default 3021; more ingresses take the next ones)
  --ingresses N --workers N   Redis mode's processes (default 1 and 2)
Environment: BENCH_GATEWAY_BIN (another build), BENCH_GATEWAY_NODE_ARGS (e.g. --cpu-prof), see bench/README.md.
`);
  process.exit(0);
}
if (values.mode !== "redis" && values.mode !== "embedded") {
  throw new Error(`--mode must be redis or embedded, got "${values.mode}"`);
}
if (!["on", "off", "both"].includes(values.coalesce)) {
  throw new Error(`--coalesce must be on, off or both, got "${values.coalesce}"`);
}

const SECRET = "bench-e2e-secret";
const TOKEN = "bench-e2e-token";
const PHONE_NUMBER_ID = "106540352242922";

/**
 * The customers a run's units go round-robin over: enough that each customer's units stay at least 15 s
 * apart (1.5 messages a unit on average), and never a multiple of 4, so the 3-message bursts (every fourth
 * unit) fall on other customers each round. Both matter past 200 messages/s: with a fixed 2,000 customers
 * at 600/s the same 500 customers sent a burst every 5 s, 0.6 replies a second each, past Meta's pair limit
 * (one message every 6 s to one customer, bursts borrowed from later), which the sender keeps. After about
 * 20 s their replies waited 10–23 s for their slots: the bench measured Meta's limit, not the gateway.
 */
function customersFor(rate: number): number {
  const atLeast = Math.max(2000, Math.ceil((rate / 1.5) * 15));
  return atLeast % 4 === 0 ? atLeast + 1 : atLeast;
}

interface Unit {
  readonly customer: string;
  readonly messages: number;
  lastSentAt: number;
}

interface Percentiles {
  readonly units: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

function percentiles(latencies: number[]): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { units: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

interface RunResult {
  readonly rate: number;
  readonly coalesce: boolean;
  readonly messagesSent: number;
  readonly non200: number;
  readonly expectedReplies: number;
  readonly replies: number;
  readonly duplicates: number;
  readonly missing: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The same, apart: units sent in the first --warmup seconds (a cold gateway) and those after. */
  readonly startUp: Percentiles;
  readonly steady: Percentiles;
  readonly peakRssMiB: Record<string, number>;
  /** CPU time each process spent per message sent, from the first message to the last reply, ms; `gateway`: all of them. */
  readonly cpuMsPerMessage: Record<string, number>;
  /** Redis mode: what each message cost the Redis server (the whole server: run nothing else beside). */
  readonly redis?: RedisCostPerMessage;
}

async function runOnce(rate: number, durationSec: number, coalesce: boolean): Promise<RunResult> {
  const prefix = `bench-e2e-${randomBytes(3).toString("hex")}`;
  const fake = createFakeGraphApi(
    { logger: createLogger({ level: "silent" }) },
    { tokens: [TOKEN], limits: { throughput: { mps: 2000 } } },
  );
  const graphUrl = await fake.listen({ host: "127.0.0.1", port: 0 });
  const embedded = values.mode === "embedded";
  const dataDir = mkdtempSync(join(tmpdir(), "bench-e2e-"));
  const env = {
    ...(embedded ? { SHARPSHARP_DATA_DIR: dataDir } : { REDIS_URL: values.redis, REDIS_PREFIX: prefix }),
    GRAPH_API_BASE_URL: graphUrl,
    WHATSAPP_TOKEN: TOKEN,
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_VERIFY_TOKEN: "bench-verify",
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_THROUGHPUT_MPS: "2000",
    COALESCE_WINDOW_MS: coalesce ? "800" : "0",
    COALESCE_MAX_MS: coalesce ? "3000" : "0",
    HOST: "127.0.0.1",
    // Three processes on one machine: each admin listener on a port of its own.
    ADMIN_PORT: "0",
  };
  const processes: SharpsharpProcess[] = [];
  const ingressPorts = Array.from(
    { length: embedded ? 1 : Number(values.ingresses) },
    (_, n) => Number(values.port) + n,
  );
  try {
    if (embedded) {
      processes.push(
        await startProcess("embedded", "start", { ...env, PORT: values.port }, "running embedded on"),
      );
    } else {
      for (const [n, port] of ingressPorts.entries()) {
        const name = ingressPorts.length === 1 ? "ingress" : `ingress${n + 1}`;
        processes.push(await startProcess(name, "ingress", { ...env, PORT: String(port) }, "listening on"));
      }
      for (let n = 1; n <= Number(values.workers); n += 1) {
        processes.push(
          await startProcess(`worker${n}`, "worker", { ...env, PORT: "0" }, "sharpsharp worker running"),
        );
      }
    }
    const pools = ingressPorts.map(
      (port) => new Pool(`http://127.0.0.1:${port}`, { connections: 64, pipelining: 1 }),
    );
    const units: Unit[] = [];
    let non200 = 0;
    let messagesSent = 0;
    const inFlight: Promise<void>[] = [];
    const post = (customer: string, text: string, unit: Unit) => {
      const wamid = `wamid.e2e.${prefix}.${messagesSent}`;
      const body = buildTextWebhook({
        wamid,
        from: customer,
        timestamp: Math.floor(Date.now() / 1000),
        phoneNumberId: PHONE_NUMBER_ID,
        text,
      });
      messagesSent += 1;
      unit.lastSentAt = Date.now();
      const pool = pools[messagesSent % pools.length] as Pool;
      const request = pool
        .request({
          path: "/webhook",
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, SECRET) },
        })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode !== 200) non200 += 1;
        })
        .catch(() => {
          non200 += 1;
        });
      inFlight.push(request);
    };
    // Every fourth unit is a 3-message burst; units go round-robin over the customers.
    const cpuAtStart = new Map(processes.map((p) => [p.name, p.cpuSeconds() ?? 0]));
    const redisInfo = embedded ? undefined : new Redis(values.redis);
    const redisBefore = redisInfo === undefined ? undefined : await redisSnapshot(redisInfo);
    const started = Date.now();
    const totalMessages = rate * durationSec;
    const customers = customersFor(rate);
    let scheduled = 0;
    let unitIndex = 0;
    while (scheduled < totalMessages) {
      const burst = unitIndex % 4 === 3;
      const customer = `23480${String(unitIndex % customers).padStart(8, "0")}`;
      const unit: Unit = { customer, messages: burst ? 3 : 1, lastSentAt: 0 };
      units.push(unit);
      const dueAt = started + (scheduled * 1000) / rate;
      const wait = dueAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (burst) {
        post(customer, "Hello", unit);
        setTimeout(() => post(customer, "my money never drop", unit), 200);
        setTimeout(() => post(customer, "abeg check am", unit), 400);
      } else {
        post(customer, "How far", unit);
      }
      scheduled += unit.messages;
      unitIndex += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.all(inFlight);
    const expected = coalesce ? units.length : messagesSent;
    const until = Date.now() + 30_000;
    while (fake.messages().length < expected && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // late duplicates would show here
    const cpuMsPerMessage: Record<string, number> = {};
    let gatewayCpuSeconds = 0;
    for (const p of processes) {
      const used = (p.cpuSeconds() ?? 0) - (cpuAtStart.get(p.name) ?? 0);
      gatewayCpuSeconds += used;
      cpuMsPerMessage[p.name] = Math.round((used * 1000 * 1000) / Math.max(1, messagesSent)) / 1000;
    }
    cpuMsPerMessage.gateway =
      Math.round((gatewayCpuSeconds * 1000 * 1000) / Math.max(1, messagesSent)) / 1000;
    const redisCost =
      redisInfo === undefined || redisBefore === undefined
        ? undefined
        : redisCostPerMessage(redisBefore, await redisSnapshot(redisInfo), messagesSent);
    redisInfo?.disconnect();
    const peakRssMiB: Record<string, number> = {};
    for (const p of processes) peakRssMiB[p.name] = Math.round(p.peakRssMiB() ?? 0);
    peakRssMiB.bench = Math.round(process.memoryUsage().rss / 1048576);

    // Match each customer's replies, in order, to its units (coalescing on) or messages (off).
    const repliesByCustomer = new Map<string, number[]>();
    for (const message of fake.messages()) {
      const to = (message.to ?? "").replace(/^\+/, "");
      const list = repliesByCustomer.get(to) ?? [];
      list.push(message.receivedAt);
      repliesByCustomer.set(to, list);
    }
    const histogram = build({
      useWebAssembly: false,
      lowestDiscernibleValue: 1,
      highestTrackableValue: 600_000,
    });
    let duplicates = 0;
    let missing = 0;
    const answered: { customer: string; sentAt: number; repliedAt: number }[] = [];
    const record = (customer: string, unit: Unit, at: number) => {
      histogram.recordValue(Math.max(1, at - unit.lastSentAt));
      answered.push({ customer, sentAt: unit.lastSentAt, repliedAt: at });
    };
    const unitsByCustomer = new Map<string, Unit[]>();
    for (const unit of units)
      unitsByCustomer.set(unit.customer, [...(unitsByCustomer.get(unit.customer) ?? []), unit]);
    for (const [customer, customerUnits] of unitsByCustomer) {
      const replies = (repliesByCustomer.get(customer) ?? []).sort((a, b) => a - b);
      const expectedHere = coalesce
        ? customerUnits.length
        : customerUnits.reduce((n, u) => n + u.messages, 0);
      duplicates += Math.max(0, replies.length - expectedHere);
      missing += Math.max(0, expectedHere - replies.length);
      if (coalesce) {
        customerUnits.forEach((unit, i) => {
          const at = replies[i];
          if (at !== undefined) record(customer, unit, at);
        });
      } else {
        // Without coalescing each message has its reply; time them from each unit's last message.
        let r = 0;
        for (const unit of customerUnits) {
          r += unit.messages;
          const at = replies[r - 1];
          if (at !== undefined) record(customer, unit, at);
        }
      }
    }
    await Promise.all(pools.map((pool) => pool.close()));
    const steadyFrom = started + Number(values.warmup) * 1000;
    const latencies = (early: boolean) =>
      answered.filter((a) => a.sentAt < steadyFrom === early).map((a) => a.repliedAt - a.sentAt);
    if (values.dump !== undefined) {
      answered.sort((a, b) => a.sentAt - b.sentAt);
      const lines = answered.map((a) => JSON.stringify({ ...a, ms: a.repliedAt - a.sentAt }));
      writeFileSync(`${values.dump}.${rate}.jsonl`, `${lines.join("\n")}\n`);
    }
    return {
      rate,
      coalesce,
      messagesSent,
      non200,
      expectedReplies: expected,
      replies: fake.messages().length,
      duplicates,
      missing,
      p50: histogram.getValueAtPercentile(50),
      p99: histogram.getValueAtPercentile(99),
      max: histogram.maxValue,
      startUp: percentiles(latencies(true)),
      steady: percentiles(latencies(false)),
      peakRssMiB,
      cpuMsPerMessage,
      ...(redisCost === undefined ? {} : { redis: redisCost }),
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!embedded) {
      const redis = new Redis(values.redis);
      await deletePrefix(redis, prefix);
      redis.disconnect();
    }
  }
}

function report(result: RunResult) {
  process.stdout.write(
    `rate ${result.rate}/s coalescing ${result.coalesce ? "on" : "off"}: ${result.messagesSent} messages, ` +
      `non-200 ${result.non200}; replies ${result.replies} of ${result.expectedReplies} expected, ` +
      `${result.missing} missing, ${result.duplicates} duplicated; end to end p50 ${result.p50} ms, ` +
      `p99 ${result.p99} ms, max ${result.max} ms (first ${values.warmup} s: p99 ${result.startUp.p99} ms, ` +
      `after: p50 ${result.steady.p50} ms, p99 ${result.steady.p99} ms, max ${result.steady.max} ms); gateway CPU ${result.cpuMsPerMessage.gateway} ms/message ` +
      `(${JSON.stringify(result.cpuMsPerMessage)}); peak RSS MiB ${JSON.stringify(result.peakRssMiB)}\n` +
      (result.redis === undefined ? "" : `Redis per message: ${JSON.stringify(result.redis)}\n`) +
      `${JSON.stringify(result)}\n`,
  );
}

const duration = Number(values.duration);
if (values.knee !== undefined) {
  for (const rate of values.knee.split(",").map(Number)) {
    const result = await runOnce(rate, duration, false);
    report(result);
    if (result.p99 > 1000) {
      process.stdout.write(`knee: p99 passed 1 s at ${rate} messages/s\n`);
      break;
    }
  }
} else {
  const modes = values.coalesce === "both" ? [false, true] : [values.coalesce === "on"];
  for (const coalesce of modes) report(await runOnce(Number(values.rate), duration, coalesce));
}
