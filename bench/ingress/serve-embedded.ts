/**
 * Runs sharpsharp's ingress in embedded mode for a benchmark: the real
 * ingress app on the embedded queues (SQLite in --data-dir, durable group
 * commits), without the turn, outbound and events runners, so it is the
 * counterpart of the Redis ingress alone. On SIGTERM it prints what it
 * recorded as one JSON line: { total: distinct messages, inboxMessages }.
 *
 * It also serves the admin app (/metrics) on --admin-port (any free port by
 * default) and prints `admin URL`, so the benchmark can wait until every
 * recorded conversation is claimable.
 *
 *   node dist/bench/ingress/serve-embedded.js --port 3001 --data-dir /tmp/ss-bench --secret s3cret [--sync off]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/index.js";
import { buildIngressApp } from "../../src/ingress/index.js";
import { buildAdminApp, createIngressMetrics, createLogger } from "../../src/observability/index.js";
import { createEmbeddedQueues, createJobTable } from "../../src/queue/embedded/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3001" },
    "data-dir": { type: "string", default: `/tmp/ss-bench-${Date.now()}` },
    secret: { type: "string", default: "bench-secret" },
    // "off": acknowledge after the commit without flushing the WAL (survives a crash, not a power cut).
    sync: { type: "string", default: "on" },
    "admin-port": { type: "string", default: "0" },
  },
});
const dataDir = values["data-dir"] as string;
const config = loadConfig({
  env: {
    WHATSAPP_APP_SECRET: values.secret,
    WHATSAPP_VERIFY_TOKEN: "bench-verify",
    SHARPSHARP_DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: values.port,
    LOG_LEVEL: "warn",
  },
  cwd: process.cwd(),
});
const db = openSqliteDatabase({ dataDir });
const queues = createEmbeddedQueues({
  db,
  jobs: createJobTable(db),
  dedupeTtlSeconds: config.ingress.dedupeTtlSeconds,
  ...(values.sync === "off" ? { syncer: { sync: async () => {}, close: async () => {} } } : {}),
  description: `sqlite ${join(dataDir, "sharpsharp.db")}`,
});
const logger = createLogger({ level: "warn" });
const metrics = createIngressMetrics({ sampleQueueDepth: () => queues.status.depth() });
const app = await buildIngressApp({
  tenants: config.tenants,
  queue: queues.inbound,
  status: queues.status,
  metrics,
  logger,
  bodyLimitBytes: config.server.bodyLimitBytes,
});
await app.listen({ host: "127.0.0.1", port: Number(values.port) });
const admin = buildAdminApp({
  registry: metrics.registry,
  ready: () => queues.status.ping(1000),
  description: queues.status.description,
  token: undefined,
});
const adminUrl = await admin.listen({ host: "127.0.0.1", port: Number(values["admin-port"]) });
process.stdout.write(`sharpsharp embedded ingress listening on port ${values.port}, data in ${dataDir}\n`);
process.stdout.write(`admin ${adminUrl}\n`);
const stop = async () => {
  await app.close();
  await admin.close();
  await queues.close();
  const total = (db.prepare("SELECT COUNT(*) AS n FROM queue_marks").get() as { n: number }).n;
  const inbox = (db.prepare("SELECT COUNT(*) AS n FROM queue_inbox").get() as { n: number }).n;
  db.close();
  process.stdout.write(`${JSON.stringify({ total, inboxMessages: inbox })}\n`);
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
