/**
 * Does the console slow the gateway? The same open-loop webhook load (every
 * message from a new customer, so each is a turn, a reply and console
 * events) against one embedded gateway, with no console connected and with
 * N consoles on the event stream, alternating, in one run. Prints the
 * webhook p50/p99 of each round, the events the consoles received and the
 * server's memory, then one JSON line.
 *
 *   node dist/bench/console/run.js [--rate 1000] [--duration 10] [--consoles 50] [--rounds 3]
 *
 * Needs `npm run build`. The server runs in a child process (its own core's worth of event loop).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { formatResult, runLoad } from "../ingress/load.js";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "1000" },
    duration: { type: "string", default: "10" },
    consoles: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
  },
});
const RATE = Number(values.rate);
const DURATION = Number(values.duration);
const CONSOLES = Number(values.consoles);
const ROUNDS = Number(values.rounds);
const SECRET = "bench-secret";

const dataDir = mkdtempSync(join(tmpdir(), "ss-console-bench-"));
const server = spawn(
  process.execPath,
  [new URL("./serve.js", import.meta.url).pathname, "--data-dir", dataDir, "--secret", SECRET],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const [line] = (await once(createInterface({ input: server.stdout as NodeJS.ReadableStream }), "line")) as [
  string,
];
const { webhookUrl, consoleUrl } = JSON.parse(line) as { webhookUrl: string; consoleUrl: string };

const login = await fetch(`${consoleUrl}/api/v1/session`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: "bench@console.local", password: "bench console password" }),
});
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;

/** Opens `count` event streams; answers how many events they have read so far and a closer. */
async function openConsoles(count: number) {
  let events = 0;
  const controllers: AbortController[] = [];
  for (let i = 0; i < count; i += 1) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${consoleUrl}/api/v1/events`, {
      headers: { cookie },
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        events +=
          decoder.decode(value).split("\nevent: ").length -
          1 +
          (decoder.decode(value).startsWith("event: ") ? 1 : 0);
      }
    })().catch(() => {});
  }
  return {
    events: () => events,
    close: () => {
      for (const controller of controllers) controller.abort();
    },
  };
}

async function serverRssMb(): Promise<number> {
  const text = await (await fetch(`${consoleUrl}/metrics`)).text();
  const match = /^ss_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  return match === null ? Number.NaN : Math.round(Number(match[1]) / 1e6);
}

interface Round {
  consoles: number;
  p50: number;
  p99: number;
  reqPerSec: number;
  non200: number;
  eventsPerConsole: number;
  rssMb: number;
}
const rounds: Round[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const consoles of [0, CONSOLES]) {
    const streams = await openConsoles(consoles);
    const result = await runLoad({
      url: webhookUrl,
      secret: SECRET,
      mode: "open",
      rate: RATE,
      durationSec: DURATION,
      warmupSec: 2,
      runId: `c${round}n${consoles}`,
    });
    // Let the turns of this round drain before the next, so each round starts from an idle gateway.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rssMb = await serverRssMb();
    streams.close();
    const non200 = Object.values(result.non200).reduce((sum, n) => sum + n, 0) + result.errorCount;
    rounds.push({
      consoles,
      p50: result.latencyMs.p50,
      p99: result.latencyMs.p99,
      reqPerSec: result.reqPerSec,
      non200,
      eventsPerConsole: consoles === 0 ? 0 : Math.round(streams.events() / consoles),
      rssMb,
    });
    process.stdout.write(
      `round ${round + 1}, ${String(consoles).padStart(2)} consoles: ${formatResult(result).split("\n")[0]}\n` +
        `  webhook p50 ${result.latencyMs.p50.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms; ` +
        `events per console ${rounds.at(-1)?.eventsPerConsole}; server RSS ${rssMb} MB\n`,
    );
  }
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const without = rounds.filter((round) => round.consoles === 0);
const withConsoles = rounds.filter((round) => round.consoles > 0);
const summary = {
  rate: RATE,
  durationSec: DURATION,
  consoles: CONSOLES,
  rounds: ROUNDS,
  p99WithoutMs: median(without.map((round) => round.p99)),
  p99WithMs: median(withConsoles.map((round) => round.p99)),
  p50WithoutMs: median(without.map((round) => round.p50)),
  p50WithMs: median(withConsoles.map((round) => round.p50)),
  eventsPerConsole: median(withConsoles.map((round) => round.eventsPerConsole)),
  non200: rounds.reduce((sum, round) => sum + round.non200, 0),
};
process.stdout.write(
  `median p99: ${summary.p99WithoutMs.toFixed(2)} ms without consoles, ${summary.p99WithMs.toFixed(2)} ms with ${CONSOLES} ` +
    `(${(((summary.p99WithMs - summary.p99WithoutMs) / summary.p99WithoutMs) * 100).toFixed(1)}%)\n${JSON.stringify(summary)}\n`,
);
server.kill("SIGTERM");
await once(server, "exit");
rmSync(dataDir, { recursive: true, force: true });
