/**
 * Does the console slow the gateway? Redis mode as deployed: an ingress, a
 * worker and `sharpsharp console`, each its own process, a fake Graph API in
 * this one. The same open-loop webhook load (every message from a new
 * customer: a turn, a reply and console events each) with no console on the
 * event stream and with N (in a process of their own, as browsers are),
 * alternating, in one run. Prints the webhook
 * p50/p99 of each round, the events each console read and the processes'
 * peak memory, then one JSON line.
 *
 *   node dist/bench/console/run.js [--rate 1000] [--duration 10] [--consoles 50] [--rounds 3]
 *     [--redis redis://127.0.0.1:6379] [--database postgres://postgres@127.0.0.1:5432/test]
 *
 * Needs `npm run build`, Redis and PostgreSQL. Its Redis prefix and schema are removed after.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { runAdminCommand } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createFakeGraphApi } from "../../src/dev/index.js";
import { createLogger } from "../../src/observability/index.js";
import { deletePrefix } from "../e2e/delete-prefix.js";
import { type SharpsharpProcess, startProcess } from "../e2e/processes.js";
import { runLoad } from "../ingress/load.js";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "1000" },
    duration: { type: "string", default: "10" },
    consoles: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    database: { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
  },
});
const RATE = Number(values.rate);
const DURATION = Number(values.duration);
const CONSOLES = Number(values.consoles);
const ROUNDS = Number(values.rounds);
const SECRET = "bench-secret";
const RUN = `bc${Date.now().toString(36)}`;
const PASSWORD = "bench console password";

const graph = createFakeGraphApi(
  { logger: createLogger({ level: "warn" }) },
  { tokens: ["bench-graph-token"], maxRecords: 1000 },
);
const graphUrl = await graph.listen({ host: "127.0.0.1", port: 0 });
const env: Record<string, string> = {
  WHATSAPP_APP_SECRET: SECRET,
  WHATSAPP_VERIFY_TOKEN: "bench-verify",
  WHATSAPP_TOKEN: "bench-graph-token",
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  GRAPH_API_BASE_URL: graphUrl,
  REDIS_URL: values.redis as string,
  REDIS_PREFIX: RUN,
  DATABASE_URL: values.database as string,
  DATABASE_SCHEMA: RUN,
  HOST: "127.0.0.1",
  SHARPSHARP_DATA_DIR: `/tmp/${RUN}`,
};
const processes: SharpsharpProcess[] = [];
const ingress = await startProcess(
  "ingress",
  "ingress",
  { ...env, PORT: "3111", ADMIN_PORT: "9571" },
  "listening on",
);
processes.push(ingress);
processes.push(
  await startProcess(
    "worker",
    "worker",
    { ...env, PORT: "3112", ADMIN_PORT: "9572" },
    "sharpsharp worker running",
  ),
);
const created = await runAdminCommand(loadConfig({ env, cwd: process.cwd() }), {
  action: "create",
  email: "bench@console.local",
  password: PASSWORD,
  grants: [{ tenantId: "*", role: "admin" }],
});
if (created.action !== "create") throw new Error("no operator");
processes.push(
  await startProcess(
    "console",
    "console",
    { ...env, PORT: "3111", ADMIN_PORT: "9573" },
    "sharpsharp console on",
  ),
);
const consoleUrl = "http://127.0.0.1:9573";
const webhookUrl = "http://127.0.0.1:3111/webhook";

const login = await fetch(`${consoleUrl}/api/v1/session`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "bench@console.local", password: PASSWORD }),
});
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;

/** Opens `count` event streams in a child process; answers a closer that reports the events they read. */
async function openConsoles(
  count: number,
): Promise<{ close(): Promise<{ events: number; cpuSeconds: number }> }> {
  if (count === 0) return { close: async () => ({ events: 0, cpuSeconds: 0 }) };
  const child = spawn(
    process.execPath,
    [
      new URL("./consoles.js", import.meta.url).pathname,
      "--url",
      consoleUrl,
      "--cookie",
      cookie,
      "--count",
      String(count),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const replies: string[] = [];
  let wake: (() => void) | undefined;
  lines.on("line", (line) => {
    replies.push(line);
    wake?.();
  });
  const next = async () => {
    while (replies.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return JSON.parse(replies.shift() as string) as { open?: number; events?: number; cpuSeconds?: number };
  };
  await next();
  return {
    async close() {
      child.kill("SIGTERM");
      const { events, cpuSeconds } = await next();
      return { events: events ?? 0, cpuSeconds: cpuSeconds ?? Number.NaN };
    },
  };
}

const DRAIN_LIMIT_MS = Number(process.env.DRAIN_LIMIT_MS ?? 60_000);

/** Waits until the worker has answered everything queued (turns and sends), at most DRAIN_LIMIT_MS (60 s). */
async function drained(): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < DRAIN_LIMIT_MS) {
    const figures = (await (
      await fetch(`${consoleUrl}/api/v1/metrics?hours=1`, { headers: { cookie } })
    ).json()) as {
      queues: { depth: number }[];
    };
    if (figures.queues.every((queue) => queue.depth === 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Date.now() - started;
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(child: SharpsharpProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

interface Round {
  consoles: number;
  p50: number;
  p99: number;
  reqPerSec: number;
  failed: number;
  eventsPerConsole: number;
  /** CPU seconds the 50 readers (the browsers' part) took, on the gateway's cores here. */
  readerCpuSeconds: number;
  /** p99 from the actual send time: the server's share, without the generator's send lag. */
  serviceP99: number;
  drainMs: number;
  /** CPU seconds each process used during the loaded seconds of the round. */
  cpu: Record<string, number>;
}
const rounds: Round[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const consoles of [0, CONSOLES]) {
    const streams = await openConsoles(consoles);
    const cpuBefore = processes.map(cpuSeconds);
    const result = await runLoad({
      url: webhookUrl,
      secret: SECRET,
      mode: "open",
      rate: RATE,
      durationSec: DURATION,
      warmupSec: 2,
      runId: `${RUN}r${round}c${consoles}`,
    });
    const cpu = Object.fromEntries(
      processes.map((child, index) => [
        child.name,
        Number((cpuSeconds(child) - (cpuBefore[index] ?? 0)).toFixed(2)),
      ]),
    );
    // Events of this round's turns go on arriving while the worker catches up: count them too.
    const drainMs = await drained();
    const read = await streams.close();
    const failed = Object.values(result.non200).reduce((sum, n) => sum + n, 0) + result.errorCount;
    const entry = {
      consoles,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      reqPerSec: result.reqPerSec,
      failed,
      eventsPerConsole: consoles === 0 ? 0 : Math.round(read.events / consoles),
      readerCpuSeconds: read.cpuSeconds,
      serviceP99: result.serviceTimeMs?.p99 ?? Number.NaN,
      drainMs,
      cpu,
    };
    rounds.push(entry);
    process.stdout.write(
      `round ${round + 1}, ${String(consoles).padStart(2)} consoles: ${result.reqPerSec.toFixed(0)} webhooks/s, ` +
        `p50 ${entry.p50.toFixed(2)} ms, p99 ${entry.p99.toFixed(2)} ms (service ${entry.serviceP99.toFixed(2)}), ${failed} not 200; ` +
        `events per console ${entry.eventsPerConsole}; worker drained ${(drainMs / 1000).toFixed(1)} s after; ` +
        `CPU s under load ${JSON.stringify(cpu)}, readers ${entry.readerCpuSeconds.toFixed(2)} s in all\n`,
    );
  }
}

const median = (numbers: number[]) =>
  [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;
const without = rounds.filter((round) => round.consoles === 0);
const withConsoles = rounds.filter((round) => round.consoles > 0);
const peak = Object.fromEntries(processes.map((child) => [child.name, Math.round(child.peakRssMiB() ?? 0)]));
const summary = {
  rate: RATE,
  durationSec: DURATION,
  consoles: CONSOLES,
  rounds: ROUNDS,
  p50WithoutMs: median(without.map((round) => round.p50)),
  p50WithMs: median(withConsoles.map((round) => round.p50)),
  p99WithoutMs: median(without.map((round) => round.p99)),
  p99WithMs: median(withConsoles.map((round) => round.p99)),
  serviceP99WithoutMs: median(without.map((round) => round.serviceP99)),
  serviceP99WithMs: median(withConsoles.map((round) => round.serviceP99)),
  eventsPerConsole: median(withConsoles.map((round) => round.eventsPerConsole)),
  failed: rounds.reduce((sum, round) => sum + round.failed, 0),
  peakRssMiB: peak,
  consoleCpuWithoutS: median(without.map((round) => round.cpu.console ?? 0)),
  consoleCpuWithS: median(withConsoles.map((round) => round.cpu.console ?? 0)),
  readerCpuS: median(withConsoles.map((round) => round.readerCpuSeconds)),
};
const change = ((summary.p99WithMs - summary.p99WithoutMs) / summary.p99WithoutMs) * 100;
process.stdout.write(
  `median webhook p99: ${summary.p99WithoutMs.toFixed(2)} ms with no console, ${summary.p99WithMs.toFixed(2)} ms with ` +
    `${CONSOLES} (${change >= 0 ? "+" : ""}${change.toFixed(1)}%); peak RSS MiB ${JSON.stringify(peak)}\n` +
    `${JSON.stringify(summary)}\n`,
);

for (const child of processes.reverse()) await child.stop();
await graph.close();
const redis = new Redis(values.redis as string);
await deletePrefix(redis, RUN);
redis.disconnect();
const pool = new pg.Pool({ connectionString: values.database as string });
await pool.query(`DROP SCHEMA IF EXISTS "${RUN}" CASCADE`);
await pool.end();
