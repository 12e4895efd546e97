/**
 * CLI for the ingress load generator.
 *
 *   node dist/bench/ingress/run.js --url http://127.0.0.1:3000/webhook --secret s3cret \
 *     --mode closed --connections 50 --duration 10
 *   node dist/bench/ingress/run.js --url http://127.0.0.1:3000/webhook --secret s3cret \
 *     --mode open --rate 2000 --duration 10 --dup 0.2
 *
 * Prints a human-readable report, then the result as one JSON line (the last line of stdout).
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  type ClientKind,
  formatResult,
  type LoadMode,
  type LoadOptions,
  type LoadResult,
  runLoad,
} from "./load.js";

const USAGE = `usage: run.js --url URL --secret SECRET [--mode closed|open] [--connections N] [--rate R]
               [--duration S] [--requests N] [--dup SHARE] [--warmup S] [--run-id ID]
               [--client undici|undici-request|http] [--timeout MS] [--phone-number-id ID] [--seed N]
               [--claimable-metrics URL] [--quiet]
  closed loop: --connections (default 50) connections, each sending as soon as the previous answer came.
  open loop:   --rate req/s on a fixed schedule, latency from the intended send time; --connections caps the
               pool (default 256).
  --dup 0.2:   that share of requests re-sends an earlier body. --warmup defaults to 2 s (not counted).
  --claimable-metrics: the ingress's admin /metrics; after the load, wait until
               ss_queue_unscheduled_conversations is 0 and count that time (claimable.perSec).
  --secret may also come from APP_SECRET.
`;

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got "${v}"`);
  return n;
}

/** Parse CLI arguments into LoadOptions (throws on bad input). */
export function parseLoadArgs(argv: string[]): LoadOptions & { quiet: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string" },
      secret: { type: "string" },
      mode: { type: "string", default: "closed" },
      connections: { type: "string" },
      rate: { type: "string" },
      duration: { type: "string", default: "10" },
      requests: { type: "string" },
      dup: { type: "string", default: "0" },
      warmup: { type: "string", default: "2" },
      "run-id": { type: "string" },
      client: { type: "string", default: "undici" },
      timeout: { type: "string" },
      "phone-number-id": { type: "string" },
      seed: { type: "string" },
      "claimable-metrics": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const secret = values.secret ?? process.env.APP_SECRET;
  if (!values.url || !secret) throw new Error("--url and --secret (or APP_SECRET) are required");
  const mode = values.mode;
  if (mode !== "closed" && mode !== "open") throw new Error(`--mode must be closed or open, got "${mode}"`);
  const client = values.client;
  if (client !== "undici" && client !== "undici-request" && client !== "http") {
    throw new Error(`--client must be undici, undici-request or http, got "${client}"`);
  }
  const opts: LoadOptions & { quiet: boolean } = {
    url: values.url,
    secret,
    mode: mode satisfies LoadMode,
    client: client satisfies ClientKind,
    quiet: values.quiet,
  };
  const connections = num("connections", values.connections);
  if (connections !== undefined) opts.connections = connections;
  const rate = num("rate", values.rate);
  if (rate !== undefined) opts.rate = rate;
  const duration = num("duration", values.duration);
  if (duration !== undefined) opts.durationSec = duration;
  const requests = num("requests", values.requests);
  if (requests !== undefined) opts.requests = requests;
  const dup = num("dup", values.dup);
  if (dup !== undefined) opts.dup = dup;
  const warmup = num("warmup", values.warmup);
  if (warmup !== undefined) opts.warmupSec = warmup;
  const timeout = num("timeout", values.timeout);
  if (timeout !== undefined) opts.timeoutMs = timeout;
  const seed = num("seed", values.seed);
  if (seed !== undefined) opts.seed = seed;
  if (values["run-id"] !== undefined) opts.runId = values["run-id"];
  if (values["phone-number-id"] !== undefined) opts.phoneNumberId = values["phone-number-id"];
  if (values["claimable-metrics"] !== undefined) opts.claimableMetricsUrl = values["claimable-metrics"];
  return opts;
}

/** Run from CLI-style arguments; prints the report and the JSON line, returns the result. */
export async function main(argv: string[]): Promise<LoadResult> {
  const { quiet, ...opts } = parseLoadArgs(argv);
  if (!quiet) opts.onProgress = (line) => process.stderr.write(`${line}\n`);
  const result = await runLoad(opts);
  process.stdout.write(formatResult(result));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
      process.exit(1);
    },
  );
}
