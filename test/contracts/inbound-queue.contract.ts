import { describe, expect, it } from "vitest";
import type { ConversationInbox, InboundQueue, QueueStatus } from "../../src/queue/index.js";
import type { InboundEvent, InboundMessage } from "../../src/whatsapp/index.js";
import { sleep } from "../support/contract-backends.js";

/** One backend's inbound side, fresh and empty, with a probe for "a turn is due" (each backend shows it its own way). */
export interface InboundBackend {
  readonly inbound: InboundQueue;
  readonly inbox: ConversationInbox;
  readonly status: QueueStatus;
  /** Conversations whose turn is due or queued to run, sorted. */
  dueTurns(): Promise<string[]>;
  /** Takes every due turn as a turn worker would start it: afterwards none is due. */
  takeTurns(): Promise<void>;
}

export interface InboundBackendOptions {
  /** How long message and event ids are remembered, seconds. */
  readonly dedupeTtlSeconds: number;
}

const PHONE = "106540352242922";
const conversationOf = (tenant: string, customer: string) => `${tenant}:${PHONE}:${customer}`;

function message(conversationKey: string, wamid: string, timestamp: number): InboundMessage {
  const [tenantId = "", , waId = ""] = conversationKey.split(":");
  return {
    tenantId,
    phoneNumberId: PHONE,
    wabaId: "114098765432109",
    conversationKey,
    wamid,
    timestamp,
    receivedAt: Date.now(),
    type: "text",
    customer: { waId, name: "Ada Obi" },
    text: `text of ${wamid} — ẹ kú àárọ̀`,
  };
}

function statusEvent(dedupeId: string, status = "delivered"): InboundEvent {
  return {
    kind: "status",
    dedupeId,
    tenantId: "acme",
    phoneNumberId: PHONE,
    wamid: `wamid.out.${dedupeId}`,
    status,
    timestamp: 1_795_173_000,
    receivedAt: Date.now(),
    recipient: { waId: "2348012345678" },
  };
}

const wamids = (messages: readonly InboundMessage[]) => messages.map((m) => m.wamid);

