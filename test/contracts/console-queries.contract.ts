import { describe, expect, it } from "vitest";
import type { ConversationQuery, MessageStore } from "../../src/store/index.js";
import { walkConversations } from "../support/console-paging.js";
import {
  customerWrote,
  inbound,
  key,
  nextOf,
  type OpenMessageStore,
  outbound,
  PHONE,
  T0,
} from "./message-store-fixtures.js";

const MINUTE = 60_000;

/** Every page of a console list, following `next`: the keys in the order served. */
async function walk(store: MessageStore, query: ConversationQuery, limit: number): Promise<string[]> {
  return (await walkConversations(store, query, limit)).conversations.map((c) => c.conversationKey);
}

/** The console's reads over the message log (`MessageStore.console`): both adapters answer alike. */
export function describeConsoleQueriesContract(name: string, open: OpenMessageStore): void {
  describe(`ConsoleQueries contract: ${name}`, () => {
    it("lists each view newest first, within the asked tenants and number only", async () => {
      const store = await open();
      // acme: c1 bot, c2 human (assigned to ada), c3 paused, c4 human (bola), c5 bot (seen),
      // c6 on another number; beta: b1 human. Activity order: c6 newest … c1 oldest, b1 in between.
      for (const [i, customer] of ["c1", "c2", "c3", "c4", "c5"].entries()) {
        await store.recordInbound(customerWrote("acme", customer, T0 + i * MINUTE));
      }
      await store.recordInbound(
        inbound({
          wamid: "wamid.c6",
          customerId: "c6",
          conversationKey: key("acme", "c6", "999000"),
          receivedAt: T0 + 10 * MINUTE,
        }),
      );
      await store.recordInbound(customerWrote("beta", "b1", T0 + 2 * MINUTE + 1));
      await store.setConversationState(key("acme", "c2"), { mode: "human", assignedAgent: "ada" });
      await store.setConversationState(key("acme", "c3"), { mode: "paused" });
      await store.setConversationState(key("acme", "c4"), { mode: "human", assignedAgent: "bola" });
      await store.setConversationState(key("beta", "b1"), { mode: "human", assignedAgent: "ada" });
      await store.console.markSeen(key("acme", "c5"), T0 + 4 * MINUTE);

      const keysOf = async (query: Omit<ConversationQuery, "tenantIds">, tenantIds = ["acme"]) =>
        (await store.console.findConversations({ tenantIds, ...query }, { limit: 50 })).items.map((c) =>
          c.conversationKey.split(":").slice(1).join(":"),
        );
      const at = (customer: string, phone = PHONE) => `${phone}:${customer}`;
      expect(await keysOf({})).toEqual([
        at("c6", "999000"),
        at("c5"),
        at("c4"),
        at("c3"),
        at("c2"),
        at("c1"),
      ]);
      expect(await keysOf({ view: "all", phoneNumberId: PHONE })).toEqual([
        at("c5"),
        at("c4"),
        at("c3"),
        at("c2"),
        at("c1"),
      ]);
      expect(await keysOf({ view: "needs_human" })).toEqual([at("c4"), at("c2")]);
      expect(await keysOf({ view: "mine", assignedTo: "ada" })).toEqual([at("c2")]);
      expect(await keysOf({ view: "bot" })).toEqual([at("c6", "999000"), at("c5"), at("c1")]);
      expect(await keysOf({ view: "paused" })).toEqual([at("c3")]);
      expect(await keysOf({ view: "unread" })).toEqual([
        at("c6", "999000"),
        at("c4"),
        at("c3"),
        at("c2"),
        at("c1"),
      ]);
      expect(await keysOf({ view: "bot", phoneNumberId: "999000" })).toEqual([at("c6", "999000")]);
      // Several tenants merge into one order; beta's ada conversation shows only with beta asked.
      const both = await store.console.findConversations(
        { tenantIds: ["beta", "acme"], view: "mine", assignedTo: "ada" },
        { limit: 50 },
      );
      expect(both.items.map((c) => c.conversationKey)).toEqual([key("beta", "b1"), key("acme", "c2")]);
      expect(await keysOf({ view: "needs_human" }, ["beta"])).toEqual([at("b1")]);
      expect(await keysOf({}, ["nobody"])).toEqual([]);
    });

    it("refuses a query with no tenant, and the mine view without an operator", async () => {
      const store = await open();
      await expect(store.console.findConversations({ tenantIds: [] }, { limit: 5 })).rejects.toMatchObject({
        code: "SS_STORE_INVALID_QUERY",
      });
      await expect(
        store.console.findConversations({ tenantIds: ["acme"], view: "mine" }, { limit: 5 }),
      ).rejects.toMatchObject({ code: "SS_STORE_INVALID_QUERY" });
      await expect(
        store.console.findConversations({ tenantIds: ["acme"] }, { limit: 5, before: "nonsense" }),
      ).rejects.toMatchObject({ code: "SS_STORE_INVALID_CURSOR" });
      for (const read of [
        () => store.console.activity([], T0, MINUTE),
        () => store.console.deliveryFailures([], T0),
        () => store.console.handoffQueue([]),
        () => store.console.lastInboundAt([]),
      ]) {
        await expect(read()).rejects.toMatchObject({ code: "SS_STORE_INVALID_QUERY" });
      }
    });

    it("searches customer id prefixes, names and message text, case-insensitively and literally", async () => {
      const store = await open();
      await store.recordInbound(
        customerWrote("acme", "2348012345678", T0, {
          customerName: "Chinedu Okafor",
          text: "my transfer failed",
        }),
      );
      await store.recordInbound(
        customerWrote("acme", "2347011111111", T0 + 1, {
          customerName: "Ngozi",
          text: "100% sure, code A_1",
        }),
      );
      await store.recordInbound(
        customerWrote("acme", "NG.3318264059917364520", T0 + 2, {
          type: "image",
          text: undefined,
          mediaId: "media-1",
          caption: "Receipt for ORDER 42",
        }),
      );
      await store.recordOutbound(
        outbound({ turnId: "turn-x", conversationKey: key("acme", "2347011111111"), text: "Refund queued" }),
      );
      // Another tenant's conversation matches every search below: it must never show.
      await store.recordInbound(
        customerWrote("beta", "2348012345678", T0 + 3, {
          customerName: "Chinedu Okafor",
          text: "transfer 100% A_1 receipt refund",
        }),
      );

      const search = async (text: string) =>
        (
          await store.console.findConversations({ tenantIds: ["acme"], search: text }, { limit: 50 })
        ).items.map((c) => c.customerId);
      expect(await search("234801")).toEqual(["2348012345678"]);
      expect(await search("NG.33")).toEqual(["NG.3318264059917364520"]);
      expect(await search("chinedu")).toEqual(["2348012345678"]);
      expect(await search("  OKAFOR ")).toEqual(["2348012345678"]);
      expect(await search("TRANSFER")).toEqual(["2348012345678"]);
      expect(await search("order 42")).toEqual(["NG.3318264059917364520"]);
      // Our replies are messages of the conversation too.
      expect(await search("refund")).toEqual(["2347011111111"]);
      expect(await search("100%")).toEqual(["2347011111111"]);
      expect(await search("a_1")).toEqual(["2347011111111"]);
      // Wildcards of either database are plain characters.
      for (const wildcard of ["%", "_", "*", "?", "[0-9]", "1%s", "A%1", "a_", "_1"]) {
        const expected = ["%", "_", "a_", "_1"].includes(wildcard) ? ["2347011111111"] : [];
        expect(await search(wildcard), wildcard).toEqual(expected);
      }
      // The customer id is a prefix, never a substring, and folds no case.
      expect(await search("8012345")).toEqual([]);
      expect(await search("ng.33")).toEqual([]);
      expect(await search("   ")).toEqual(["2347011111111", "NG.3318264059917364520", "2348012345678"]);
      // Searching within a view and number.
      await store.setConversationState(key("acme", "2347011111111"), { mode: "human" });
      const human = await store.console.findConversations(
        { tenantIds: ["acme"], view: "needs_human", search: "1", phoneNumberId: PHONE },
        { limit: 50 },
      );
      expect(human.items.map((c) => c.customerId)).toEqual(["2347011111111"]);
      const beta = await store.console.findConversations(
        { tenantIds: ["beta"], search: "refund" },
        { limit: 5 },
      );
      expect(beta.items.map((c) => c.tenantId)).toEqual(["beta"]);
    });

    it("pages a filtered view without duplicates or gaps, ties in activity included", async () => {
      const store = await open();
      // 23 conversations, three to a millisecond; every third one handed to a human.
      const expected: string[] = [];
      for (let i = 0; i < 23; i += 1) {
        const customer = `2348${String(i).padStart(9, "0")}`;
        await store.recordInbound(customerWrote("acme", customer, T0 + Math.floor(i / 3)));
        if (i % 3 !== 1) await store.setConversationState(key("acme", customer), { mode: "human" });
      }
      const all = await walk(store, { tenantIds: ["acme"] }, 500);
      expect(all).toHaveLength(23);
      for (const conversation of all) {
        const i = Number(conversation.slice(-9));
        if (i % 3 !== 1) expected.push(conversation);
      }
      for (const limit of [1, 4, 5]) {
        const human = await walk(store, { tenantIds: ["acme"], view: "needs_human" }, limit);
        expect(human).toEqual(expected);
        expect(new Set(human).size).toBe(human.length);
      }
      // Two tenants paged together keep one order and lose nothing at the page edges.
      for (let i = 0; i < 7; i += 1) await store.recordInbound(customerWrote("beta", `b${i}`, T0 + i));
      const merged = await walk(store, { tenantIds: ["acme", "beta"] }, 4);
      expect(merged).toHaveLength(30);
      expect(new Set(merged).size).toBe(30);
    });

    it("marks a conversation read when opened, forward only, and unread again on a new message", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      await store.recordOutbound(
        outbound({ turnId: "proactive", customerId: "2348012345678", queuedAt: T0 }),
      );
      const unread = async () => (await store.console.conversation(conversation))?.unread;
      // Only our own message so far: nothing to read.
      expect(await unread()).toBe(false);
      await store.recordInbound(inbound({ wamid: "wamid.1", receivedAt: T0 + MINUTE }));
      expect(await unread()).toBe(true);
      await store.console.markSeen(conversation, T0 + 2 * MINUTE);
      expect(await unread()).toBe(false);
      // An older open moves nothing back.
      await store.console.markSeen(conversation, T0);
      expect(await unread()).toBe(false);
      const inView = async () =>
        (await store.console.findConversations({ tenantIds: ["acme"], view: "unread" }, { limit: 5 })).items
          .length;
      expect(await inView()).toBe(0);
      await store.recordInbound(inbound({ wamid: "wamid.2", receivedAt: T0 + 3 * MINUTE }));
      expect(await unread()).toBe(true);
      expect(await inView()).toBe(1);
      // An unknown conversation is no error, and stays unknown.
      await store.console.markSeen("acme:1:nobody", T0);
      expect(await store.console.conversation("acme:1:nobody")).toBeUndefined();
    });

    it("waits for a reply from the customer's oldest unanswered message, and clears on ours", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      const since = async () => (await store.console.conversation(conversation))?.awaitingReplySince;
      await store.recordInbound(inbound({ wamid: "wamid.1", receivedAt: T0 }));
      expect(await since()).toBe(T0);
      await store.recordInbound(inbound({ wamid: "wamid.2", receivedAt: T0 + 1_000 }));
      // A redelivery of the first changes nothing, whatever it says.
      expect(await store.recordInbound(inbound({ wamid: "wamid.2", receivedAt: T0 + 9_000 }))).toBe(
        "duplicate",
      );
      expect(await since()).toBe(T0);
      await store.recordOutbound(outbound({ turnId: "turn-1", queuedAt: T0 + 2_000 }));
      expect(await since()).toBeUndefined();
      // A late message older than our reply was answered by it.
      await store.recordInbound(inbound({ wamid: "wamid.late", receivedAt: T0 + 1_500 }));
      expect(await since()).toBeUndefined();
      await store.recordInbound(inbound({ wamid: "wamid.3", receivedAt: T0 + 5_000 }));
      expect(await since()).toBe(T0 + 5_000);
      // Our reply recorded late, queued before the customer's newest message, leaves it waiting.
      await store.recordOutbound(outbound({ turnId: "turn-2", queuedAt: T0 + 4_000 }));
      expect(await since()).toBe(T0 + 5_000);
      // A message recorded late, between our last reply and the waiting one, is the oldest unanswered.
      await store.recordInbound(inbound({ wamid: "wamid.4", receivedAt: T0 + 4_500 }));
      expect(await since()).toBe(T0 + 4_500);
      // A reply answering only the older of two leaves the newer waiting.
      await store.recordInbound(inbound({ wamid: "wamid.5", receivedAt: T0 + 8_000 }));
      await store.recordOutbound(outbound({ turnId: "turn-3", queuedAt: T0 + 6_000, sentBy: "op-ada" }));
      expect(await since()).toBe(T0 + 8_000);
      await store.recordOutbound(outbound({ turnId: "turn-4", queuedAt: T0 + 8_000 }));
      expect(await since()).toBeUndefined();
      expect((await store.console.conversation(conversation))?.lastInboundAt).toBe(T0 + 8_000);
    });

    it("keeps the customer's newest profile name, ignoring blank and older ones", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      const nameOf = async () => (await store.console.conversation(conversation))?.customerName;
      await store.recordInbound(inbound({ wamid: "wamid.0", receivedAt: T0 }));
      expect(await nameOf()).toBeUndefined();
      await store.recordInbound(inbound({ wamid: "wamid.1", receivedAt: T0 + 1, customerName: "Chinedu" }));
      expect(await nameOf()).toBe("Chinedu");
      await store.recordInbound(inbound({ wamid: "wamid.2", receivedAt: T0 + 2, customerName: "   " }));
      await store.recordInbound(inbound({ wamid: "wamid.3", receivedAt: T0 + 3 }));
      expect(await nameOf()).toBe("Chinedu");
      await store.recordInbound(
        inbound({ wamid: "wamid.4", receivedAt: T0 + 4, customerName: " Chinedu O. " }),
      );
      expect(await nameOf()).toBe("Chinedu O.");
      await store.recordInbound(
        inbound({ wamid: "wamid.old", receivedAt: T0 - 1, customerName: "Old Name" }),
      );
      await store.recordInbound(inbound({ wamid: "wamid.4", receivedAt: T0 + 9, customerName: "Duplicate" }));
      expect(await nameOf()).toBe("Chinedu O.");
      await store.recordInbound(
        inbound({ wamid: "wamid.long", receivedAt: T0 + 5, customerName: "x".repeat(400) }),
      );
      expect(await nameOf()).toBe("x".repeat(256));
    });

    it("reads one conversation's summary by key", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      await store.recordInbound(inbound({ wamid: "wamid.1", customerName: "Chinedu" }));
      await store.setConversationState(conversation, { mode: "human", assignedAgent: "ada" });
      expect(await store.console.conversation(conversation)).toEqual({
        tenantId: "acme",
        conversationKey: conversation,
        phoneNumberId: PHONE,
        customerId: "2348012345678",
        customerName: "Chinedu",
        mode: "human",
        assignedAgent: "ada",
        lastActivityAt: T0,
        lastInboundAt: T0,
        awaitingReplySince: T0,
        unread: true,
        lastMessage: { direction: "inbound", type: "text", preview: "hello", at: T0 },
      });
      expect(await store.console.conversation(key("acme", "nobody"))).toBeUndefined();
    });

    it("pages a conversation's turns newest first, with the agent's tool calls", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      const calls = [
        {
          name: "get_transfer",
          arguments: '{"reference":"TRX-1"}',
          result: '{"status":"pending"}',
          ok: true,
        },
        { name: "open_ticket", arguments: "{}", result: "timeout after 5000 ms", ok: false },
      ];
      for (let i = 0; i < 5; i += 1) {
        await store.recordTurn({
          turnId: `turn-${i}`,
          tenantId: "acme",
          conversationKey: conversation,
          decision: { intent: "failed_transfer", confidence: 0.5, resolved: i % 2 === 0, tier: "classifier" },
          // Two turns share a millisecond: paging must neither skip nor repeat one.
          at: T0 + Math.min(i, 3),
          ...(i === 4
            ? {
                agent: {
                  outcome: "answered",
                  promptTokens: 812,
                  completionTokens: 64,
                  costUsd: 0.0012,
                  tools: ["get_transfer", "open_ticket"],
                  calls,
                },
              }
            : {}),
        });
      }
      await store.recordTurn({
        turnId: "turn-other",
        tenantId: "acme",
        conversationKey: key("acme", "someone-else"),
        decision: { intent: "greeting", confidence: 1, resolved: true, tier: "rule" },
        at: T0 + 10,
      });
      const first = await store.console.turnsOf(conversation, { limit: 2 });
      expect(first.items.map((t) => t.turnId)).toEqual(["turn-4", "turn-3"]);
      expect(first.items[0]).toEqual({
        turnId: "turn-4",
        tenantId: "acme",
        conversationKey: conversation,
        decision: { intent: "failed_transfer", confidence: 0.5, resolved: true, tier: "classifier" },
        agent: {
          outcome: "answered",
          promptTokens: 812,
          completionTokens: 64,
          costUsd: 0.0012,
          tools: ["get_transfer", "open_ticket"],
          calls,
        },
        at: T0 + 3,
      });
      expect(first.items[1]).not.toHaveProperty("agent");
      const second = await store.console.turnsOf(conversation, { limit: 2, before: nextOf(first) });
      const third = await store.console.turnsOf(conversation, { limit: 2, before: nextOf(second) });
      expect([...second.items, ...third.items].map((t) => t.turnId)).toEqual(["turn-2", "turn-1", "turn-0"]);
      expect(third.next).toBeUndefined();
    });

    it("keeps operators' notes on known conversations of their own tenant, newest first", async () => {
      const store = await open();
      const conversation = key("acme", "2348012345678");
      const note = {
        tenantId: "acme",
        conversationKey: conversation,
        operatorId: "op-ada",
        text: "",
        at: T0,
      };
      await expect(store.console.addNote({ ...note, text: "too early" })).rejects.toMatchObject({
        code: "SS_STORE_UNKNOWN_CONVERSATION",
      });
      await store.recordInbound(inbound({ wamid: "wamid.1" }));
      // A note naming another tenant for this conversation is refused just the same.
      await expect(
        store.console.addNote({ ...note, tenantId: "beta", text: "wrong tenant" }),
      ).rejects.toMatchObject({ code: "SS_STORE_UNKNOWN_CONVERSATION" });
      const first = await store.console.addNote({ ...note, text: "customer says the transfer failed" });
      expect(first).toEqual({ ...note, text: "customer says the transfer failed", id: expect.any(String) });
      const second = await store.console.addNote({
        ...note,
        operatorId: "op-bola",
        text: "escalated",
        at: T0 + 1,
      });
      const third = await store.console.addNote({ ...note, text: "same ms", at: T0 + 1 });
      expect(new Set([first.id, second.id, third.id]).size).toBe(3);
      expect((await store.console.notesOf(conversation, 10)).map((n) => [n.operatorId, n.text])).toEqual([
        ["op-ada", "same ms"],
        ["op-bola", "escalated"],
        ["op-ada", "customer says the transfer failed"],
      ]);
      expect(await store.console.notesOf(conversation, 1)).toEqual([third]);
      expect(await store.console.notesOf(key("acme", "someone-else"), 10)).toEqual([]);
      // Notes are never messages.
      expect((await store.messagesOf(conversation, { limit: 10 })).items).toHaveLength(1);
    });

    it("counts the dashboard's activity per bucket, empty buckets included, within the tenants", async () => {
      const HOUR = 3_600_000;
      const start = Math.floor(T0 / HOUR) * HOUR;
      const store = await open({ now: () => start + 3 * HOUR + 5 });
      const conversation = key("acme", "2348012345678");
      // Bucket 0: two customer messages, a bot reply and an operator's, one local turn, one agent turn.
      await store.recordInbound(inbound({ wamid: "wamid.1", receivedAt: start + 1 }));
      await store.recordInbound(inbound({ wamid: "wamid.2", receivedAt: start + 2 * MINUTE }));
      await store.recordOutbound(
        outbound({ turnId: "turn-1", queuedAt: start + 3 * MINUTE, wamid: "wamid.o1" }),
      );
      await store.recordOutbound(
        outbound({ turnId: "console-1", queuedAt: start + 4 * MINUTE, sentBy: "op-ada", wamid: "wamid.o2" }),
      );
      const decision = { intent: "greeting", confidence: 1, resolved: true, tier: "rule" };
      await store.recordTurn({
        turnId: "turn-1",
        tenantId: "acme",
        conversationKey: conversation,
        decision,
        at: start,
      });
      await store.recordTurn({
        turnId: "turn-2",
        tenantId: "acme",
        conversationKey: conversation,
        decision: { ...decision, resolved: false, tier: "agent" },
        agent: { outcome: "answered", promptTokens: 800, completionTokens: 60, costUsd: 0.25, tools: [] },
        at: start + 5 * MINUTE,
      });
      // Bucket 1: nothing. Bucket 2: a failed delivery and another agent turn. Bucket 3: a message.
      await store.updateDelivery("acme", "wamid.o1", "sent", start + 10 * MINUTE);
      await store.updateDelivery("acme", "wamid.o1", "failed", start + 2 * HOUR + 1, {
        code: 131047,
        title: "x",
      });
      await store.recordTurn({
        turnId: "turn-3",
        tenantId: "acme",
        conversationKey: conversation,
        decision: { ...decision, resolved: false, tier: "agent" },
        agent: { outcome: "answered", promptTokens: 200, completionTokens: 40, costUsd: 0.5, tools: [] },
        at: start + 2 * HOUR + 2,
      });
      await store.recordInbound(inbound({ wamid: "wamid.3", receivedAt: start + 3 * HOUR }));
      // Before the window, and another tenant's: not counted.
      await store.recordInbound(inbound({ wamid: "wamid.before", receivedAt: start - 1 }));
      await store.recordInbound(customerWrote("beta", "b1", start + 1));

      const zero = {
        inbound: 0,
        outbound: 0,
        operatorMessages: 0,
        turns: 0,
        localTurns: 0,
        agentTurns: 0,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
        failedDeliveries: 0,
      };
      const buckets = await store.console.activity(["acme"], start + 17, HOUR);
      expect(buckets.map((b) => ({ ...b, costUsd: Math.round(b.costUsd * 1e6) / 1e6 }))).toEqual([
        {
          ...zero,
          at: start,
          inbound: 2,
          outbound: 2,
          operatorMessages: 1,
          turns: 2,
          localTurns: 1,
          agentTurns: 1,
          promptTokens: 800,
          completionTokens: 60,
          costUsd: 0.25,
        },
        { ...zero, at: start + HOUR },
        {
          ...zero,
          at: start + 2 * HOUR,
          turns: 1,
          agentTurns: 1,
          promptTokens: 200,
          completionTokens: 40,
          costUsd: 0.5,
          failedDeliveries: 1,
        },
        { ...zero, at: start + 3 * HOUR, inbound: 1 },
      ]);
      const both = await store.console.activity(["acme", "beta"], start, HOUR);
      expect(both[0]?.inbound).toBe(3);
      expect(await store.console.activity(["acme"], start + 4 * HOUR, HOUR)).toEqual([]);
      await expect(store.console.activity(["acme"], start, 0)).rejects.toMatchObject({
        code: "SS_STORE_INVALID_QUERY",
      });
      await expect(store.console.activity(["acme"], start, 1.5)).rejects.toMatchObject({
        code: "SS_STORE_INVALID_QUERY",
      });
      await expect(store.console.activity(["acme"], 0, 1_000)).rejects.toMatchObject({
        code: "SS_STORE_INVALID_QUERY",
      });
    });

    it("counts failed deliveries by Meta's error code, most frequent first", async () => {
      const store = await open();
      const fail = async (tenant: string, wamid: string, at: number, code: number, title: string) => {
        await store.updateDelivery(tenant, wamid, "sent", at - 1);
        await store.updateDelivery(tenant, wamid, "failed", at, { code, title });
      };
      await fail("acme", "w1", T0, 131047, "Re-engagement message");
      await fail("acme", "w2", T0 + 1, 131026, "Message undeliverable");
      await fail("acme", "w3", T0 + 2, 131026, "Message undeliverable");
      await fail("acme", "w4", T0 + 3, 130429, "Rate limit hit");
      await fail("acme", "w5", T0 - MINUTE, 130429, "Rate limit hit");
      await fail("beta", "w6", T0, 131047, "Re-engagement message");
      await store.updateDelivery("acme", "w7", "delivered", T0);
      expect(await store.console.deliveryFailures(["acme"], T0)).toEqual([
        { code: 131026, title: "Message undeliverable", count: 2 },
        { code: 130429, title: "Rate limit hit", count: 1 },
        { code: 131047, title: "Re-engagement message", count: 1 },
      ]);
      expect(await store.console.deliveryFailures(["acme", "beta"], T0 - MINUTE)).toEqual([
        { code: 130429, title: "Rate limit hit", count: 2 },
        { code: 131026, title: "Message undeliverable", count: 2 },
        { code: 131047, title: "Re-engagement message", count: 2 },
      ]);
      expect(await store.console.deliveryFailures(["acme"], T0 + MINUTE)).toEqual([]);
    });

    it("counts the handoff queue: human conversations whose customer waits, and the longest wait", async () => {
      const store = await open();
      expect(await store.console.handoffQueue(["acme"])).toEqual({ waiting: 0 });
      for (const [i, customer] of ["h1", "h2", "h3", "b1"].entries()) {
        await store.recordInbound(customerWrote("acme", customer, T0 + i * MINUTE));
        if (customer !== "b1") await store.setConversationState(key("acme", customer), { mode: "human" });
      }
      // h1 was answered (by an operator); h2 and h3 wait; b1 waits on the bot, not a human.
      await store.recordOutbound(
        outbound({ turnId: "console-1", conversationKey: key("acme", "h1"), queuedAt: T0 + 10 * MINUTE }),
      );
      await store.recordInbound(customerWrote("beta", "x", T0 - MINUTE));
      await store.setConversationState(key("beta", "x"), { mode: "human" });
      expect(await store.console.handoffQueue(["acme"])).toEqual({
        waiting: 2,
        oldestWaitingSince: T0 + MINUTE,
      });
      expect(await store.console.handoffQueue(["acme", "beta"])).toEqual({
        waiting: 3,
        oldestWaitingSince: T0 - MINUTE,
      });
    });

    it("tells when the newest customer message of some tenants arrived", async () => {
      const store = await open();
      expect(await store.console.lastInboundAt(["acme"])).toBeUndefined();
      await store.recordInbound(customerWrote("acme", "c1", T0));
      await store.recordInbound(customerWrote("acme", "c2", T0 - MINUTE));
      await store.recordOutbound(outbound({ turnId: "turn-1", queuedAt: T0 + MINUTE }));
      await store.recordInbound(customerWrote("beta", "b1", T0 + 5 * MINUTE));
      expect(await store.console.lastInboundAt(["acme"])).toBe(T0);
      expect(await store.console.lastInboundAt(["acme", "beta", "nobody"])).toBe(T0 + 5 * MINUTE);
      expect(await store.console.lastInboundAt(["nobody"])).toBeUndefined();
    });
  });
}
