import { describe, expect, it } from "vitest";
import type { JournaledTurn, TurnJournal } from "../../src/conversation/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";

/** The behaviour every TurnJournal adapter must have; `open` gives a fresh, empty journal. */
export function describeTurnJournalContract(name: string, open: () => Promise<TurnJournal>): void {
  describe(`TurnJournal contract: ${name}`, () => {
    const key = "shop:106540352242922:2348012345678";
    const message = (wamid: string, text: string): InboundMessage => ({
      tenantId: "shop",
      phoneNumberId: "106540352242922",
      wabaId: "waba",
      conversationKey: key,
      wamid,
      timestamp: 1_700_000_000,
      receivedAt: 1_700_000_000_500,
      type: "text",
      customer: { waId: "2348012345678", name: "Ada" },
      text,
    });
    const turn: JournaledTurn = {
      turnId: "turn-a",
      messages: [message("wamid.1", "I sharp sharp transfer ₦15k"), message("wamid.2", "wetin dey sup?")],
      startedAt: 1_700_000_001_000,
    };

    it("has no turn to resume until one is begun", async () => {
      const journal = await open();
      expect(await journal.resume(key)).toBeUndefined();
    });

    it("resumes a begun turn with its exact messages, counting each run", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      const first = await journal.resume(key);
      expect(first).toMatchObject({ turnId: "turn-a", messages: turn.messages, startedAt: turn.startedAt });
      expect(first?.attempts).toBe(2);
      expect(first?.steps.size).toBe(0);
      expect((await journal.resume(key))?.attempts).toBe(3);
      expect(await journal.resume(`${key}-other`)).toBeUndefined();
    });

    it("does not count a run that gave the turn back untried", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      await journal.release(key, "turn-a");
      await journal.release(key, "turn-b");
      expect((await journal.resume(key))?.attempts).toBe(1);
      await journal.release(key, "turn-a");
      await journal.release(key, "turn-a");
      expect((await journal.resume(key))?.attempts).toBe(1);
    });

    it("replays recorded steps as JSON values, for the turn that recorded them only", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      await journal.record(key, "turn-a", "llm:0", {
        content: null,
        toolCalls: [{ id: "c1", name: "refund" }],
      });
      await journal.record(key, "turn-a", "tool:0:0", { ok: true, text: "refund R-1 started" });
      await journal.record(key, "turn-a", "empty", undefined);
      await journal.record(key, "turn-b", "llm:0", { content: "not mine" });
      const resumed = await journal.resume(key);
      expect(Object.fromEntries(resumed?.steps ?? [])).toEqual({
        "llm:0": { content: null, toolCalls: [{ id: "c1", name: "refund" }] },
        "tool:0:0": { ok: true, text: "refund R-1 started" },
        empty: null,
      });
    });

    it("begins afresh: a new turn of the conversation starts with no steps and one attempt", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      await journal.record(key, "turn-a", "replies", [{ text: "old" }]);
      await journal.begin(key, { ...turn, turnId: "turn-b", messages: turn.messages.slice(1) });
      const resumed = await journal.resume(key);
      expect(resumed?.turnId).toBe("turn-b");
      expect(resumed?.messages).toHaveLength(1);
      expect(resumed?.attempts).toBe(2);
      expect(resumed?.steps.size).toBe(0);
    });

    it("finishes the named turn only", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      await journal.finish(key, "turn-b");
      expect(await journal.resume(key)).toBeDefined();
      await journal.finish(key, "turn-a");
      expect(await journal.resume(key)).toBeUndefined();
      await journal.finish(key, "turn-a");
    });

    it("sets a turn aside: it ends, and stays listed newest first with its reason and attempts", async () => {
      const journal = await open();
      await journal.begin(key, turn);
      await journal.resume(key);
      await journal.setAside(key, "turn-a", "LLM said no");
      expect(await journal.resume(key)).toBeUndefined();
      await journal.begin(`${key}-2`, { ...turn, turnId: "turn-c" });
      await journal.setAside(`${key}-2`, "turn-c", "tool exploded");
      await journal.setAside(`${key}-2`, "turn-c", "twice");
      const listed = await journal.setAsideTurns(10);
      expect(listed.map((entry) => [entry.turnId, entry.reason, entry.attempts])).toEqual([
        ["turn-c", "tool exploded", 1],
        ["turn-a", "LLM said no", 2],
      ]);
      expect(listed[1]).toMatchObject({ conversationKey: key, messages: turn.messages });
      expect(listed[1]?.setAsideAt).toEqual(expect.any(Number));
      expect(await journal.setAsideTurns(1)).toHaveLength(1);
    });
  });
}
