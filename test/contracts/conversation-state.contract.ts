import { beforeEach, describe, expect, it } from "vitest";
import type { ConversationStateStore, HistoryEntry } from "../../src/conversation/index.js";
import { sleep } from "../support/contract-backends.js";

export interface ConversationStateContractOptions {
  readonly maxEntries?: number;
  readonly ttlMs?: number;
}

const entry = (n: number, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  at: 1_767_000_000_000 + n,
  from: n % 2 === 0 ? "customer" : "bot",
  type: "text",
  text: `message ${n}`,
  ...over,
});

/**
 * The behaviour every ConversationStateStore adapter must have. `open` gives
 * a fresh, empty store per call. Expiry runs on the real clock (Redis's), with short TTLs.
 */
export function describeConversationStateContract(
  name: string,
  open: (options?: ConversationStateContractOptions) => Promise<ConversationStateStore>,
): void {
  describe(`ConversationStateStore contract: ${name}`, () => {
    const key = "shop:106540352242922:2348012345678";
    let store: ConversationStateStore;
    beforeEach(async () => {
      store = await open();
    });

    it("starts empty, in bot mode", async () => {
      expect(await store.recent(key)).toEqual([]);
      expect(await store.mode(key)).toBe("bot");
    });

    it("answers the newest entries oldest first, whole, and `limit` of them on request", async () => {
      const agent = {
        outcome: "answered",
        promptTokens: 10,
        completionTokens: 5,
        costUsd: 0.001,
        llmCalls: 1,
        tools: ["kb"],
      };
      await store.append(key, [entry(1), entry(2, { wamid: "wamid.2" })]);
      await store.append(key, []);
      await store.append(key, [entry(3, { type: "agent_turn", agent })]);
      expect(await store.recent(key)).toEqual([
        entry(1),
        entry(2, { wamid: "wamid.2" }),
        entry(3, { type: "agent_turn", agent }),
      ]);
      expect((await store.recent(key, 2)).map((e) => e.text)).toEqual(["message 2", "message 3"]);
      expect((await store.recent(key, 0)).map((e) => e.text)).toEqual(["message 3"]);
      expect(await store.recent("shop:106540352242922:2348099999999")).toEqual([]);
    });

    it("keeps the last maxEntries, across appends and within one", async () => {
      const small = await open({ maxEntries: 3 });
      await small.append(key, [entry(1), entry(2)]);
      await small.append(key, [entry(3), entry(4)]);
      expect((await small.recent(key)).map((e) => e.at % 100)).toEqual([2, 3, 4]);
      await small.append(
        key,
        [5, 6, 7, 8, 9].map((n) => entry(n)),
      );
      expect((await small.recent(key, 10)).map((e) => e.at % 100)).toEqual([7, 8, 9]);
    });

    it("sets the mode and the priority per conversation; a later mode replaces an earlier one", async () => {
      await store.setMode(key, "human");
      await store.markPriority(key, Date.now() + 60_000);
      expect(await store.mode(key)).toBe("human");
      await store.setMode(key, "paused");
      expect(await store.mode(key)).toBe("paused");
      expect(await store.mode("shop:106540352242922:2348099999999")).toBe("bot");
      expect(await store.recent(key)).toEqual([]);
    });

    it("forgets history ttlMs after the last append, and state ttlMs after its last write or append", async () => {
      const short = await open({ ttlMs: 300 });
      const other = `${key}-other`;
      await short.append(key, [entry(1)]);
      await short.setMode(key, "human");
      await short.setMode(other, "paused");
      await short.append(other, [entry(1)]);
      await sleep(180);
      await short.append(key, [entry(2)]);
      await short.setMode(other, "human");
      await sleep(180);
      // `key`: the append renewed history and state; `other`: setMode renewed only its state.
      expect((await short.recent(key)).map((e) => e.text)).toEqual(["message 1", "message 2"]);
      expect(await short.mode(key)).toBe("human");
      expect(await short.recent(other)).toEqual([]);
      expect(await short.mode(other)).toBe("human");
      await sleep(180);
      expect(await short.recent(key)).toEqual([]);
      expect(await short.mode(key)).toBe("bot");
      await short.append(key, [entry(3)]);
      expect((await short.recent(key)).map((e) => e.text)).toEqual(["message 3"]);
    });
  });
}
