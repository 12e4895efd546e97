import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import type { TenantConfig } from "../config/index.js";
import { createIngressMetrics, createLogger } from "../observability/index.js";
import type { InboundQueue, QueueStatus } from "../queue/index.js";
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

function textWebhook(wamid: string): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              contacts: [{ profile: { name: "Ada" }, wa_id: "2348012345678" }],
              messages: [
                {
                  from: "2348012345678",
                  id: wamid,
                  timestamp: "1795170000",
                  type: "text",
                  text: { body: "hi" },
                },
              ],
            },
          },
        ],
      },
    ],
  });
}

/** A queue that records nothing: every message new the first time, a duplicate after. */
function memoryQueue(): InboundQueue {
  const seen = new Set<string>();
  return {
    async enqueue(batch) {
      return {
        messages: batch.messages.map((message) => {
          if (seen.has(message.wamid)) return "duplicate";
          seen.add(message.wamid);
          return "new";
        }),
        events: batch.events.map(() => "new" as const),
      };
    },
  };
}

async function buildApp() {
  const lines: string[] = [];
  const logger = createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  const child = vi.spyOn(logger, "child");
  const metrics = createIngressMetrics({ defaultMetrics: false });
  const status = { description: "memory", ping: async () => {} } as unknown as QueueStatus;
  const app = await buildIngressApp({
    tenants: [tenant],
    queue: memoryQueue(),
    status,
    metrics,
    logger,
    bodyLimitBytes: 1 << 20,
  });
  const post = (body: string) =>
    app.inject({
      method: "POST",
      url: "/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": signatureFor(body, SECRET) },
      payload: body,
    });
  return { app, metrics, child, lines, post };
}

describe("buildIngressApp's request path", () => {
  it("makes no child logger per request, and its debug lines still go out", async () => {
    const { app, child, lines, post } = await buildApp();
    child.mockClear();
    for (let i = 0; i < 3; i++) expect((await post(textWebhook(`wamid.unit.${i}`))).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines.filter((line) => line.includes("message recorded"))).toHaveLength(3);
    await app.close();
  });

  it("counts requests, messages and durations per outcome through the bound label sets", async () => {
    const { app, metrics, post } = await buildApp();
    await post(textWebhook("wamid.unit.a"));
    await post(textWebhook("wamid.unit.a"));
    await post(textWebhook("wamid.unit.b"));
    const bad = await app.inject({
      method: "POST",
      url: "/webhook",
      headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${"0".repeat(64)}` },
      payload: textWebhook("wamid.unit.c"),
    });
    expect(bad.statusCode).toBe(403);
    expect((await app.inject({ method: "GET", url: "/nowhere" })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    const text = await metrics.registry.metrics();
    expect(text).toContain('ss_ingress_requests_total{route="webhook",outcome="accepted"} 3');
    expect(text).toContain('ss_ingress_requests_total{route="webhook",outcome="bad_signature"} 1');
    expect(text).toContain('ss_ingress_messages_total{tenant="default",result="accepted"} 2');
    expect(text).toContain('ss_ingress_messages_total{tenant="default",result="duplicate"} 1');
    expect(text).toContain(
      'ss_ingress_request_duration_seconds_count{route="/webhook",outcome="accepted"} 3',
    );
    expect(text).toContain(
      'ss_ingress_request_duration_seconds_count{route="/webhook",outcome="bad_signature"} 1',
    );
    expect(text).toContain('ss_ingress_request_duration_seconds_count{route="unmatched",outcome="404"} 1');
    expect(text).toContain('ss_ingress_request_duration_seconds_count{route="/healthz",outcome="200"} 1');
    await app.close();
  });
});
