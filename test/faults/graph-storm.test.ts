import { afterEach, describe, expect, it } from "vitest";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { driveLoadThroughFault, loadMessages } from "../support/fault-load.js";
import { TEST_REDIS_URL } from "../support/redis.js";

const STORM_MS = 10_000;

/**
 * Scenario 4: a Graph API storm for 10 s mid-load: every send to 30 of the
 * customers answered 130429 (throughput limit hit), 40% of the other sends
 * answered 500 (131000). The
 * sender retries the first with backoff and waits out the second; a
 * refused send is not a message, so each reply must reach Meta exactly once.
 */
describe("fault: Graph API 5xx and 130429 storm", () => {
  let gateway: RedisGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
  });

  it("sends every reply exactly once once the storm is over", async () => {
    gateway = await startRedisGateway({ label: "fault-graph-storm", redisUrl: TEST_REDIS_URL, workers: 2 });
    const g = gateway;
    const messages = loadMessages({
      run: "storm",
      conversations: 150,
      perConversation: 2,
      customerBase: 2348130000000,
    });
    const answered = () => new Set(g.fake.fake.messages().map(echoedId)).size >= messages.length;
    const run = await driveLoadThroughFault({
      messages,
      ratePerSecond: 20,
      baseUrl: () => g.url,
      faultAfterMs: 3000,
      fault: async () => {
        // Sends to 30 of the customers answered 130429 for the whole storm, 40% of the others 500.
        const throttled = messages.filter((m) => m.conversation < 30 && m.index === 0).map((m) => m.from);
        g.fake.fake.setFaults({ errorRate: 0.4, forcedErrors: [{ code: 130429, recipients: throttled }] });
        await new Promise((resolve) => setTimeout(resolve, STORM_MS));
        g.fake.fake.setFaults({ reset: true });
      },
      answered,
      answerTimeoutMs: 90_000,
    });
    const replies = g.fake.fake.messages();
    const figures = deliveryFigures({ messages, ledger: run.ledger, replies, replyOf: echoedId });
    const sends = g.fake.fake.requests().filter((r) => r.kind === "send");
    const refused = (code: number) =>
      sends.filter((r) => r.outcome === "rejected" && r.errorCode === code).length;
    const lastReply = Math.max(...replies.map((m) => m.receivedAt));
    printFigures("graph-storm", {
      ...figures,
      stormMs: run.faultEndedAt - run.faultStartedAt,
      sendAttempts: sends.length,
      refused500: refused(131000),
      refused130429: refused(130429),
      lastReplyAfterStormMs: lastReply - run.faultEndedAt,
      givenUp: g.logs().match(/outbound reply given up/g)?.length ?? 0,
    });
    expect(run.unacked).toBe(0);
    expect(refused(131000)).toBeGreaterThan(20);
    expect(refused(130429)).toBeGreaterThan(0);
    expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
    expect(figures.duplicated).toEqual([]);
    expect(figures.unmatched).toBe(0);
    expect(figures.answered).toBe(messages.length);
  });
});
