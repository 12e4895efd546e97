import { beforeEach, describe, expect, it } from "vitest";
import type { MessageStore } from "../../src/store/index.js";
import { describeConsoleQueriesContract } from "./console-queries.contract.js";
import { inbound, key, nextOf, type OpenMessageStore, outbound, T0 } from "./message-store-fixtures.js";
import { describeOperatorStoreContract } from "./operator-store.contract.js";

/**
 * The behaviour every `MessageStore` adapter must have (PostgreSQL and
 * SQLite). `open` gives a fresh, empty, migrated store per test. The
 * console's queries and the operator accounts have suites of their own,
 * run from here so that every adapter runner gets them.
 */
export function describeMessageStoreContract(name: string, open: OpenMessageStore): void {
  describe(`MessageStore contract: ${name}`, () => {
    let store: MessageStore;
    beforeEach(async () => {
      store = await open();
    });

    it("records an inbound message once per (tenant, wamid)", async () => {
      const message = inbound({ wamid: "wamid.in1", mediaId: "media-1", caption: "receipt", type: "image" });
      expect(await store.recordInbound(message)).toBe("recorded");
      expect(await store.recordInbound({ ...message, text: "changed" })).toBe("duplicate");
      // Another tenant may carry the same wamid.
      expect(
        await store.recordInbound({
          ...message,
          tenantId: "other",
          conversationKey: key("other", "2348012345678"),
        }),
      ).toBe("recorded");
      const page = await store.messagesOf(message.conversationKey, { limit: 10 });
      expect(page.items).toEqual([
        {
          direction: "inbound",
          tenantId: "acme",
          conversationKey: message.conversationKey,
          wamid: "wamid.in1",
          customerId: "2348012345678",
          type: "image",
          text: "hello",
          mediaId: "media-1",
          caption: "receipt",
          metaTimestamp: Math.floor(T0 / 1000),
          at: T0,
        },
      ]);
      expect(page.next).toBeUndefined();
    });

    it("keeps an inbound message's whole normalised content as JSON, and reads it back", async () => {
      const content = {
        type: "reaction",
        customer: { waId: "2348012345678", name: "Chinedu" },
        content: { message_id: "wamid.ours", emoji: "\ud83d\ude4f" },
        targetWamid: "wamid.ours",
        unanswerable: "reaction",
        nested: { items: [{ quantity: 2, item_price: 2500.5 }], flag: true, none: null },
      };
      await store.recordInbound(inbound({ wamid: "wamid.r1", type: "reaction", text: undefined, content }));
      await store.recordInbound(inbound({ wamid: "wamid.plain" }));
      const { items } = await store.messagesOf(key("acme", "2348012345678"), { limit: 10 });
      const byWamid = new Map(items.map((m) => [m.wamid, m]));
      expect(byWamid.get("wamid.r1")?.content).toEqual(content);
      expect(byWamid.get("wamid.plain")).not.toHaveProperty("content");
    });

    it("keeps what the worker read from a message's media beside it; the latest reading wins", async () => {
      const conversationKey = key("acme", "2348012345678");
      await store.recordInbound(
        inbound({ wamid: "wamid.voice", type: "audio", text: undefined, mediaId: "m-1" }),
      );
      const failed = {
        kind: "audio" as const,
        mediaId: "m-1",
        failure: { code: "SS_MEDIA_DOWNLOAD_FAILED", reason: "the download failed" },
      };
      const heard = {
        kind: "audio" as const,
        mediaId: "m-1",
        mimeType: "audio/ogg",
        size: 5120,
        sha256: "q1w2e3==",
        transcript: {
          text: "my money never drop",
          language: "en",
          provider: "primary",
          model: "whisper-1",
          costUsd: 0.0006,
        },
      };
      expect(await store.recordMediaReading("acme", conversationKey, "wamid.voice", failed)).toBe("applied");
      expect(await store.recordMediaReading("acme", conversationKey, "wamid.voice", heard)).toBe("applied");
      // Another tenant's message of the same wamid is not this one.
      expect(await store.recordMediaReading("other", key("other", "1"), "wamid.voice", heard)).toBe(
        "unknown_message",
      );
      expect(await store.recordMediaReading("acme", conversationKey, "wamid.none", heard)).toBe(
        "unknown_message",
      );
      const { items } = await store.messagesOf(conversationKey, { limit: 10 });
      expect(items.find((m) => m.wamid === "wamid.voice")?.reading).toEqual(heard);
    });

    it("records an outbound part once per (turnId, part) and fills in its wamid later", async () => {
      await store.recordInbound(inbound({ wamid: "wamid.in1" }));
      const reply = outbound({ turnId: "turn-1" });
      expect(await store.recordOutbound(reply)).toBe("recorded");
      expect(await store.recordOutbound(reply)).toBe("duplicate");
      expect(await store.recordOutbound({ ...reply, wamid: "wamid.out1" })).toBe("duplicate");
      expect(await store.recordOutbound({ ...reply, part: 1, text: "second" })).toBe("recorded");
      const { items } = await store.messagesOf(reply.conversationKey, { limit: 10 });
      // Same queue time: the part recorded later is the newer.
      expect(items.map((m) => [m.direction, m.turnId, m.part, m.wamid])).toEqual([
        ["outbound", "turn-1", 1, undefined],
        ["outbound", "turn-1", 0, "wamid.out1"],
        ["inbound", undefined, undefined, "wamid.in1"],
      ]);
      expect(items[1]?.body).toEqual({ type: "text", text: { body: "welcome" } });
    });

    it("moves delivery status forward only; failed keeps Meta's error and is final", async () => {
      await store.recordOutbound(outbound({ turnId: "turn-1", wamid: "wamid.a" }));
      await store.recordOutbound(outbound({ turnId: "turn-1", part: 1, wamid: "wamid.b" }));
      expect(await store.updateDelivery("acme", "wamid.a", "read", T0 + 3_000)).toBe("applied");
      expect(await store.updateDelivery("acme", "wamid.a", "delivered", T0 + 2_000)).toBe("stale_ignored");
      expect(
        await store.updateDelivery("acme", "wamid.a", "failed", T0 + 4_000, { code: 1, title: "x" }),
      ).toBe("stale_ignored");
      expect(await store.updateDelivery("acme", "wamid.b", "sent", T0 + 2_000)).toBe("applied");
      const error = { code: 131047, title: "Re-engagement message" };
      expect(await store.updateDelivery("acme", "wamid.b", "failed", T0 + 3_000, error)).toBe("applied");
      expect(await store.updateDelivery("acme", "wamid.b", "delivered", T0 + 4_000)).toBe("stale_ignored");
      // `deleted` (an older sender's status: the customer deleted it) comes after every other step.
      await store.recordOutbound(outbound({ turnId: "turn-1", part: 2, wamid: "wamid.c" }));
      expect(await store.updateDelivery("acme", "wamid.c", "read", T0 + 2_000)).toBe("applied");
      expect(await store.updateDelivery("acme", "wamid.c", "deleted", T0 + 3_000)).toBe("applied");
      expect(await store.updateDelivery("acme", "wamid.c", "played", T0 + 4_000)).toBe("stale_ignored");
      // A status for another tenant's message with the same wamid changes nothing here.
      await store.updateDelivery("other", "wamid.a", "sent", T0 + 5_000);
      const { items } = await store.messagesOf(key("acme", "2348012345678"), { limit: 10 });
      const byWamid = new Map(items.map((m) => [m.wamid, m.delivery]));
      expect(byWamid.get("wamid.a")).toEqual({ status: "read", at: T0 + 3_000 });
      expect(byWamid.get("wamid.c")).toEqual({ status: "deleted", at: T0 + 3_000 });
      expect(byWamid.get("wamid.b")).toEqual({
        status: "failed",
        at: T0 + 3_000,
        errorCode: 131047,
        errorTitle: "Re-engagement message",
      });
    });

    it("keeps a status that arrives before its message is recorded with a wamid", async () => {
      expect(await store.updateDelivery("acme", "wamid.early", "delivered", T0 + 2_000)).toBe("applied");
      await store.recordOutbound(outbound({ turnId: "turn-1", wamid: "wamid.early" }));
      const { items } = await store.messagesOf(key("acme", "2348012345678"), { limit: 1 });
      expect(items[0]?.delivery).toEqual({ status: "delivered", at: T0 + 2_000 });
    });

    it("lists conversations by last activity, pages with `before`, shows the latest preview and state", async () => {
      for (let i = 0; i < 5; i += 1) {
        await store.recordInbound(
          inbound({
            wamid: `wamid.c${i}`,
            customerId: `23480000000${i}`,
            conversationKey: key("acme", `23480000000${i}`),
            receivedAt: T0 + i * 1_000,
            text: `message ${i}`,
          }),
        );
      }
      // Conversation 1 gets a reply later than everything else: it moves to the top, with the reply as preview.
      await store.recordOutbound(
        outbound({
          turnId: "turn-c1",
          conversationKey: key("acme", "234800000001"),
          queuedAt: T0 + 10_000,
          text: "x".repeat(300),
        }),
      );
      await store.setConversationState(key("acme", "234800000001"), { mode: "human", assignedAgent: "ada" });
      // An older message arriving late moves nothing.
      await store.recordInbound(
        inbound({
          wamid: "wamid.late",
          customerId: "234800000004",
          conversationKey: key("acme", "234800000004"),
          receivedAt: T0 - 60_000,
        }),
      );
      await store.recordInbound(
        inbound({ wamid: "wamid.o", tenantId: "other", conversationKey: key("other", "1") }),
      );

      const first = await store.listConversations("acme", { limit: 2 });
      expect(first.items.map((c) => c.customerId)).toEqual(["234800000001", "234800000004"]);
      expect(first.items[0]).toMatchObject({
        phoneNumberId: "106540352242922",
        mode: "human",
        assignedAgent: "ada",
        lastActivityAt: T0 + 10_000,
        lastInboundAt: T0 + 1_000,
        unread: true,
        lastMessage: { direction: "outbound", type: "text", at: T0 + 10_000 },
      });
      // Answered: nobody waits; conversation 4's customer does, since their first message.
      expect(first.items[0]).not.toHaveProperty("awaitingReplySince");
      expect(first.items[1]).toMatchObject({ awaitingReplySince: T0 - 60_000, lastInboundAt: T0 + 4_000 });
      expect(first.items[0]?.lastMessage?.preview).toHaveLength(120);
      expect(first.items[1]).toMatchObject({
        mode: "bot",
        lastMessage: { preview: "message 4", at: T0 + 4_000 },
      });
      expect(first.items[1]?.assignedAgent).toBeUndefined();
      const second = await store.listConversations("acme", { limit: 2, before: nextOf(first) });
      expect(second.items.map((c) => c.customerId)).toEqual(["234800000003", "234800000002"]);
      const third = await store.listConversations("acme", { limit: 2, before: nextOf(second) });
      expect(third.items.map((c) => c.customerId)).toEqual(["234800000000"]);
      expect(third.next).toBeUndefined();
    });

    it("refuses state for an unknown conversation and a forged cursor", async () => {
      await expect(store.setConversationState("acme:1:nobody", { mode: "human" })).rejects.toMatchObject({
        code: "SS_STORE_UNKNOWN_CONVERSATION",
      });
      await expect(store.listConversations("acme", { limit: 2, before: "nonsense" })).rejects.toMatchObject({
        code: "SS_STORE_INVALID_CURSOR",
      });
      await expect(store.messagesOf("acme:1:x", { limit: 0 })).rejects.toMatchObject({
        code: "SS_STORE_INVALID_CURSOR",
      });
    });

    it("pages a conversation newest first across inbound and outbound, ties included", async () => {
      const conversation = key("acme", "2348012345678");
      // Same millisecond for several rows: paging must neither skip nor repeat them.
      for (let i = 0; i < 4; i += 1)
        await store.recordInbound(inbound({ wamid: `wamid.m${i}`, receivedAt: T0 + 1_000, text: `in ${i}` }));
      for (let i = 0; i < 3; i += 1)
        await store.recordOutbound(
          outbound({ turnId: "turn-m", part: i, queuedAt: T0 + 2_000 + i, text: `out ${i}` }),
        );
      await store.recordInbound(inbound({ wamid: "wamid.first", receivedAt: T0, text: "first" }));
      const seen: string[] = [];
      let before: string | undefined;
      do {
        const page = await store.messagesOf(
          conversation,
          before === undefined ? { limit: 3 } : { limit: 3, before },
        );
        seen.push(...page.items.map((m) => m.text ?? ""));
        before = page.next;
      } while (before !== undefined);
      expect(seen).toEqual(["out 2", "out 1", "out 0", "in 3", "in 2", "in 1", "in 0", "first"]);
    });

    it("finds conversations by customer id prefix, within the tenant, with no wildcards", async () => {
      const customers = ["2348012345678", "2348019999999", "2347011111111", "NG.3318264059917364520"];
      for (const [i, customer] of customers.entries()) {
        await store.recordInbound(
          inbound({
            wamid: `wamid.s${i}`,
            customerId: customer,
            conversationKey: key("acme", customer),
            receivedAt: T0 + i,
          }),
        );
      }
      await store.recordInbound(
        inbound({
          wamid: "wamid.x",
          tenantId: "other",
          customerId: "2348012345678",
          conversationKey: key("other", "2348012345678"),
        }),
      );
      const found = await store.searchByCustomer("acme", "234801", 10);
      expect(found.map((c) => c.customerId)).toEqual(["2348019999999", "2348012345678"]);
      expect(found[0]).toMatchObject({ tenantId: "acme", phoneNumberId: "106540352242922", unread: true });
      expect((await store.searchByCustomer("acme", "NG.", 10)).map((c) => c.customerId)).toEqual([
        "NG.3318264059917364520",
      ]);
      expect(await store.searchByCustomer("acme", "%", 10)).toEqual([]);
      // Neither another adapter's wildcards nor case folding widen the match.
      for (const prefix of ["*", "?", "[0-9]", "_", "ng."])
        expect(await store.searchByCustomer("acme", prefix, 10)).toEqual([]);
      expect(await store.searchByCustomer("acme", "234", 1)).toHaveLength(1);
    });

    it("keeps the operator who wrote a reply, and none for the bot's", async () => {
      await store.recordInbound(inbound({ wamid: "wamid.in1" }));
      await store.recordOutbound(outbound({ turnId: "console-1", sentBy: "op-ada", text: "Ada here" }));
      await store.recordOutbound(outbound({ turnId: "turn-2", queuedAt: T0 + 2_000 }));
      // A repeat cannot change who wrote it.
      await store.recordOutbound(outbound({ turnId: "console-1", sentBy: "op-bola", wamid: "wamid.out1" }));
      const { items } = await store.messagesOf(key("acme", "2348012345678"), { limit: 10 });
      expect(items.map((m) => [m.turnId ?? m.wamid, m.sentBy])).toEqual([
        ["turn-2", undefined],
        ["console-1", "op-ada"],
        ["wamid.in1", undefined],
      ]);
      expect(items[0]).not.toHaveProperty("sentBy");
      expect(items[1]).toMatchObject({ wamid: "wamid.out1", text: "Ada here" });
    });

    it("records a turn once, with its decision and agent usage", async () => {
      const turn = {
        turnId: "turn-t",
        tenantId: "acme",
        conversationKey: key("acme", "2348012345678"),
        decision: { intent: "failed_transfer", confidence: 0.42, resolved: false, tier: "agent" },
        agent: {
          outcome: "answered",
          promptTokens: 812,
          completionTokens: 64,
          costUsd: 0.0012,
          tools: ["get_transfer"],
        },
        at: T0,
      };
      expect(await store.recordTurn(turn)).toBe("recorded");
      expect(await store.recordTurn(turn)).toBe("duplicate");
      expect(await store.recordTurn({ ...turn, turnId: "turn-r", agent: undefined })).toBe("recorded");
    });

    it("purges only the tenant's rows older than the cutoff and counts them", async () => {
      const old = T0 - 100 * 86_400_000;
      const oldKey = key("acme", "111");
      await store.recordInbound(
        inbound({ wamid: "wamid.old", customerId: "111", conversationKey: oldKey, receivedAt: old }),
      );
      await store.recordOutbound(
        outbound({ turnId: "turn-old", conversationKey: oldKey, queuedAt: old + 1, wamid: "wamid.oldout" }),
      );
      await store.updateDelivery("acme", "wamid.oldout", "read", old + 2);
      await store.recordTurn({
        turnId: "turn-old",
        tenantId: "acme",
        conversationKey: oldKey,
        decision: { intent: "greeting", confidence: 1, resolved: true, tier: "rules" },
        at: old + 1,
      });
      // A live conversation with one old message and one recent.
      await store.recordInbound(inbound({ wamid: "wamid.liveold", receivedAt: old }));
      await store.recordInbound(inbound({ wamid: "wamid.live", receivedAt: T0 }));
      // Another tenant's old rows stay.
      await store.recordInbound(
        inbound({
          wamid: "wamid.other",
          tenantId: "other",
          conversationKey: key("other", "111"),
          receivedAt: old,
        }),
      );

      // Notes go with their conversation, however old the note; operators are never purged.
      await store.console.addNote({
        tenantId: "acme",
        conversationKey: oldKey,
        operatorId: "op-ada",
        text: "asked for a refund",
        at: old + 5,
      });
      await store.console.addNote({
        tenantId: "acme",
        conversationKey: key("acme", "2348012345678"),
        operatorId: "op-ada",
        text: "old note on a live conversation",
        at: old,
      });
      await store.operators.createOperator({
        id: "op-ada",
        email: "ada@example.com",
        name: "Ada",
        passwordHash: "scrypt$x",
        grants: [{ tenantId: "acme", role: "agent" }],
        createdAt: old,
      });

      const cutoff = T0 - 90 * 86_400_000;
      expect(await store.purgeOlderThan("acme", cutoff)).toEqual({
        messages: 3,
        deliveries: 1,
        turns: 1,
        conversations: 1,
      });
      expect(
        (await store.listConversations("acme", { limit: 10 })).items.map((c) => c.conversationKey),
      ).toEqual([key("acme", "2348012345678")]);
      expect(
        (await store.messagesOf(key("acme", "2348012345678"), { limit: 10 })).items.map((m) => m.wamid),
      ).toEqual(["wamid.live"]);
      expect((await store.listConversations("other", { limit: 10 })).items).toHaveLength(1);
      expect(await store.console.notesOf(oldKey, 10)).toEqual([]);
      expect((await store.console.notesOf(key("acme", "2348012345678"), 10)).map((n) => n.text)).toEqual([
        "old note on a live conversation",
      ]);
      expect((await store.operators.operatorById("op-ada"))?.email).toBe("ada@example.com");
      expect(await store.purgeOlderThan("acme", cutoff)).toEqual({
        messages: 0,
        deliveries: 0,
        turns: 0,
        conversations: 0,
      });
    });
  });

  describeConsoleQueriesContract(name, open);
  describeOperatorStoreContract(name, async () => (await open()).operators);
}
