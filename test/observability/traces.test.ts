import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { startEmbedded, startIngress, startWorker } from "../../src/app/index.js";
import { type AppConfig, loadConfig, type TenantConfig } from "../../src/config/index.js";
import { createFakeLlm, type FakeLlm } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger, fingerprint } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";
import { embeddedTestConfig } from "../support/gateway-harness.js";
import { APP_SECRET, testTenant } from "../support/ingress-harness.js";
import { startMediaGateway, voice } from "../support/media-gateway.js";
import {
  createTestPool,
  dropSchema,
  skipWithoutPostgres,
  TEST_DATABASE_URL,
  uniqueSchema,
} from "../support/postgres.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";
import { startToolServer, TOOL_SERVER_NETWORK, type ToolServer } from "../support/tool-server.js";
import { captureTraces, exportedText, only, parentOf, type TraceCapture } from "../support/trace-capture.js";
import { textWebhook } from "../support/webhook-builder.js";

const logger = createLogger({ level: "silent" });
const CUSTOMER = "2348031234567";
const FIRST = "I never see my jollof since morning o";
const SECOND = "abeg check order ZX-4412 for me";
const TOOL_KEY = "tool-secret-7f3a9c21e8d4";
const LLM_SECRET = "llm-secret-5b1e2d9a7c";
const TOOL_ANSWER = "ZX-4412 dey with rider Emeka";
const WEBHOOK = "POST /webhook";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fakes one gateway talks to: Meta, the LLM (a tool call, then an answer), the tenant's tool API. */
async function startWorld() {
  const fake = await startFake();
  cleanups.push(() => fake.fake.close());
  const llm: FakeLlm = createFakeLlm(
    { logger },
    {
      apiKey: LLM_SECRET,
      rules: [
        {
          when: { lastUser: "check order", toolOffered: "get_order_status" },
          reply: { toolCalls: [{ name: "get_order_status", arguments: { orderId: "ZX-4412" } }] },
        },
        { when: { afterTool: "get_order_status" }, reply: { content: "Your order: {{toolResult}}" } },
      ],
    },
  );
  const llmUrl = await llm.listen();
  cleanups.push(() => llm.close());
  const tools: ToolServer = await startToolServer((request, response) => {
    const allowed = request.headers.authorization === `Bearer ${TOOL_KEY}`;
    response
      .writeHead(allowed ? 200 : 401, { "content-type": "application/json" })
      .end(JSON.stringify(allowed ? { status: TOOL_ANSWER } : { error: "no" }));
  });
  cleanups.push(() => tools.close());
  const tenant: TenantConfig = {
    ...testTenant("default"),
    graphToken: GRAPH_TOKEN,
    // Both webhooks' messages are answered as one turn.
    coalesce: { windowMs: 400, maxMs: 3000 },
    settings: {
      router: { enabledIntents: ["greeting"] },
      tools: [
        {
          name: "get_order_status",
          description: "Status of the customer's order.",
          parameters: { type: "object", properties: { orderId: { type: "string" } } },
          url: `${tools.url}/orders/status`,
          headers: { Authorization: { env: "DEFAULT_TOOL_KEY", prefix: "Bearer " } },
          allowNetworks: [TOOL_SERVER_NETWORK],
        },
      ],
    },
    secrets: { DEFAULT_TOOL_KEY: TOOL_KEY },
  };
  const withAgent = (config: AppConfig): AppConfig => ({
    ...config,
    tenants: [tenant],
    llm: {
      baseUrl: `${llmUrl}/v1`,
      apiKey: LLM_SECRET,
      model: "gpt-4o-mini",
      fallback: undefined,
      timeoutMs: 5000,
    },
  });
  return { fake, llm, tools, withAgent };
}

function post(url: string, body: Buffer): Promise<Response> {
  return fetch(`${url}/webhook`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, APP_SECRET) },
  });
}

/**
 * Two webhooks from one customer, coalesced into one turn that the router leaves to the agent, which
 * calls the tool and answers; the answer is sent, then Meta reports it delivered.
 */
