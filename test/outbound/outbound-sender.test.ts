import { afterEach, describe, expect, it } from "vitest";
import { outboundJobId } from "../../src/outbound/index.js";
import { createOutboundKeys } from "../../src/outbound/redis/index.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, PHONE_NUMBER_ID } from "../support/fake-graph.js";
import {
  createOutboundHarness,
  type OutboundHarness,
  outboundCounts,
  textReply,
} from "../support/outbound-harness.js";
import { skipWithoutRedis } from "../support/redis.js";

const sends = (h: OutboundHarness) => h.fake.fake.requests().filter((r) => r.kind === "send");

describe.skipIf(skipWithoutRedis)("outbound sender", () => {
  let h: OutboundHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("delivers a reply once, with its body, recipient and phone number id, and returns the wamid", async () => {
    h = await createOutboundHarness("out-once");
    const reply = textReply("2348012345678", "turn-1", 0, {
      message: { type: "text", text: { body: "How far!" }, context: { message_id: "wamid.in.1" } },
    });
    const bsuid = textReply("", "turn-2", 0, { to: undefined, recipient: "NG.3318264059917364520" });
    await h.queue.enqueue([reply, bsuid]);
    h.startWorker();
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).completed === 2);
    const [message] = h.fake.fake.messages({ to: "2348012345678" });
    // Sent with its "+": without it Meta would prepend the business number's country code.
    expect(message).toMatchObject({ phoneNumberId: PHONE_NUMBER_ID, to: "+2348012345678", type: "text" });
    expect(message?.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "+2348012345678",
      type: "text",
      text: { body: "How far!" },
      context: { message_id: "wamid.in.1" },
    });
    expect(h.fake.fake.messages({ to: "NG.3318264059917364520" })).toHaveLength(1);
    const job = await h.queue.queue.getJob(outboundJobId(reply));
    expect(job?.returnvalue).toBe(message?.id);
    expect(sends(h)).toHaveLength(2);
  });

  it("sends a (turn, part) once however often it is enqueued", async () => {
    h = await createOutboundHarness("out-dedupe");
    const reply = textReply("2348012345679", "turn:with:colons", 1);
    await h.queue.enqueue([reply, reply]);
    await h.queue.enqueue([reply]);
    h.startWorker();
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).completed === 1);
    await h.queue.enqueue([reply]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.fake.fake.messages()).toHaveLength(1);
    expect(await outboundCounts(h)).toMatchObject({ completed: 1, waiting: 0, delayed: 0 });
  });

  it("refuses a reply with no customer, queuing nothing of the call", async () => {
    h = await createOutboundHarness("out-invalid");
    const bad = textReply("2348012345670", "turn-x", 0, { to: undefined });
    await expect(h.queue.enqueue([textReply("2348012345671", "turn-y"), bad])).rejects.toMatchObject({
      code: "SS_OUTBOUND_INVALID_REPLY",
    });
    expect((await outboundCounts(h)).waiting).toBe(0);
  });

  it("delivers every reply exactly once across a 3 s outage of 5xx answers", async () => {
    h = await createOutboundHarness("out-outage");
    h.fake.fake.setFaults({ outageForMs: 3000 });
    const replies = Array.from({ length: 20 }, (_, i) => textReply(`23480100000${10 + i}`, `turn-o${i}`));
    await h.queue.enqueue(replies);
    h.startWorker();
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).completed === 20, 15_000, 50);
    const delivered = h.fake.fake.messages().map((m) => m.to);
    expect(delivered).toHaveLength(20);
    expect(new Set(delivered).size).toBe(20);
    const rejected = sends(h).filter((r) => r.outcome === "rejected");
    expect(rejected.length).toBeGreaterThanOrEqual(20);
    expect(rejected.every((r) => r.status === 503 && r.errorCode === 131016)).toBe(true);
    expect((await outboundCounts(h)).failed).toBe(0);
  });

  it("gives up on 131047 with the reason in failedReason, and counts it", async () => {
    h = await createOutboundHarness("out-131047");
    h.fake.fake.setFaults({ forcedErrors: [{ code: 131047 }] });
    const reply = textReply("2348012345672", "turn-r");
    await h.queue.enqueue([reply]);
    h.startWorker();
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).failed === 1);
    const job = await h.queue.queue.getJob(outboundJobId(reply));
    expect(job?.failedReason).toBe("SS_OUTBOUND_GIVEN_UP: reengagement_required (Meta code 131047)");
    expect(sends(h)).toHaveLength(1);
    const counted = await h.metrics.givenUp.get();
    expect(counted.values).toEqual([
      { labels: { tenant: "default", reason: "reengagement_required" }, value: 1 },
    ]);
  });

  it("on 190 pauses the tenant, alerts without the token, and attempts none of its sends until the pause ends", async () => {
    h = await createOutboundHarness("out-190");
    const harness = h;
    h.fake.fake.setFaults({ forcedErrors: [{ code: 190, times: 1 }] });
    h.startWorker({ pauseMs: 1500 });
    const first = textReply("2348012345673", "turn-t1");
    await h.queue.enqueue([first]);
    await eventually(async () => (await outboundCounts(harness)).failed === 1);
    expect((await h.queue.queue.getJob(outboundJobId(first)))?.failedReason).toContain(
      "access_token_invalid (Meta code 190)",
    );
    const pttl = await h.admin.pttl(createOutboundKeys(h.prefix).paused("default"));
    expect(pttl).toBeGreaterThan(0);
    const alert = h.logLines.find((line) => line.includes("graph_token_rejected"));
    expect(JSON.parse(alert ?? "{}")).toMatchObject({ level: 50, tenant: "default", graphCode: 190 });
    expect(h.logLines.join("\n")).not.toContain(GRAPH_TOKEN);

    const later = [textReply("2348012345674", "turn-t2"), textReply("2348012345675", "turn-t3")];
    const otherTenant = textReply("2348012345676", "turn-o1", 0, { tenantId: "other" });
    await h.queue.enqueue([...later, otherTenant]);
    await eventually(() => h?.fake.fake.messages({ to: "2348012345676" }).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sends(h)).toHaveLength(2);
    expect((await outboundCounts(h)).delayed).toBe(2);
    // Once the pause expires (the token replaced meanwhile), the waiting replies go out.
    await eventually(async () => (await outboundCounts(harness)).completed === 3, 5000, 50);
    expect(h.fake.fake.messages()).toHaveLength(3);
  });

  it("on 368 pauses that business number only, alerts, and sends its replies once the pause ends", async () => {
    h = await createOutboundHarness("out-368");
    const harness = h;
    h.fake.fake.setFaults({ forcedErrors: [{ code: 368, times: 1 }] });
    h.startWorker({ pauseMs: 1500 });
    const first = textReply("2348012345681", "turn-b1");
    await h.queue.enqueue([first]);
    await eventually(async () => (await outboundCounts(harness)).failed === 1);
    expect((await h.queue.queue.getJob(outboundJobId(first)))?.failedReason).toContain(
      "policy_blocked (Meta code 368)",
    );
    const keys = createOutboundKeys(h.prefix);
    expect(await h.admin.pttl(keys.paused(`default:${PHONE_NUMBER_ID}`))).toBeGreaterThan(0);
    expect(await h.admin.pttl(keys.paused("default"))).toBeLessThan(0);
    const alert = h.logLines.find((line) => line.includes("graph_number_blocked"));
    expect(JSON.parse(alert ?? "{}")).toMatchObject({ level: 50, tenant: "default", graphCode: 368 });

    const sameNumber = textReply("2348012345682", "turn-b2");
    const otherNumber = textReply("2348012345683", "turn-b3", 0, { phoneNumberId: "109876543210987" });
    await h.queue.enqueue([sameNumber, otherNumber]);
    await eventually(() => h?.fake.fake.messages({ to: "2348012345683" }).length === 1);
    expect(h.fake.fake.messages({ to: "2348012345682" })).toHaveLength(0);
    await eventually(() => h?.fake.fake.messages({ to: "2348012345682" }).length === 1, 5000, 50);
  });

  it("never sends to a `to` that is not a wa_id", async () => {
    h = await createOutboundHarness("out-bad-to");
    const bad = textReply("US.1234", "turn-u1");
    await h.queue.enqueue([bad]);
    h.startWorker();
    await eventually(async () => (await outboundCounts(h as OutboundHarness)).failed === 1);
    expect((await h.queue.queue.getJob(outboundJobId(bad)))?.failedReason).toContain("invalid_recipient");
    expect(sends(h)).toHaveLength(0);
  });
});
