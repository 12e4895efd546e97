import { afterEach, describe, expect, it } from "vitest";
import { createFirstResponder, createTurnProcessor } from "../src/conversation/index.js";
import { createLogger } from "../src/observability/index.js";
import { eventually } from "./support/eventually.js";
import { PHONE_NUMBER_ID } from "./support/fake-graph.js";
import { skipWithoutRedis } from "./support/redis.js";
import { counterValue, createTurnHarness, type TurnHarness } from "./support/turn-harness.js";
import { textWebhook } from "./support/webhook-builder.js";

const CUSTOMER = "2348012345678";
const GREETING = "How far! Na Ada from Mama Put. Wetin I fit do for you?";
const settings = {
  replies: {
    greeting: { text: GREETING },
    thanks_goodbye: { text: "Thank you o!" },
    talk_to_human: { text: "I don call person for you." },
  },
  fallback: { text: "Abeg give me small time, I go get back to you." },
};
const OFF = { windowMs: 0, maxMs: 0 };
const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const texts = (h: TurnHarness) =>
  h.fake.fake.messages().map((m) => (m.body.text as { body: string } | undefined)?.body);

async function post(h: TurnHarness, wamid: string, text: string, timestamp = nowSeconds()) {
  const response = await h.ingress.post(textWebhook([[{ wamid, from: CUSTOMER, timestamp, text }]]));
  expect(response.statusCode).toBe(200);
}

describe.skipIf(skipWithoutRedis)("turn worker end to end (ingress, workers, fake Graph API)", () => {
  let h: TurnHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('answers "hi" exactly once with the configured text, to the customer, from the business number', async () => {
    h = await createTurnHarness("turn-hi", { coalesce: OFF, settings });
    h.startWorkers();
    await post(h, "wamid.hi.1", "hi");
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
    await sleep(400);
    const sent = h.fake.fake.messages();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: `+${CUSTOMER}`, phoneNumberId: PHONE_NUMBER_ID, type: "text" });
    expect(texts(h)).toEqual([GREETING]);
    expect(
      await h.ingress.admin.zcard(`${h.ingress.prefix}:inbox:default:${PHONE_NUMBER_ID}:${CUSTOMER}`),
    ).toBe(0);
  }, 10_000);

  it("coalesces three messages 200 ms apart into one turn and one reply", async () => {
    h = await createTurnHarness("turn-coalesce", { coalesce: { windowMs: 600, maxMs: 3000 }, settings });
    h.startWorkers();
    const t = nowSeconds();
    await post(h, "wamid.c.1", "Hello", t);
    await sleep(200);
    await post(h, "wamid.c.2", "my money never drop", t);
    await sleep(200);
    await post(h, "wamid.c.3", "abeg check am", t + 1);
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
    await sleep(800);
    expect(texts(h)).toEqual([settings.fallback.text]);
    expect(await counterValue(h.registry, "ss_turn_runs_total", { outcome: "handled" })).toBe(1);
    expect(await counterValue(h.registry, "ss_turn_messages", {})).toBeGreaterThan(0);
  }, 10_000);

  it("with coalescing off, runs three turns in Meta-timestamp order though the webhooks came in reverse", async () => {
    h = await createTurnHarness("turn-order", { coalesce: OFF, settings });
    const t = nowSeconds();
    await post(h, "wamid.o.3", "talk to a human", t + 2);
    await post(h, "wamid.o.2", "thank you", t + 1);
    await post(h, "wamid.o.1", "hi", t);
    h.startWorkers();
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 3, 8000);
    await sleep(300);
    expect(texts(h)).toEqual([GREETING, "Thank you o!", "I don call person for you."]);
  }, 12_000);

  it("gives a replay 3 h old the stale handling, not the fresh answer", async () => {
    h = await createTurnHarness("turn-stale", { coalesce: OFF, settings });
    h.startWorkers();
    await post(h, "wamid.s.1", "hi", nowSeconds() - 3 * 3600);
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
    await sleep(300);
    const [text] = texts(h);
    expect(text).not.toBe(GREETING);
    expect(text).toMatch(/late reply/);
    expect(await counterValue(h.registry, "ss_turn_stale_messages_total", {})).toBe(1);
  }, 10_000);

  it("queues one copy when a turn runs twice for the same messages", async () => {
    h = await createTurnHarness("turn-retry", { coalesce: OFF, settings });
    await post(h, "wamid.r.1", "hi");
    await post(h, "wamid.r.2", "thank you");
    const { inbox } = h.ingress.queues;
    let failNext = true;
    const processTurn = createTurnProcessor({
      // The first run dies after queuing its reply, before completing the inbox.
      inbox: {
        read: (key, limit) => inbox.read(key, limit),
        complete: async (key, wamids) => {
          if (failNext) {
            failNext = false;
            throw new Error("crash before complete");
          }
          await inbox.complete(key, wamids);
        },
      },
      outbound: h.outboundQueue,
      responder: createFirstResponder([h.tenant]),
      tenant: () => (h as TurnHarness).tenant,
      logger: createLogger({ level: "silent" }),
      now: Date.now,
    });
    const job = { tenantId: "default", conversationKey: `default:${PHONE_NUMBER_ID}:${CUSTOMER}` };
    await expect(processTurn(job)).rejects.toThrow("crash before complete");
    const second = await processTurn(job);
    expect(second.kind).toBe("handled");
    const counts = await h.outboundQueue.queue.getJobCounts("waiting", "delayed", "active", "completed");
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(2);
    h.startWorkers();
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 2, 5000);
    await sleep(400);
    expect(texts(h)).toEqual([GREETING, "Thank you o!"]);
  }, 10_000);
});