async function converse(fake: RunningFake, gatewayUrl: string, traces: TraceCapture) {
  const now = Math.floor(Date.now() / 1000);
  const first = textWebhook([[{ wamid: "wamid.trace.first", from: CUSTOMER, timestamp: now, text: FIRST }]]);
  const second = textWebhook([
    [{ wamid: "wamid.trace.second", from: CUSTOMER, timestamp: now, text: SECOND }],
  ]);
  expect((await post(gatewayUrl, first)).status).toBe(200);
  expect((await post(gatewayUrl, second)).status).toBe(200);
  await eventually(() => fake.fake.messages({ to: `+${CUSTOMER}` }).length > 0, 15_000, 50);
  const sent = fake.fake.messages({ to: `+${CUSTOMER}` });
  expect(sent).toHaveLength(1);
  const wamid = (sent[0] as { id: string }).id;
  // The send's record (with its span) is written right after Meta answers: wait for it like Meta would.
  await traces.until("outbound.send");
  const delivered = await fake.fake.postStatus({
    webhookUrl: `${gatewayUrl}/webhook`,
    appSecret: APP_SECRET,
    wamid,
    status: "delivered",
  });
  expect(delivered.status).toBe(200);
  return { wamid, spans: await traces.until("delivery.status") };
}

/** The span tree of one conversation, from the webhooks to the send and its status. */
function expectTraceTree(spans: readonly ReadableSpan[], wamid: string, tenant = "default") {
  const webhooks = spans.filter((span) => span.name === WEBHOOK);
  expect(webhooks).toHaveLength(3);
  const [firstHook, secondHook, statusHook] = webhooks as [ReadableSpan, ReadableSpan, ReadableSpan];
  for (const hook of webhooks) {
    expect(parentOf(hook)).toBeUndefined();
    expect(hook.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/webhook",
      "http.response.status_code": 200,
      "ss.webhook.outcome": "accepted",
      "ss.tenant": tenant,
    });
  }
  const traceId = firstHook.spanContext().traceId;

  const turn = only(spans, "turn");
  expect(turn.spanContext().traceId).toBe(traceId);
  expect(parentOf(turn)).toBe(firstHook.spanContext().spanId);
  expect(turn.links.map((link) => link.context.spanId)).toEqual([secondHook.spanContext().spanId]);
  expect(turn.attributes).toMatchObject({
    "ss.tenant": tenant,
    "ss.turn.messages": 2,
    "ss.turn.replies": 1,
    "ss.conversation.mode": "bot",
  });
  expect(String(turn.attributes["ss.turn.id"])).toMatch(/^turn-/);

  // The read receipt with the typing indicator, a Graph API call of the turn's own.
  expect(parentOf(only(spans, "graph.mark_read"))).toBe(turn.spanContext().spanId);

  const router = only(spans, "router.decide");
  expect(parentOf(router)).toBe(turn.spanContext().spanId);
  expect(router.attributes).toMatchObject({ "ss.router.tier": "fallback", "ss.router.resolved": false });

  const agent = only(spans, "agent.turn");
  expect(parentOf(agent)).toBe(turn.spanContext().spanId);
  expect(agent.attributes).toMatchObject({ "ss.agent.outcome": "answered", "ss.agent.llm_calls": 2 });

  // The tenant names no model of its own: the span is named for the operation, the model is an attribute.
  const chats = spans.filter((span) => span.name === "chat");
  expect(chats).toHaveLength(2);
  for (const chat of chats) {
    expect(parentOf(chat)).toBe(agent.spanContext().spanId);
    expect(chat.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.response.model": "gpt-4o-mini",
      "ss.llm.provider": "primary",
    });
    expect(chat.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
  }
  expect(chats.map((chat) => chat.attributes["ss.llm.tool_calls"])).toEqual([1, 0]);

  const tool = only(spans, "execute_tool get_order_status");
  expect(parentOf(tool)).toBe(agent.spanContext().spanId);
  expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "get_order_status", "ss.tool.result": "ok" });

  const send = only(spans, "outbound.send");
  expect(parentOf(send)).toBe(turn.spanContext().spanId);
  expect(send.attributes).toMatchObject({ "ss.send.outcome": "sent", "ss.reply.part": 0 });
  const graph = only(spans, "graph.send_message");
  expect(parentOf(graph)).toBe(send.spanContext().spanId);
  expect(graph.attributes["ss.wamid.hash"]).toBe(fingerprint(wamid));

  // One trace from the first webhook to the Graph API send.
  for (const span of [turn, router, agent, ...chats, tool, send, graph]) {
    expect(span.spanContext().traceId).toBe(traceId);
  }

  // The status is its own webhook's child, linked to the send it reports on.
  const status = only(spans, "delivery.status");
  expect(parentOf(status)).toBe(statusHook.spanContext().spanId);
  expect(status.links.map((link) => link.context.spanId)).toEqual([graph.spanContext().spanId]);
  expect(status.links[0]?.context.traceId).toBe(traceId);
  expect(status.attributes).toMatchObject({
    "ss.status": "delivered",
    "ss.status.outcome": "applied",
    "ss.status.ours": true,
    "ss.wamid.hash": fingerprint(wamid),
  });

  // Never message text, a phone number, a raw wamid or a secret, anywhere a backend would store.
  const exported = exportedText(spans);
  for (const forbidden of [
    FIRST,
    SECOND,
    "jollof",
    "ZX-4412",
    TOOL_ANSWER,
    "Your order",
    CUSTOMER,
    CUSTOMER.slice(3),
    "wamid.trace",
    wamid,
    APP_SECRET,
    GRAPH_TOKEN,
    LLM_SECRET,
    TOOL_KEY,
  ]) {
    expect(exported).not.toContain(forbidden);
  }
}

