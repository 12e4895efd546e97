/**
 * Agent benchmark: 1,000 messages of the mixed-traffic sample through the
 * whole pipeline in one process (ingress, worker with router
 * and LLM agent, outbound sender) against the fake LLM (latency 1–3 s, usage
 * from prompt size) and the fake Graph API, once with the classifier on and
 * once off (tier-1 rules only). Prints LLM calls, tokens, the share of
 * messages answered without the LLM, and the agent turns' latency beyond the
 * LLM's own time (webhook sent → reply at the Graph API, minus the turn's LLM
 * call time).
 *
 *   node dist/bench/agent/run.js [--messages 1000] [--rate 20] [--shared DIR]
 *
 * Needs `npm run build` and Redis at --redis (default redis://127.0.0.1:6379).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { createOpenAiChatClient, type LlmClient } from "../../src/agent/index.js";
import { startIngress, startWorker } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/index.js";
import { createFakeGraphApi, createFakeLlm } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import {
  asEvalExamples,
  dataPath,
  type EvalExample,
  loadCorpus,
  loadEvalFile,
  mixedTrafficSample,
  ROUTER_INTENTS,
  splitCorpus,
} from "../../src/router/index.js";
import { deletePrefix } from "../e2e/delete-prefix.js";
import { buildTextWebhook } from "../ingress/webhook-body.js";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "1000" },
    rate: { type: "string", default: "20" },
    // A folder of the public data sets (AfriSenti, INJONGO); default $SHARPSHARP_SHARED_DATA.
    shared: { type: "string", default: process.env.SHARPSHARP_SHARED_DATA ?? "" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
  },
});

const SECRET = "bench-agent-secret";
const TOKEN = "bench-agent-token";
const PHONE_NUMBER_ID = "106540352242922";
const logger = createLogger({ level: "warn" });

// Each message carries an invisible tag (zero-width space = 0, zero-width non-joiner = 1) so the LLM
// calls of its turn can be found; the router reads both as separators.
const tag = (index: number) =>
  `\u2060${[...index.toString(2)].map((bit) => (bit === "0" ? "\u200b" : "\u200c")).join("")}`;
const untag = (text: string): number | undefined => {
  const match = /\u2060([\u200b\u200c]+)/u.exec(text);
  return match?.[1] === undefined
    ? undefined
    : Number.parseInt([...match[1]].map((c) => (c === "\u200b" ? "0" : "1")).join(""), 2);
};

function sample(count: number): EvalExample[] {
  const test = asEvalExamples(splitCorpus(loadCorpus(dataPath("router")).examples).test, "test");
  let tweets: EvalExample[] = [];
  try {
    tweets = loadEvalFile(join(values.shared, "afrisenti-pcm", "pcm_test.tsv"));
  } catch {
    process.stdout.write("(no AfriSenti test tweets: the sample has no chatter)\n");
  }
  const mixed = tweets.length > 0 ? mixedTrafficSample(test, tweets) : test;
  return Array.from({ length: count }, (_, index) => mixed[index % mixed.length] as EvalExample);
}

interface Timing {
  llmMs: number;
  calls: number;
  tokens: number;
}

function timedLlm(inner: LlmClient, timings: Map<number, Timing>): LlmClient {
  return {
    async complete(request, signal) {
      const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
      const index =
        lastUser?.role === "user" && typeof lastUser.content === "string"
          ? untag(lastUser.content)
          : undefined;
      const started = performance.now();
      const completion = await inner.complete(request, signal);
      if (index !== undefined) {
        const timing = timings.get(index) ?? { llmMs: 0, calls: 0, tokens: 0 };
        timing.llmMs += performance.now() - started;
        timing.calls += 1;
        timing.tokens += completion.usage.promptTokens + completion.usage.completionTokens;
        timings.set(index, timing);
      }
      return completion;
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);

async function run(classifier: boolean, messages: readonly EvalExample[]) {
  const prefix = `bench-agent-${Date.now()}`;
  const graph = createFakeGraphApi({ logger }, { tokens: [TOKEN] });
  const graphUrl = await graph.listen();
  const llm = createFakeLlm(
    { logger },
    {
      latencyMs: [1000, 3000],
      rules: [
        { when: { always: true }, reply: { content: "No wahala, I don check am for you. Anything else?" } },
      ],
    },
  );
  const llmUrl = await llm.listen();
  const dir = mkdtempSync(join(tmpdir(), "bench-agent-"));
  const replies = Object.fromEntries(
    ROUTER_INTENTS.map((intent) => [intent, { text: `(canned ${intent} reply)` }]),
  );
  writeFileSync(
    join(dir, "tenants.json"),
    JSON.stringify({
      tenants: [
        {
          id: "bench",
          appSecretEnv: "BENCH_SECRET",
          verifyTokenEnv: "BENCH_VERIFY",
          graphTokenEnv: "BENCH_TOKEN",
          phoneNumberIds: [PHONE_NUMBER_ID],
          coalesce: { windowMs: 0, maxMs: 0 },
          throughputMps: 1000,
          persona: "You are the assistant of Bench Bank. Be brief.",
          router: classifier ? {} : { enabledIntents: [] },
          replies,
          limits: { agentConcurrency: 500, dailyTokenBudget: 1_000_000_000 },
        },
      ],
    }),
  );
  const config = loadConfig({
    env: {
      REDIS_URL: values.redis,
      REDIS_PREFIX: prefix,
      SHARPSHARP_CONFIG: join(dir, "tenants.json"),
      BENCH_SECRET: SECRET,
      BENCH_VERIFY: "v",
      BENCH_TOKEN: TOKEN,
      GRAPH_API_BASE_URL: graphUrl,
      LLM_BASE_URL: `${llmUrl}/v1`,
      LLM_MODEL: "fake-model",
      PORT: "0",
      ADMIN_PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
    },
    cwd: dir,
  });
  const timings = new Map<number, Timing>();
  const primary = createOpenAiChatClient({
    baseUrl: `${llmUrl}/v1`,
    apiKey: undefined,
    model: "fake-model",
    timeoutMs: 15_000,
    provider: "primary",
  });
  const ingress = await startIngress(config, { logger });
  const worker = await startWorker(config, {
    logger,
    serveHttp: false,
    llm: timedLlm(primary, timings),
    turnConcurrency: 256,
  });
  const pool = new Pool(ingress.url, { connections: 16 });
  // The ingress answers 503 until Redis is connected.
  for (let tries = 0; tries < 100; tries += 1) {
    const ready = await pool.request({ method: "GET", path: "/readyz" });
    await ready.body.dump();
    if (ready.statusCode === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const sentAt = new Map<string, { index: number; at: number }>();
  const rate = Number(values.rate);
  const started = performance.now();
  let non200 = 0;
  const posts: Promise<void>[] = [];
  for (const [index, message] of messages.entries()) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const from = `23480${String(10_000_000 + index)}`;
    const body = buildTextWebhook({
      wamid: `wamid.bench.agent.${prefix}.${index}`,
      from,
      timestamp: Math.floor(Date.now() / 1000),
      text: `${message.text}${tag(index)}`,
      targetBytes: 0,
    });
    sentAt.set(from, { index, at: Date.now() });
    posts.push(
      pool
        .request({
          method: "POST",
          path: "/webhook/bench",
          headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, SECRET) },
          body,
        })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode !== 200) {
            non200 += 1;
            process.stderr.write(`message ${index}: HTTP ${response.statusCode}\n`);
          }
        }),
    );
  }
  await Promise.all(posts);
  const until = Date.now() + 30_000;
  while (graph.messages().length < messages.length - non200 && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const received = graph.messages();
  const overheads: number[] = [];
  const localLatencies: number[] = [];
  const firstReply = new Map<string, number>();
  for (const message of received) {
    // The sender writes E.164 with "+"; the webhook's wa_id has none.
    const to = message.to?.replace(/^\+/u, "");
    if (to !== undefined && !firstReply.has(to)) firstReply.set(to, message.receivedAt);
  }
  for (const [from, sent] of sentAt) {
    const replyAt = firstReply.get(from);
    if (replyAt === undefined) continue;
    const timing = timings.get(sent.index);
    if (timing === undefined) localLatencies.push(replyAt - sent.at);
    else overheads.push(replyAt - sent.at - timing.llmMs);
  }
  overheads.sort((a, b) => a - b);
  localLatencies.sort((a, b) => a - b);
  const calls = [...timings.values()].reduce((sum, timing) => sum + timing.calls, 0);
  const tokens = [...timings.values()].reduce((sum, timing) => sum + timing.tokens, 0);
  const result = {
    classifier,
    messages: messages.length,
    non200,
    replies: received.length,
    answeredWithoutLlm: messages.length - timings.size,
    llmCalls: calls,
    tokens,
    localP50: percentile(localLatencies, 0.5),
    localP99: percentile(localLatencies, 0.99),
    overheadP50: percentile(overheads, 0.5),
    overheadP99: percentile(overheads, 0.99),
  };
  await pool.close();
  await ingress.close();
  await worker.close();
  await llm.close();
  await graph.close();
  const redis = new Redis(values.redis);
  await deletePrefix(redis, prefix);
  redis.disconnect();
  return result;
}

const messages = sample(Number(values.messages));
const rows = [];
for (const classifier of [true, false]) rows.push(await run(classifier, messages));
const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
const lines = [
  `${messages.length} messages at ${values.rate}/s, fake LLM latency 1–3 s, coalescing off; the sample repeats the ${Math.min(messages.length, 604)}-message mixed-traffic sample`,
  "",
  "| router | replies | non-200 | answered without the LLM | LLM calls | tokens | local answer p50 / p99 ms | agent overhead beyond LLM time p50 / p99 ms |",
  "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ...rows.map(
    (row) =>
      `| ${row.classifier ? "classifier on" : "classifier off (tier-1 rules only)"} | ${row.replies} | ${row.non200} | ${row.answeredWithoutLlm} (${pct(row.answeredWithoutLlm, row.messages)}) | ${row.llmCalls} | ${row.tokens.toLocaleString("en")} | ${row.localP50.toFixed(0)} / ${row.localP99.toFixed(0)} | ${row.overheadP50.toFixed(0)} / ${row.overheadP99.toFixed(0)} |`,
  ),
];
process.stdout.write(`${lines.join("\n")}\n`);
process.exit(0);
