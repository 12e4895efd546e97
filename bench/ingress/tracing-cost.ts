/**
 * What tracing costs the webhook's HTTP path, in CPU per webhook: the ingress
 * app (signature, JSON, envelope, normalisation, a queue that records nothing)
 * driven in-process with inject(), tracing off and on (a span per webhook,
 * batched to an exporter that drops them), alternated. CPU time rather than
 * throughput, so a machine shared with other work still gives comparable
 * figures.
 *
 *   node dist/bench/ingress/tracing-cost.js [--webhooks 8000] [--rounds 4]
 */

import { parseArgs } from "node:util";
import type { FastifyInstance } from "fastify";
import { textWebhook } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { buildStubIngressApp } from "./stub-ingress-app.js";

const { values } = parseArgs({
  options: { webhooks: { type: "string", default: "8000" }, rounds: { type: "string", default: "4" } },
});
const webhooks = Number(values.webhooks);
const rounds = Number(values.rounds);
const SECRET = "bench-secret";
const logger = createLogger({ level: "warn" });

function build(traced: boolean): Promise<FastifyInstance> {
  return buildStubIngressApp({ secret: SECRET, logger, traced });
}

const bodies = Array.from({ length: webhooks }, (_, index) =>
  textWebhook([
    [{ wamid: `wamid.bench.${index}`, from: "2348012345678", timestamp: 1_795_170_000, text: "hello" }],
  ]),
);
const signatures = bodies.map((body) => signatureFor(body, SECRET));

/** CPU microseconds per webhook, 50 in flight at a time. */
async function cpuPerWebhook(app: FastifyInstance): Promise<number> {
  const started = process.cpuUsage();
  for (let index = 0; index < webhooks; index += 50) {
    await Promise.all(
      bodies.slice(index, index + 50).map((payload, offset) =>
        app.inject({
          method: "POST",
          url: "/webhook",
          payload,
          headers: { "content-type": "application/json", "x-hub-signature-256": signatures[index + offset] },
        }),
      ),
    );
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / webhooks;
}

const apps = { off: await build(false), on: await build(true) };
await cpuPerWebhook(apps.off);
await cpuPerWebhook(apps.on);
const figures: Record<"off" | "on", number[]> = { off: [], on: [] };
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
    figures[name].push(await cpuPerWebhook(apps[name]));
  }
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
process.stdout.write(
  `${JSON.stringify({
    webhooks,
    rounds,
    cpuMicrosPerWebhook: {
      off: figures.off.map((value) => Math.round(value)),
      on: figures.on.map((value) => Math.round(value)),
    },
    median: { off: Math.round(median(figures.off)), on: Math.round(median(figures.on)) },
  })}\n`,
);
process.exit(0);
