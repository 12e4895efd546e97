import { describe, expect, it } from "vitest";
import { createSqliteDeliveryStatusStore } from "../../src/delivery/embedded/index.js";
import { createEventJobHandler } from "../../src/delivery/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { StatusEvent } from "../../src/whatsapp/index.js";
import { sqlitePerTest } from "../support/contract-backends.js";
import { captureTraces } from "../support/trace-capture.js";

const SEND = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const WEBHOOK = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

function statusEvent(wamid: string, over: Partial<StatusEvent> = {}): StatusEvent {
  return {
    kind: "status",
    dedupeId: `default:${wamid}:delivered`,
    tenantId: "default",
    phoneNumberId: "106540352242922",
    wamid,
    status: "delivered",
    timestamp: 1_795_170_001,
    receivedAt: Date.now(),
    recipient: { waId: "2348012345678" },
    traceparent: WEBHOOK,
    ...over,
  };
}

describe("a status's span", () => {
  const backend = sqlitePerTest();

  it("is its webhook's child and links to the send it reports on, found by the wamid", async () => {
    const store = createSqliteDeliveryStatusStore({ db: backend.open() });
    const traces = captureTraces();
    const run = createEventJobHandler({
      store,
      logger: createLogger({ level: "silent" }),
      tracing: traces.tracing,
    });
    await store.recordSent({
      tenantId: "default",
      wamid: "wamid.ours",
      phoneNumberId: "106540352242922",
      conversationKey: "default:106540352242922:2348012345678",
      to: "2348012345678",
      turnId: "turn-abc",
      part: 0,
      sentAt: 1,
      traceparent: SEND,
    });
    const job = (data: StatusEvent) => ({ data, updateData: async () => {} });
    await run(job(statusEvent("wamid.ours")));
    await run(job(statusEvent("wamid.ours")));
    await run(job(statusEvent("wamid.elsewhere", { traceparent: undefined })));
    const spans = (await traces.until("delivery.status", 3)).filter(
      (span) => span.name === "delivery.status",
    );
    const [ours, again, elsewhere] = spans;
    expect(ours?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    expect(ours?.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(ours?.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([
      ["4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"],
    ]);
    expect(ours?.attributes).toMatchObject({
      "ss.status.ours": true,
      "ss.status.outcome": "applied",
      "ss.turn.id": "turn-abc",
    });
    expect(again?.attributes["ss.status.outcome"]).toBe("stale_ignored");
    // A message sent elsewhere (or before tracing): a span of its own, linked to nothing.
    expect(elsewhere?.parentSpanContext).toBeUndefined();
    expect(elsewhere?.links).toEqual([]);
    expect(elsewhere?.attributes).toMatchObject({ "ss.status.ours": false, "ss.status.outcome": "applied" });
    await traces.close();
  });
});
