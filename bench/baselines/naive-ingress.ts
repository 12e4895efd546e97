/**
 * Baseline: the straightforward webhook ingress most tutorials show, to compare sharpsharp's ingress with.
 *
 * Fastify 5 keeps the raw body as a Buffer, checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw bytes,
 * compared with crypto.timingSafeEqual), JSON.parses it, then for each entry[].changes[].value.messages[]
 * does one BullMQ `queue.add("message", message, { jobId: message.id })` (so a re-delivered message is not
 * enqueued twice), and answers 200. No logging.
 *
 *   node dist/bench/baselines/naive-ingress.js --port 3000 --redis redis://127.0.0.1:6379 \
 *     --prefix bench-base-123 --secret s3cret
 *
 * Flags fall back to env: PORT, REDIS_URL, QUEUE_PREFIX, APP_SECRET, VERIFY_TOKEN.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Queue } from "bullmq";
import Fastify from "fastify";
import { Redis } from "ioredis";

export const BASELINE_QUEUE_NAME = "inbound";

interface WebhookMessage {
  id: string;
  [key: string]: unknown;
}

interface WebhookPayload {
  entry?: { changes?: { value?: { messages?: WebhookMessage[] } }[] }[];
}

function signatureMatches(rawBody: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

export interface NaiveIngressOptions {
  port: number;
  host: string;
  redisUrl: string;
  prefix: string;
  secret: string;
  verifyToken: string;
  queueName?: string;
}

/** Start the baseline server; resolves once it listens. Call the returned close() to stop it. */
export async function startNaiveIngress(opts: NaiveIngressOptions) {
  const connection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(opts.queueName ?? BASELINE_QUEUE_NAME, { connection, prefix: opts.prefix });
  const app = Fastify({ logger: false });

  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => {
    done(null, body);
  });

  // Meta's subscription handshake.
  app.get("/webhook", async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q["hub.mode"] === "subscribe" && q["hub.verify_token"] === opts.verifyToken) {
      return reply.code(200).send(q["hub.challenge"] ?? "");
    }
    return reply.code(403).send();
  });

  app.post("/webhook", async (req, reply) => {
    const raw = req.body;
    if (!Buffer.isBuffer(raw)) return reply.code(400).send();
    if (!signatureMatches(raw, req.headers["x-hub-signature-256"], opts.secret)) {
      return reply.code(401).send();
    }
    let payload: WebhookPayload;
    try {
      payload = JSON.parse(raw.toString("utf8")) as WebhookPayload;
    } catch {
      return reply.code(400).send();
    }
    const adds: Promise<unknown>[] = [];
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        for (const message of change.value?.messages ?? []) {
          adds.push(queue.add("message", message, { jobId: message.id }));
        }
      }
    }
    await Promise.all(adds);
    return reply.code(200).send();
  });

  await app.listen({ port: opts.port, host: opts.host });
  return {
    app,
    queue,
    async close() {
      await app.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: process.env.PORT ?? "3000" },
      host: { type: "string", default: "127.0.0.1" },
      redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
      prefix: { type: "string", default: process.env.QUEUE_PREFIX ?? "bench-base" },
      secret: { type: "string", default: process.env.APP_SECRET },
      "verify-token": { type: "string", default: process.env.VERIFY_TOKEN ?? "bench" },
      queue: { type: "string", default: BASELINE_QUEUE_NAME },
    },
    strict: true,
  });
  if (!values.secret) throw new Error("--secret (or APP_SECRET) is required");
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`bad --port "${values.port}"`);
  const server = await startNaiveIngress({
    port,
    host: values.host,
    redisUrl: values.redis,
    prefix: values.prefix,
    secret: values.secret,
    verifyToken: values["verify-token"],
    queueName: values.queue,
  });
  process.stdout.write(
    `naive-ingress listening on http://${values.host}:${port}/webhook (redis ${values.redis}, prefix ${values.prefix}, queue ${values.queue})\n`,
  );
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`naive-ingress: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
