/**
 * CPU per webhook of each step of the ingress's request path, in one process
 * and without sockets or a queue backend, so a change to the path shows up
 * without the noise of a loaded machine's network stack: the signature check,
 * JSON.parse, the envelope validation (parseWebhook less JSON.parse), and the
 * whole Fastify route through inject() on a queue that answers at once, and
 * a bare Fastify POST route through inject() (inject() alone costs far more
 * than the route: the difference of the two is what the ingress adds).
 * Then the embedded queue's record of each webhook's message (its SQLite
 * statements and commit, groups of 20 webhooks as one poll would bring, the
 * WAL flush left out). Point --dist at another build (a copy of dist/ from
 * before a change) to measure both, alternating runs.
 *
 *   node dist/bench/ingress/hot-path.js [--dist dist] [--requests 20000] [--rounds 5]
 *
 * Prints µs of process CPU (user + system) per webhook, median and min–max over the rounds, and one JSON line.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import Fastify from "fastify";
import { benchTenant } from "./bench-tenant.js";
import { buildTextWebhook, signBody } from "./webhook-body.js";

const { values } = parseArgs({
  options: {
    dist: { type: "string", default: "dist" },
    requests: { type: "string", default: "20000" },
    rounds: { type: "string", default: "5" },
  },
});
const dist = resolve(values.dist);
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const load = (path: string) => import(pathToFileURL(`${dist}/${path}`).href);
const ingress = await load("src/ingress/index.js");
const signature = await load("src/ingress/signature.js");
const observability = await load("src/observability/index.js");
const whatsapp = await load("src/whatsapp/index.js");
const embedded = await load("src/queue/embedded/index.js");
const sqlite = await load("src/sqlite/index.js");

const SECRET = "bench-secret";
const tenant = benchTenant(SECRET);

interface Batch {
  readonly messages: readonly unknown[];
  readonly events: readonly unknown[];
}

const app = await ingress.buildIngressApp({
  tenants: [tenant],
  // Answers at once, as a queue whose round trip cost nothing would.
  queue: {
    enqueue: async (batch: Batch) => ({
      messages: batch.messages.map(() => "new"),
      events: batch.events.map(() => "new"),
    }),
  },
  status: { description: "none", ping: async () => {}, whenReady: async () => {} },
  metrics: observability.createIngressMetrics({ defaultMetrics: false }),
  logger: observability.createLogger({ level: "warn" }),
  bodyLimitBytes: 3 * 1024 * 1024,
});
await app.ready();

// The floor: Fastify, the raw body as a Buffer, an empty 200; no hooks, no logger.
const bare = Fastify({ logger: false });
bare.removeAllContentTypeParsers();
bare.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
bare.post("/webhook", async (_request, reply) => reply.code(200).send());
await bare.ready();

let sequence = 0;
function bodies(): { body: Buffer; signature: string }[] {
  return Array.from({ length: requests }, () => {
    const i = sequence++;
    const body = buildTextWebhook({
      wamid: `wamid.hotpath.${i}`,
      from: `234800${String(i % 10_000_000).padStart(7, "0")}`,
      timestamp: Math.floor(Date.now() / 1000),
    });
    return { body, signature: signBody(body, SECRET) };
  });
}

/** µs of CPU per item of `work` over `items`. */
async function cpuPerItem<T>(items: readonly T[], work: (item: T) => unknown): Promise<number> {
  const before = process.cpuUsage();
  for (const item of items) {
    const result = work(item);
    if (result instanceof Promise) await result;
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / items.length;
}

const steps: Record<string, (item: { body: Buffer; signature: string }) => unknown> = {
  signature: ({ body, signature: header }) => signature.isValidSignature(body, header, SECRET),
  "JSON.parse": ({ body }) => JSON.parse(body.toString("utf8")),
  "JSON.parse + parseWebhook": ({ body }) =>
    whatsapp.parseWebhook(JSON.parse(body.toString("utf8")), { tenantId: "default", receivedAt: Date.now() }),
  "bare Fastify (inject)": async ({ body, signature: header }) => {
    await bare.inject({
      method: "POST",
      url: "/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": header },
      payload: body,
    });
  },
  "whole route (inject)": async ({ body, signature: header }) => {
    const response = await app.inject({
      method: "POST",
      url: "/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": header },
      payload: body,
    });
    if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${response.body}`);
  },
};

// The embedded queue on a file of its own; the WAL flush (fdatasync, off the event loop) is not CPU here.
const dataDir = mkdtempSync(join(tmpdir(), "ss-hot-path-"));
const db = sqlite.openSqliteDatabase({ dataDir });
const queues = embedded.createEmbeddedQueues({
  db,
  jobs: embedded.createJobTable(db),
  dedupeTtlSeconds: 8 * 24 * 3600,
  syncer: { sync: async () => {}, close: async () => {} },
  description: "hot-path",
});
const GROUP = 20;
/** µs of CPU per webhook to record its message in the embedded queue, GROUP webhooks per commit. */
async function embeddedRecordUs(items: readonly { body: Buffer }[]): Promise<number> {
  const batches = items.map(({ body }) => {
    const text = body.toString("utf8");
    const parsed = whatsapp.parseWebhook(JSON.parse(text), { tenantId: "default", receivedAt: Date.now() });
    return { messages: parsed.messages, events: parsed.events };
  });
  const before = process.cpuUsage();
  for (let start = 0; start < batches.length; start += GROUP) {
    await Promise.all(batches.slice(start, start + GROUP).map((batch) => queues.inbound.enqueue(batch)));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / items.length;
}

const results: Record<string, number[]> = {};
// One warm-up round so every step runs optimised code, then the measured rounds.
for (let round = 0; round <= rounds; round++) {
  const items = bodies();
  for (const [name, step] of Object.entries(steps)) {
    const us = await cpuPerItem(items, step);
    if (round === 0) continue;
    const list = results[name] ?? [];
    list.push(us);
    results[name] = list;
  }
  const recordUs = await embeddedRecordUs(items);
  if (round > 0) {
    const name = `embedded record (x${GROUP})`;
    results[name] = [...(results[name] ?? []), recordUs];
  }
}
await app.close();
await queues.close();
db.close();
rmSync(dataDir, { recursive: true, force: true });
await bare.close();
const routeLessBare = (results["whole route (inject)"] ?? []).map(
  (us, index) => us - (results["bare Fastify (inject)"]?.[index] ?? 0),
);
results["route less bare Fastify"] = routeLessBare;

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
const fixed = (n: number) => n.toFixed(2);
process.stdout.write(`${dist}: µs of CPU per webhook, median (min–max) of ${rounds} rounds of ${requests}\n`);
for (const [name, list] of Object.entries(results)) {
  process.stdout.write(
    `  ${name.padEnd(26)} ${fixed(median(list)).padStart(7)}  (${fixed(Math.min(...list))}–${fixed(Math.max(...list))})\n`,
  );
}
process.stdout.write(
  `${JSON.stringify({ dist, requests, rounds, medianUs: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)])) })}\n`,
);
