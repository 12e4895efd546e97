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
 * WAL flush left out).
 *
 * Give --dist twice (this build and a copy of dist/ from before a change) to
 * load both into this one process and alternate them within every round, on
 * the same webhooks: on a noisy machine the spread between separate runs is
 * larger than most changes, and alternation inside one process cancels it.
 *
 *   node dist/bench/ingress/hot-path.js [--dist dist [--dist /tmp/before/dist]] [--requests 20000] [--rounds 5]
 *
 * Prints, per build, µs of process CPU (user + system) per webhook, median and min–max over the rounds, and
 * one JSON line.
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
    dist: { type: "string", multiple: true },
    requests: { type: "string", default: "20000" },
    rounds: { type: "string", default: "5" },
  },
});
const dists = (values.dist ?? ["dist"]).map((dist) => resolve(dist));
const requests = Number(values.requests);
const rounds = Number(values.rounds);

const SECRET = "bench-secret";
const tenant = benchTenant(SECRET);
/** Webhooks are recorded in groups of this many, as one poll of the sockets would bring them. */
const GROUP = 20;

interface Item {
  readonly body: Buffer;
  readonly signature: string;
}

interface Batch {
  readonly messages: readonly unknown[];
  readonly events: readonly unknown[];
}

interface Build {
  readonly dist: string;
  readonly steps: Record<string, (items: readonly Item[]) => Promise<number>>;
  close(): Promise<void>;
}

/** µs of CPU per item of `work` over `items`, one at a time. */
async function cpuPerItem<T>(items: readonly T[], work: (item: T) => unknown): Promise<number> {
  const before = process.cpuUsage();
  for (const item of items) {
    const result = work(item);
    if (result instanceof Promise) await result;
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / items.length;
}

/** Loads one build and makes its steps: each measures µs of CPU per webhook over the items it is given. */
async function loadBuild(dist: string): Promise<Build> {
  const load = (path: string) => import(pathToFileURL(`${dist}/${path}`).href);
  const ingress = await load("src/ingress/index.js");
  const signature = await load("src/ingress/signature.js");
  const observability = await load("src/observability/index.js");
  const whatsapp = await load("src/whatsapp/index.js");
  const embedded = await load("src/queue/embedded/index.js");
  const sqlite = await load("src/sqlite/index.js");

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
  const parse = ({ body }: Item) => {
    const parsed = whatsapp.parseWebhook(JSON.parse(body.toString("utf8")), {
      tenantId: "default",
      receivedAt: Date.now(),
    });
    return { messages: parsed.messages, events: parsed.events } as Batch;
  };
  // Awaited here: inject() answers a thenable chain, not a Promise, which cpuPerItem would not wait for.
  const post = async (target: typeof bare, { body, signature: header }: Item) =>
    await target.inject({
      method: "POST",
      url: "/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": header },
      payload: body,
    });

  const steps: Build["steps"] = {
    signature: (items) =>
      cpuPerItem(items, ({ body, signature: header }) => signature.isValidSignature(body, header, SECRET)),
    "JSON.parse": (items) => cpuPerItem(items, ({ body }) => JSON.parse(body.toString("utf8"))),
    "JSON.parse + parseWebhook": (items) => cpuPerItem(items, parse),
    "bare Fastify (inject)": (items) => cpuPerItem(items, (item) => post(bare, item)),
    "whole route (inject)": (items) =>
      cpuPerItem(items, async (item) => {
        const response = await post(app, item);
        if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${response.body}`);
      }),
    [`embedded record (x${GROUP})`]: async (items) => {
      // Parsed first, out of the measure: only the queue's statements and commits count.
      const batches = items.map(parse);
      const before = process.cpuUsage();
      for (let start = 0; start < batches.length; start += GROUP) {
        await Promise.all(batches.slice(start, start + GROUP).map((batch) => queues.inbound.enqueue(batch)));
      }
      const used = process.cpuUsage(before);
      return (used.user + used.system) / items.length;
    },
  };
  return {
    dist,
    steps,
    async close() {
      await app.close();
      await bare.close();
      await queues.close();
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const builds: Build[] = [];
for (const dist of dists) builds.push(await loadBuild(dist));

let sequence = 0;
// New wamids every round: the embedded record measures new messages, not duplicates.
function bodies(): Item[] {
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

const results = new Map<string, Record<string, number[]>>(builds.map((build) => [build.dist, {}]));
// One warm-up round so every step runs optimised code, then the measured rounds. Within a round each step
// runs on every build in turn, the order reversed every other round, so drift falls on both sides.
for (let round = 0; round <= rounds; round++) {
  const items = bodies();
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const name of Object.keys(builds[0]?.steps ?? {})) {
    for (const build of order) {
      const step = build.steps[name];
      if (step === undefined) continue;
      // Each build records into a file of its own, so the round's wamids are new to each.
      const us = await step(items);
      if (round === 0) continue;
      const byStep = results.get(build.dist) as Record<string, number[]>;
      byStep[name] = [...(byStep[name] ?? []), us];
    }
  }
}
for (const build of builds) await build.close();

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
const fixed = (n: number) => n.toFixed(2);
const summary: Record<string, Record<string, number>> = {};
for (const [dist, byStep] of results) {
  const bare = byStep["bare Fastify (inject)"] ?? [];
  byStep["route less bare Fastify"] = (byStep["whole route (inject)"] ?? []).map(
    (us, index) => us - (bare[index] ?? 0),
  );
  process.stdout.write(
    `${dist}: µs of CPU per webhook, median (min–max) of ${rounds} rounds of ${requests}\n`,
  );
  for (const [name, list] of Object.entries(byStep)) {
    process.stdout.write(
      `  ${name.padEnd(26)} ${fixed(median(list)).padStart(7)}  (${fixed(Math.min(...list))}–${fixed(Math.max(...list))})\n`,
    );
  }
  summary[dist] = Object.fromEntries(Object.entries(byStep).map(([name, list]) => [name, median(list)]));
}
process.stdout.write(`${JSON.stringify({ requests, rounds, medianUs: summary })}\n`);