describe("traces: embedded", () => {
  it("follows a conversation from its webhooks through the turn, the router, the agent's LLM and tool calls, to the send and its status", async () => {
    const world = await startWorld();
    const traces = captureTraces("embedded");
    cleanups.push(() => traces.close());
    const dataDir = mkdtempSync(join(tmpdir(), "ss-traces-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const running = await startEmbedded(world.withAgent(embeddedTestConfig(world.fake.url, dataDir, [])), {
      logger,
      graceMs: 500,
      tracing: traces.tracing,
    });
    cleanups.push(() => running.close());
    const { wamid, spans } = await converse(world.fake, running.url, traces);
    expectTraceTree(spans, wamid);
    expect(spans[0]?.resource.attributes).toMatchObject({
      "service.name": "sharpsharp",
      "sharpsharp.role": "embedded",
    });
  });
});

describe.skipIf(skipWithoutRedis || skipWithoutPostgres)("traces: distributed (Redis and PostgreSQL)", () => {
  it("carries the trace across Redis from the ingress to the worker, and from the send to its status", async () => {
    const world = await startWorld();
    const traces = captureTraces("distributed");
    cleanups.push(() => traces.close());
    const prefix = uniquePrefix("traces");
    const schema = uniqueSchema("traces");
    const redis = new Redis(TEST_REDIS_URL);
    const pool = createTestPool();
    cleanups.push(async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
      await dropSchema(pool, schema);
      await pool.end();
    });
    const config = world.withAgent(
      loadConfig({
        env: {
          WHATSAPP_APP_SECRET: APP_SECRET,
          WHATSAPP_VERIFY_TOKEN: "v",
          REDIS_URL: TEST_REDIS_URL,
          REDIS_PREFIX: prefix,
          REDIS_ALLOW_EVICTION: "on",
          DATABASE_URL: TEST_DATABASE_URL,
          DATABASE_SCHEMA: schema,
          GRAPH_API_BASE_URL: world.fake.url,
          HOST: "127.0.0.1",
          PORT: "0",
          ADMIN_PORT: "0",
        },
        cwd: process.cwd(),
      }),
    );
    // Two processes' worth of parts, each given the same in-memory exporter: only Redis connects them.
    const ingress = await startIngress(config, { logger, tracing: traces.tracing });
    cleanups.push(() => ingress.close());
    const worker = await startWorker(config, {
      logger,
      tracing: traces.tracing,
      serveHttp: false,
      graceMs: 500,
    });
    cleanups.push(() => worker.close());
    const { wamid, spans } = await converse(world.fake, ingress.url, traces);
    expectTraceTree(spans, wamid);
  });
});

describe("traces: media", () => {
  const startStt = trackFakeStts(afterEach);

  it("puts a voice note's reading in a span under its turn, never the transcript", async () => {
    const transcripts = { [VOICE_NOTES.pidgin.sha256]: VOICE_NOTES.pidgin.text };
    const stt = await startStt({ transcripts });
    const traces = captureTraces("embedded");
    cleanups.push(() => traces.close());
    const gateway = await startMediaGateway(cleanups, { STT_BASE_URL: `${stt.url}/v1` }, undefined, {
      tracing: traces.tracing,
    });
    expect(await gateway.post([voice(gateway, "pidgin")])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    const spans = await traces.until("outbound.send");
    const turn = only(spans, "turn");
    const read = only(spans, "media.read");
    expect(read.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(read.spanContext().traceId).toBe(only(spans, WEBHOOK).spanContext().traceId);
    expect(exportedText(spans)).not.toContain(VOICE_NOTES.pidgin.text.slice(0, 20));
  });
});
