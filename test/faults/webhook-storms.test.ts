import { afterEach, describe, expect, it } from "vitest";
import type { FakeMessageRecord } from "../../src/dev/index.js";
import { deliveryFigures, echoedId, printFigures } from "../support/fault-figures.js";
import { type RedisGateway, startRedisGateway } from "../support/fault-gateway.js";
import { AckLedger, type LoadMessage, loadMessages, redeliverUnacked } from "../support/fault-load.js";
import { TEST_REDIS_URL } from "../support/redis.js";

const COPIES = 3;

/** A seeded shuffle (mulberry32), so a failing order can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Each message's webhook posted COPIES times at once, the messages in shuffled order, `perSecond` messages a second. */
async function storm(
  g: RedisGateway,
  ledger: AckLedger,
  messages: readonly LoadMessage[],
  seed: number,
  perSecond: number,
) {
  const pending: Promise<unknown>[] = [];
  const start = Date.now();
  for (const [i, message] of shuffled(messages, seed).entries()) {
    const wait = start + (i * 1000) / perSecond - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (let copy = 0; copy < COPIES; copy += 1) pending.push(ledger.post(g.url, message));
  }
  await Promise.all(pending);
}

/** Per conversation of `messages`, the indexes its replies answer, in the order Meta received them. */
function replyOrders(replies: readonly FakeMessageRecord[], messages: readonly LoadMessage[]): number[][] {
  const ids = new Set(messages.map((m) => m.id));
  const sorted = [...replies].sort((a, b) => a.receivedAt - b.receivedAt);
  return [...new Set(messages.map((m) => m.from))].map((from) =>
    sorted
      .filter((r) => String(r.to).replace(/\D/g, "") === from && ids.has(echoedId(r) ?? ""))
      .map((r) => Number(/m(\d+)$/.exec(echoedId(r) ?? "")?.[1])),
  );
}

/** The replies to `messages` (their ids repeat across runs; their customers do not). */
function repliesTo(
  replies: readonly FakeMessageRecord[],
  messages: readonly LoadMessage[],
): FakeMessageRecord[] {
  const customers = new Set(messages.map((m) => m.from));
  return replies.filter((r) => customers.has(String(r.to).replace(/\D/g, "")));
}

const inOrder = (indexes: readonly number[]) =>
  indexes.every((n, i) => i === 0 || (indexes[i - 1] as number) < n);

/**
 * Scenario 7: duplicate and out-of-order storms. Meta redelivers and
 * reorders; each message must be answered once whatever arrives when.
 * Order is promised among messages waiting together: a conversation's
 * inbox is read in Meta-timestamp order and its replies are sent in turn
 * order (docs/guarantees.md). So the first storm lands while no worker
 * runs, and every conversation's replies must follow its timestamps; the
 * second lands on running workers, where a message that arrives after a
 * later one was already answered is answered after it (counted, not promised).
 */
describe("fault: duplicate and out-of-order webhook storms", () => {
  let gateway: RedisGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
  });

  it("answers each message once, in timestamp order where the messages waited together", async () => {
    gateway = await startRedisGateway({ label: "fault-storms", redisUrl: TEST_REDIS_URL, workers: 0 });
    const g = gateway;
    const waiting = loadMessages({
      run: "stormA",
      conversations: 60,
      perConversation: 5,
      customerBase: 2348160000000,
    });
    const waitingLedger = new AckLedger();
    await storm(g, waitingLedger, waiting, 7, 30);
    // What the storm did not get a 200 for (a 503 or a timeout on this busy machine), Meta redelivers.
    await redeliverUnacked({ ledger: waitingLedger, messages: waiting, baseUrl: () => g.url });
    const workersAt = Date.now();
    g.spawnWorker();
    g.spawnWorker();
    await Promise.all(g.workers.map((w) => w.ready(20_000)));
    const answeredAll = (messages: readonly LoadMessage[]) => () => {
      const ids = new Set(g.fake.fake.messages().map(echoedId));
      return messages.every((m) => ids.has(m.id));
    };
    const until = (check: () => boolean, ms: number) =>
      (async () => {
        const end = Date.now() + ms;
        while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 200));
      })();
    await until(answeredAll(waiting), 60_000);
    const waitingDrainedMs = Date.now() - workersAt;

    const live = loadMessages({
      run: "stormB",
      conversations: 100,
      perConversation: 3,
      customerBase: 2348170000000,
    });
    const liveLedger = new AckLedger();
    await storm(g, liveLedger, live, 11, 30);
    await redeliverUnacked({ ledger: liveLedger, messages: live, baseUrl: () => g.url });
    await until(answeredAll(live), 60_000);
    // Meta's late redelivery of everything: each a 200, none answered again.
    const lateLedger = new AckLedger();
    for (const batch of [waiting, live]) {
      for (let i = 0; i < batch.length; i += 50) {
        await Promise.all(batch.slice(i, i + 50).map((m) => lateLedger.post(g.url, m)));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const replies = g.fake.fake.messages();
    const waitingFigures = deliveryFigures({
      messages: waiting,
      ledger: waitingLedger,
      replies: repliesTo(replies, waiting),
      replyOf: echoedId,
    });
    const liveFigures = deliveryFigures({
      messages: live,
      ledger: liveLedger,
      replies: repliesTo(replies, live),
      replyOf: echoedId,
    });
    const waitingOrder = replyOrders(replies, waiting);
    const liveOrder = replyOrders(replies, live);
    printFigures("storm-waiting", {
      ...waitingFigures,
      postsPerMessage: COPIES,
      drainedAfterWorkersStartMs: waitingDrainedMs,
      conversationsOutOfOrder: waitingOrder.filter((o) => !inOrder(o)).length,
    });
    printFigures("storm-live", {
      ...liveFigures,
      postsPerMessage: COPIES,
      conversationsAnsweredOutOfTimestampOrder: liveOrder.filter((o) => !inOrder(o)).length,
      lateRedeliveries: lateLedger.results(),
    });
    for (const figures of [waitingFigures, liveFigures]) {
      expect(figures.lost, g.logs().slice(-4000)).toEqual([]);
      expect(figures.duplicated).toEqual([]);
      expect(figures.answered).toBe(figures.sent);
      expect(figures.acknowledged).toBe(figures.sent);
    }
    expect(waitingOrder.filter((o) => !inOrder(o))).toEqual([]);
    expect(lateLedger.results()).toEqual({ "200": waiting.length + live.length });
    expect(replies).toHaveLength(waiting.length + live.length);
  });
});
