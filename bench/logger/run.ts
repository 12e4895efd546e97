/**
 * Logger benchmark: the cost of one log line, with redaction by key only (the
 * logger before value redaction: pino's `redact` paths) and with redaction by
 * value too (createLogger), on three kinds of line, written to a stream that
 * drops them, so the figure is the logger's own work; and the value redaction
 * alone on the finished line (the difference, without the logger's noise).
 *
 *   node dist/bench/logger/run.js [--lines 200000] [--rounds 5]
 *
 * Needs `npm run build`. Prints the median of the rounds, ns per line, then one JSON line.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { type DestinationStream, type Logger, pino } from "pino";
import { createLineRedactor, createLogger } from "../../src/observability/index.js";

const { values } = parseArgs({
  options: { lines: { type: "string", default: "200000" }, rounds: { type: "string", default: "5" } },
});
const lines = Number(values.lines);
const rounds = Number(values.rounds);

const drop: DestinationStream = { write: () => undefined };

// The logger as it was before value redaction (src/observability/logger.ts, by key only).
const KEYS = ["appSecret", "verifyToken", "graphToken", "token", "apiKey", "authorization"];
const keysOnly = pino(
  {
    level: "info",
    base: { service: "sharpsharp" },
    redact: {
      paths: [
        ...KEYS,
        "password",
        "secret",
        "text",
        "body",
        "caption",
        ...[...KEYS, "password", "secret", "text", "body", "caption"].map((key) => `*.${key}`),
        'req.headers["x-hub-signature-256"]',
        "req.headers.authorization",
      ],
      censor: "[redacted]",
    },
  },
  drop,
);
// Ten configured secrets, as a gateway with three tenants and an LLM key has: app secrets, tokens, keys.
const secrets = Array.from({ length: 10 }, (_, i) =>
  i % 2 === 0 ? randomBytes(16).toString("hex") : `EAAG${randomBytes(60).toString("base64url")}`,
);
const byValue = createLogger({ level: "info", destination: drop, secrets });

const error = new Error("connect ECONNREFUSED 127.0.0.1:6379");
const kinds: Record<string, (logger: Logger, i: number) => void> = {
  short: (logger, i) =>
    logger.info({ tenant: "mama-put-foods", tool: "get_order_status", n: i }, "tool called"),
  nested: (logger, i) =>
    logger.warn(
      {
        tenant: "mama-put-foods",
        conversation: "mama-put-foods:106540352242922:234*******678",
        wamidHash: "q1w2e3r4t5y6",
        send: { status: 429, code: 130429, attempt: i % 5, retryAfterMs: 1200 },
        url: "https://graph.facebook.com/v25.0/106540352242922/messages",
      },
      "send deferred: Meta's rate limit",
    ),
  error: (logger) =>
    logger.error({ err: error, backend: "redis redis://127.0.0.1:6379" }, "Redis call failed"),
};

function nsPerLine(logger: Logger, write: (logger: Logger, i: number) => void): number {
  for (let i = 0; i < 10_000; i += 1) write(logger, i);
  const results: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < lines; i += 1) write(logger, i);
    results.push(Number(process.hrtime.bigint() - started) / lines);
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)] as number;
}

function nsPerCall(call: () => void): number {
  for (let i = 0; i < 10_000; i += 1) call();
  const results: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < lines; i += 1) call();
    results.push(Number(process.hrtime.bigint() - started) / lines);
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(results.length / 2)] as number;
}

const redact = createLineRedactor(secrets);
const report: Record<string, { chars: number; keysOnlyNs: number; byValueNs: number; redactionNs: number }> =
  {};
for (const [kind, write] of Object.entries(kinds)) {
  let line = "";
  write(pino({ base: { service: "sharpsharp" } }, { write: (s: string) => (line = s) }), 1);
  const keysOnlyNs = nsPerLine(keysOnly, write);
  const byValueNs = nsPerLine(byValue, write);
  const redactionNs = nsPerCall(() => redact(line));
  report[kind] = {
    chars: line.length,
    keysOnlyNs: Math.round(keysOnlyNs),
    byValueNs: Math.round(byValueNs),
    redactionNs: Math.round(redactionNs),
  };
  process.stdout.write(
    `${kind.padEnd(7)} ${String(line.length).padStart(4)} chars   by key only ${keysOnlyNs.toFixed(0).padStart(6)} ns/line` +
      `   by key and value ${byValueNs.toFixed(0).padStart(6)} ns/line   value redaction alone ${redactionNs.toFixed(0).padStart(5)} ns\n`,
  );
}
process.stdout.write(`${JSON.stringify({ lines, rounds, node: process.version, report })}\n`);