describe.skipIf(skipWithoutRedis)("conversation state and history", () => {
  let h: TurnHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  const conversation = `default:${PHONE_NUMBER_ID}:${CUSTOMER}`;

  it("keeps the last N messages and replies of a conversation, oldest first, with an expiry", async () => {
    h = await createTurnHarness("turn-history", { coalesce: OFF, settings });
    h.startWorkers();
    for (const [n, text] of ["hi", "thank you", "hi", "thank you"].entries()) {
      await post(h, `wamid.hist.${n}`, text, nowSeconds() + n);
      await eventually(() => (h as TurnHarness).fake.fake.messages().length === n + 1, 5000);
    }
    await eventually(async () => (await (h as TurnHarness).state.recent(conversation)).length === 5, 3000);
    const history = await h.state.recent(conversation);
    // 4 messages + 4 replies, trimmed to the last 5.
    expect(history.map((entry) => `${entry.from}:${entry.text}`)).toEqual([
      "bot:Thank you o!",
      "customer:hi",
      `bot:${GREETING}`,
      "customer:thank you",
      "bot:Thank you o!",
    ]);
    expect(await h.ingress.admin.pttl(`${h.ingress.prefix}:history:${conversation}`)).toBeGreaterThan(0);
  }, 20_000);

  it("stays silent while a human has the conversation, but still records the messages", async () => {
    h = await createTurnHarness("turn-human", { coalesce: OFF, settings });
    await h.state.setMode(conversation, "human");
    expect(await h.state.mode(conversation)).toBe("human");
    h.startWorkers();
    await post(h, "wamid.human.1", "hi");
    await eventually(
      async () =>
        (await (h as TurnHarness).ingress.admin.zcard(
          `${(h as TurnHarness).ingress.prefix}:inbox:${conversation}`,
        )) === 0,
      5000,
    );
    await sleep(300);
    expect(h.fake.fake.messages()).toEqual([]);
    expect((await h.state.recent(conversation)).map((entry) => entry.from)).toEqual(["customer"]);
    await h.state.setMode(conversation, "bot"); // back to the bot: the next message is answered
    await post(h, "wamid.human.2", "hi");
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 1, 5000);
  }, 15_000);
});
