import { afterEach, describe, expect, it } from "vitest";
import { byCustomer, deliveryFigures, printFigures, replyText } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveLoadThroughFault, loadMessages } from "../support/fault-load.js";
import { TEST_REDIS_URL } from "../support/redis.js";

const HANG_MS = 10_000;

/**
 * Scenario 5: the LLM stops answering for 10 s mid-load (the fake holds
 * every request). Each call gives up after LLM_TIMEOUT_MS and the turn
 * ends with the tenant's fallback (or, past AGENT_DEADLINE_MS, holding)
 * reply: one reply per message, never a late second one after the hang.
 */
describe("fault: the LLM hangs for 10 s mid-load", () => {
  let gateway: RedisGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
  });

  it("answers each message once: the model's answer, or the fallback while it hangs", async () => {
    gateway = await startRedisGateway({
      label: "fault-llm-hang",
      redisUrl: TEST_REDIS_URL,
      workers: 2,
      env: { LLM_TIMEOUT_MS: "2000", AGENT_DEADLINE_MS: "5000" },
    });
    const g = gateway;
    // One message per conversation: a fallback reply does not quote the message, its customer names it.
    const messages = loadMessages({
      run: "llm",
      conversations: 300,
      perConversation: 1,
      customerBase: 2348140000000,
    });
    const replyOf = byCustomer(messages);
    const answered = () => new Set(g.fake.fake.messages().map(replyOf)).size >= messages.length;
    const run = await driveLoadThroughFault({
      messages,
      ratePerSecond: 20,
      baseUrl: () => g.url,
      faultAfterMs: 3000,
      fault: async () => {
        g.llm.setFaults({ hang: true });
        await new Promise((resolve) => setTimeout(resolve, HANG_MS));
        g.llm.setFaults({ hang: false });
      },
      answered,
      settleMs: 6000,
    });
    const replies = g.fake.fake.messages();
    const figures = deliveryFigures({ messages, ledger: run.ledger, replies, replyOf });
    const echoed = replies.filter((m) => replyText(m).startsWith("Echo:")).length;
    const holding = replies.filter((m) => replyText(m).includes("I dey check am")).length;
    const calls = g.llm.requests();
    printFigures("llm-hang", {
      ...figures,
      hangMs: run.faultEndedAt - run.faultStartedAt,
      llmCalls: calls.length,
      llmCallsHeld: calls.filter((c) => c.outcome !== "answered").length,
      repliesEchoed: echoed,
      repliesHolding: holding,
      repliesFallback: replies.length - echoed - holding,
      firstEchoAfterHangMs:
        Math.min(
          ...replies
            .filter((m) => replyText(m).startsWith("Echo:") && m.receivedAt >= run.faultEndedAt)
            .map((m) => m.receivedAt),
        ) - run.faultEndedAt,
    });
    expect(run.unacked).toBe(0);
    expect(replies.length - echoed).toBeGreaterThan(50);
    expect(echoed).toBeGreaterThan(50);
    expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
    expect(figures.duplicated).toEqual([]);
    expect(figures.unmatched).toBe(0);
    expect(figures.answered).toBe(messages.length);
  });
});
