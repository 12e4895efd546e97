import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { createIngressMetrics, createLogger, createTracing } from "../observability/index.js";
import { type InboundBatch, type QueueStatus, QueueUnavailableError } from "../queue/index.js";
import { buildIngressApp } from "./build-ingress-app.js";
import { signatureFor } from "./signature.js";

const SECRET = "unit-test-app-secret";
const tenant: TenantConfig = {
  id: "default",
  appSecret: SECRET,
  verifyToken: "unit-test-verify-token",
  graphToken: undefined,
  phoneNumberIds: [],
  throughputMps: 80,
  coalesce: { windowMs: 800, maxMs: 3000 },
  staleAfterMs: 3_600_000,
  settings: {},
};

function webhook(): string {
  const value = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
    contacts: [{ profile: { name: "Ada" }, wa_id: "2348012345678" }],
    messages: [
      {
        from: "2348012345678",
        id: "wamid.span.1",
        timestamp: "1795170000",
        type: "text",
        text: { body: "hi" },
      },
      // A reaction is recorded as an event, never answered: it carries no trace (only statuses do).
      {
        from: "2348012345678",
        id: "wamid.span.2",
        timestamp: "1795170000",
        type: "reaction",
        reaction: { message_id: "wamid.x", emoji: "👍" },
      },
    ],
    statuses: [
      { id: "wamid.ours.1", status: "delivered", timestamp: "1795170001", recipient_id: "2348012345678" },
    ],
  };
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", changes: [{ field: "messages", value }] }],
  });
}

async function tracedIngress(enqueue: (batch: InboundBatch) => Promise<never> | Promise<unknown>) {
  const exporter = new InMemorySpanExporter();
  const logger = createLogger({ level: "silent" });
  const tracing = createTracing(undefined, { logger, role: "test", exporter });
  const app = await buildIngressApp({
    tenants: [tenant],
    queue: { enqueue: enqueue as never },
    status: { description: "memory", ping: async () => {} } as unknown as QueueStatus,
    metrics: createIngressMetrics({ defaultMetrics: false }),
    logger,
    bodyLimitBytes: 1 << 20,
    tracing,
  });
  const post = (body: string, secret = SECRET) =>
    app.inject({
      method: "POST",
      url: "/webhook",
      payload: body,
      headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, secret) },
    });
  // A span ends once its response is out, a moment after inject() has the response.
  const spans = async (count: number) => {
    for (let tries = 0; exporter.getFinishedSpans().length < count && tries < 100; tries++) {
      await tracing.flush();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return exporter.getFinishedSpans();
  };
  return { app, post, spans };
}

describe("the webhook's span", () => {
  it("is carried by the messages to answer and the statuses it records, and says the outcome", async () => {
    const batches: InboundBatch[] = [];
    const { post, spans } = await tracedIngress(async (batch) => {
      batches.push(batch);
      return { messages: batch.messages.map(() => "new"), events: batch.events.map(() => "new") };
    });
    expect((await post(webhook())).statusCode).toBe(200);
    const [span] = await spans(1);
    const carried = `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`;
    expect(span?.attributes).toMatchObject({
      "ss.tenant": "default",
      "ss.webhook.messages": 1,
      "ss.webhook.outcome": "accepted",
      "http.response.status_code": 200,
    });
    const [batch] = batches;
    expect(batch?.messages.map((message) => message.traceparent)).toEqual([carried]);
    const byKind = Object.fromEntries((batch?.events ?? []).map((event) => [event.kind, event]));
    expect(byKind.status).toMatchObject({ traceparent: carried });
    expect(byKind.message).not.toHaveProperty("traceparent");
  });

  it("fails on a 503 (nothing recorded) and not on a forged one, which names no tenant (nothing was verified)", async () => {
    const { post, spans } = await tracedIngress(() =>
      Promise.reject(new QueueUnavailableError("redis connection is reconnecting")),
    );
    expect((await post(webhook())).statusCode).toBe(503);
    expect((await post(webhook(), "not-the-secret")).statusCode).toBe(403);
    const [unavailable, forged] = await spans(2);
    expect(unavailable?.attributes).toMatchObject({
      "ss.webhook.outcome": "unavailable",
      "http.response.status_code": 503,
      "error.type": "unavailable",
    });
    expect(unavailable?.status.code).toBe(2);
    expect(forged?.attributes).toMatchObject({
      "ss.webhook.outcome": "bad_signature",
      "http.response.status_code": 403,
    });
    expect(forged?.attributes).not.toHaveProperty("ss.tenant");
    expect(forged?.status.code).toBe(0);
  });
});