/** The behaviour every InboundQueue + ConversationInbox adapter must have. */
export function describeInboundQueueContract(
  name: string,
  open: (options: InboundBackendOptions) => Promise<InboundBackend>,
): void {
  describe(`InboundQueue + ConversationInbox contract: ${name}`, () => {
    const conv = conversationOf("acme", "2348012345678");
    const other = conversationOf("acme", "2348099999999");
    const week = 7 * 24 * 3600;

    it("answers new, then redelivered before completion, then duplicate after it; a turn is due unless duplicate", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      const m1 = message(conv, "wamid.A1", 1_795_173_000);
      expect(await b.inbound.enqueue({ messages: [m1], events: [] })).toEqual({
        messages: ["new"],
        events: [],
      });
      expect(await b.dueTurns()).toEqual([conv]);
      await b.takeTurns();
      expect(await b.dueTurns()).toEqual([]);

      // Meta retries before the turn finished: recorded once, the turn due again.
      expect((await b.inbound.enqueue({ messages: [m1], events: [] })).messages).toEqual(["redelivered"]);
      expect(wamids(await b.inbox.read(conv))).toEqual(["wamid.A1"]);
      expect(await b.dueTurns()).toEqual([conv]);
      await b.takeTurns();

      await b.inbox.complete(conv, ["wamid.A1"]);
      expect(await b.inbox.read(conv)).toEqual([]);
      expect((await b.inbound.enqueue({ messages: [m1], events: [] })).messages).toEqual(["duplicate"]);
      expect(await b.inbox.read(conv)).toEqual([]);
      expect(await b.dueTurns()).toEqual([]);
    });

    it("answers per message within one batch, the same id twice in it included", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      await b.inbound.enqueue({ messages: [message(conv, "wamid.done", 1)], events: [] });
      await b.inbox.complete(conv, ["wamid.done"]);
      const outcome = await b.inbound.enqueue({
        messages: [
          message(conv, "wamid.x", 2),
          message(conv, "wamid.done", 1),
          message(conv, "wamid.x", 2),
          message(other, "wamid.y", 3),
        ],
        events: [],
      });
      expect(outcome.messages).toEqual(["new", "duplicate", "redelivered", "new"]);
      expect(wamids(await b.inbox.read(conv))).toEqual(["wamid.x"]);
      expect(await b.dueTurns()).toEqual([conv, other].sort());
    });

    it("remembers a message id per tenant", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      const other = conversationOf("globex", "2348012345678");
      await b.inbound.enqueue({ messages: [message(conv, "wamid.same", 1)], events: [] });
      await b.inbox.complete(conv, ["wamid.same"]);
      expect(
        (await b.inbound.enqueue({ messages: [message(other, "wamid.same", 1)], events: [] })).messages,
      ).toEqual(["new"]);
      expect(wamids(await b.inbox.read(other))).toEqual(["wamid.same"]);
    });

    it("reads one conversation's messages in Meta-timestamp order, ties by arrival, up to the limit", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      const t = 1_795_173_000;
      await b.inbound.enqueue({ messages: [message(conv, "wamid.late", t + 2)], events: [] });
      await b.inbound.enqueue({ messages: [message(other, "wamid.elsewhere", t - 5)], events: [] });
      const mid = message(conv, "wamid.mid", t + 1);
      await b.inbound.enqueue({ messages: [message(conv, "wamid.tie1", t), mid], events: [] });
      await b.inbound.enqueue({ messages: [message(conv, "wamid.tie2", t)], events: [] });
      await b.inbound.enqueue({ messages: [message(conv, "wamid.tie3", t)], events: [] });
      const all = await b.inbox.read(conv);
      expect(wamids(all)).toEqual(["wamid.tie1", "wamid.tie2", "wamid.tie3", "wamid.mid", "wamid.late"]);
      // The payload comes back as it went in.
      expect(all[3]).toEqual(mid);
      expect(wamids(await b.inbox.read(conv, 2))).toEqual(["wamid.tie1", "wamid.tie2"]);
      expect(wamids(await b.inbox.read(other))).toEqual(["wamid.elsewhere"]);
      expect(await b.inbox.read(conversationOf("acme", "nobody"))).toEqual([]);
    });

    it("complete removes the given messages, marks their ids handled (even one never seen), and keeps the rest", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      await b.inbound.enqueue({
        messages: [message(conv, "wamid.1", 1), message(conv, "wamid.2", 2), message(conv, "wamid.3", 3)],
        events: [],
      });
      await b.inbound.enqueue({ messages: [message(other, "wamid.o", 1)], events: [] });
      // Recording a message makes its conversation claimable in the same step: nothing lags.
      expect(await b.status.depth()).toMatchObject({
        inboxMessages: 4,
        inboxConversations: 2,
        unscheduledConversations: 0,
      });

      await b.inbox.complete(conv, ["wamid.1", "wamid.3", "wamid.never"]);
      await b.inbox.complete(conv, []);
      expect(wamids(await b.inbox.read(conv))).toEqual(["wamid.2"]);
      expect(await b.status.depth()).toMatchObject({ inboxMessages: 2, inboxConversations: 2 });
      const again = await b.inbound.enqueue({
        messages: [message(conv, "wamid.3", 3), message(conv, "wamid.never", 4), message(conv, "wamid.2", 2)],
        events: [],
      });
      expect(again.messages).toEqual(["duplicate", "duplicate", "redelivered"]);
      expect(wamids(await b.inbox.read(conv))).toEqual(["wamid.2"]);

      await b.inbox.complete(conv, ["wamid.2"]);
      // Completing twice changes nothing.
      await b.inbox.complete(conv, ["wamid.2"]);
      expect(await b.status.depth()).toMatchObject({ inboxMessages: 1, inboxConversations: 1 });
    });

    it("deduplicates events by dedupeId, within a batch and across batches, and queues each new one once", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      const first = await b.inbound.enqueue({
        messages: [],
        events: [statusEvent("s1"), statusEvent("s2"), statusEvent("s1")],
      });
      expect(first).toEqual({ messages: [], events: ["new", "new", "duplicate"] });
      const second = await b.inbound.enqueue({
        messages: [message(conv, "wamid.with-event", 1)],
        events: [statusEvent("s2", "read"), statusEvent("s3", "read")],
      });
      expect(second).toEqual({ messages: ["new"], events: ["duplicate", "new"] });
      const depth = await b.status.depth();
      expect(depth.jobs.events?.waiting).toBe(3);
      expect(depth.inboxMessages).toBe(1);
    });

    it("answers an empty batch with empty outcomes and records nothing", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      expect(await b.inbound.enqueue({ messages: [], events: [] })).toEqual({ messages: [], events: [] });
      expect(await b.dueTurns()).toEqual([]);
      const depth = await b.status.depth();
      expect(depth).toMatchObject({ inboxMessages: 0, inboxConversations: 0 });
      expect(depth.jobs.events?.waiting ?? 0).toBe(0);
    });

    it("records 200 concurrent webhooks, each delivered twice at once, exactly once each", async () => {
      const b = await open({ dedupeTtlSeconds: week });
      const conversations = Array.from({ length: 10 }, (_, c) => conversationOf("acme", `23480100000${c}`));
      const batches = Array.from({ length: 200 }, (_, n) => ({
        // Within a conversation, later webhooks carry earlier timestamps: the inbox still sorts them.
        messages: [message(conversations[n % 10] as string, `wamid.c${n}`, 1_795_174_000 - n)],
        events: [statusEvent(`c${n % 50}`)],
      }));
      const outcomes = await Promise.all([...batches, ...batches].map((batch) => b.inbound.enqueue(batch)));
      for (let n = 0; n < 200; n++) {
        const results = [outcomes[n]?.messages[0], outcomes[n + 200]?.messages[0]].sort();
        expect(results).toEqual(["new", "redelivered"]);
      }
      expect(outcomes.flatMap((o) => o.events).filter((e) => e === "new").length).toBe(50);
      const depth = await b.status.depth();
      expect(depth).toMatchObject({ inboxMessages: 200, inboxConversations: 10 });
      expect(depth.jobs.events?.waiting).toBe(50);
      for (const [c, key] of conversations.entries()) {
        const read = wamids(await b.inbox.read(key, 1000));
        const expected = Array.from({ length: 20 }, (_, i) => `wamid.c${c + 10 * (19 - i)}`);
        expect(read).toEqual(expected);
      }
      expect(await b.dueTurns()).toEqual([...conversations].sort());
    });

    it("still remembers a message as handled when it is completed after its mark expired", async () => {
      const b = await open({ dedupeTtlSeconds: 1 });
      await b.inbound.enqueue({ messages: [message(conv, "wamid.slow", 1)], events: [] });
      // The turn takes longer than the dedupe TTL.
      await sleep(1_200);
      await b.inbox.complete(conv, ["wamid.slow"]);
      expect(
        (await b.inbound.enqueue({ messages: [message(conv, "wamid.slow", 1)], events: [] })).messages,
      ).toEqual(["duplicate"]);
      // Past the TTL of the handled mark, the id is forgotten: the message is new again.
      await sleep(1_200);
      expect(
        (await b.inbound.enqueue({ messages: [message(conv, "wamid.slow", 1)], events: [] })).messages,
      ).toEqual(["new"]);
      expect(wamids(await b.inbox.read(conv))).toEqual(["wamid.slow"]);
    });
  });
}
