/**
 * Closed-loop load of signed status webhooks (sent, delivered, read for each
 * of our messages, as Meta posts them), every one distinct, so each is
 * recorded. Prints one JSON line: requests, req/s, p50/p99 ms, non-200.
 *
 *   node dist/bench/ingress/status-load.js --url http://127.0.0.1:3001/webhook --secret s3cret \
 *     --connections 50 --duration 8 [--warmup 2] [--run-id ID]
 */
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { DEFAULT_PHONE_NUMBER_ID, DEFAULT_WABA_ID, signBody } from "./webhook-body.js";

const STATUSES = ["sent", "delivered", "read"] as const;

function statusBody(runId: string, i: number): Buffer {
  const status = STATUSES[i % 3] as string;
  const message = Math.floor(i / 3);
  const body = {
    object: "whatsapp_business_account",
    entry: [
      {
        id: DEFAULT_WABA_ID,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "2349012345678", phone_number_id: DEFAULT_PHONE_NUMBER_ID },
              statuses: [
                {
                  id: `wamid.bench.out.${runId}.${message}`,
                  status,
                  timestamp: String(1_795_166_400 + (i % 3)),
                  recipient_id: `234800${String(message % 10_000_000).padStart(7, "0")}`,
                  pricing: {
                    billable: false,
                    pricing_model: "PMP",
                    type: "free_customer_service",
                    category: "service",
                  },
                },
              ],
            },
            field: "messages",
          },
        ],
      },
    ],
  };
  return Buffer.from(JSON.stringify(body));
}

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    secret: { type: "string", default: "bench-secret" },
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    "run-id": { type: "string", default: Date.now().toString(36) },
  },
});
if (values.url === undefined) throw new Error("--url is required");
const url = new URL(values.url);
const connections = Number(values.connections);
const pool = new Pool(url.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
const runId = values["run-id"];

let next = 0;
let measuring = false;
let stopped = false;
const latencies: number[] = [];
let non200 = 0;
let measured = 0;

async function connection(): Promise<void> {
  while (!stopped) {
    const i = next++;
    const body = statusBody(runId, i);
    const started = performance.now();
    const response = await pool.request({
      path: url.pathname,
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signBody(body, values.secret) },
      body,
    });
    await response.body.dump();
    if (!measuring || stopped) continue;
    measured += 1;
    latencies.push(performance.now() - started);
    if (response.statusCode !== 200) non200 += 1;
  }
}

const running = Array.from({ length: connections }, () => connection());
await new Promise((resolve) => setTimeout(resolve, Number(values.warmup) * 1000));
measuring = true;
const from = performance.now();
await new Promise((resolve) => setTimeout(resolve, Number(values.duration) * 1000));
stopped = true;
const seconds = (performance.now() - from) / 1000;
await Promise.all(running);
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q: number) => Number((latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(2));
process.stdout.write(
  `${JSON.stringify({ sent: next, measured, reqPerS: Math.round(measured / seconds), p50: at(0.5), p99: at(0.99), non200 })}\n`,
);
