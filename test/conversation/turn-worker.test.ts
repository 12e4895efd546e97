import { afterEach, describe, expect, it } from "vitest";
import type { TenantConfig } from "../../src/config/index.js";
import { createTurnProcessor } from "../../src/conversation/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createFirstResponder } from "../../src/router/index.js";
import { eventually } from "../support/eventually.js";
import { PHONE_NUMBER_ID } from "../support/fake-graph.js";
import {
  BACKENDS,
  createGatewayHarness,
  type GatewayHarness,
  type GatewayOptions,
  skipBackend,
} from "../support/gateway-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { createTurnHarness, type TurnHarness } from "../support/turn-harness.js";
import { textWebhook } from "../support/webhook-builder.js";

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

/** The turn processor with the router's answers, reading `inbox` (the harness's own, or one wrapping it). */
function routerTurns(
  h: TurnHarness,
  inbox: Pick<TurnHarness["ingress"]["queues"]["inbox"], "read" | "complete">,
  options?: Parameters<typeof createTurnProcessor>[1],
) {
  return createTurnProcessor(
    {
      inbox,
      outbound: h.outboundQueue,
      responder: createFirstResponder([h.tenant]),
      tenant: () => h.tenant,
      logger: createLogger({ level: "silent" }),
      now: Date.now,
    },
    options,
  );
}

describe.each(BACKENDS)("turn end to end on %s (webhook in, reply out at the fake Graph API)", (backend) => {
  let g: GatewayHarness | undefined;
  afterEach(async () => {
    await g?.close();
    g = undefined;
  });
  const start = (label: string, tenant: Partial<TenantConfig>, extra: Partial<GatewayOptions> = {}) =>
    createGatewayHarness({ backend, label, tenant, ...extra });
  const sent = (h: GatewayHarness) =>
    h.fake.fake.messages().map((m) => (m.body.text as { body: string } | undefined)?.body);
  const postTo = async (h: GatewayHarness, wamid: string, text: string, timestamp = nowSeconds()) => {
    const response = await h.post(textWebhook([[{ wamid, from: CUSTOMER, timestamp, text }]]));
    expect(response.statusCode).toBe(200);
  };

  it.skipIf(skipBackend(backend))(
    'answers "hi" exactly once with the configured text, to the customer, from the business number',
    async () => {
      const h = await start("turn-hi", { coalesce: OFF, settings });
      g = h;
      await postTo(h, "wamid.hi.1", "hi");
      await eventually(() => h.fake.fake.messages().length === 1, 5000);
      await sleep(400);
      const messages = h.fake.fake.messages();
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ to: `+${CUSTOMER}`, phoneNumberId: PHONE_NUMBER_ID, type: "text" });
      expect(sent(h)).toEqual([GREETING]);
      expect(await h.metric("ss_turn_runs_total", { outcome: "handled" })).toBe(1);
      if (h.redis !== undefined) {
        // Redis only: the inbox key is empty once the turn completed.
        const { admin, prefix } = h.redis.ingress;
        expect(await admin.zcard(`${prefix}:inbox:default:${PHONE_NUMBER_ID}:${CUSTOMER}`)).toBe(0);
      }
    },
    10_000,
  );

  it.skipIf(skipBackend(backend))(
    "drops a redelivered webhook (same wamid): one turn, one reply, and 200 each time",
    async () => {
      const h = await start("turn-dup", { coalesce: OFF, settings });
      g = h;
      await postTo(h, "wamid.dup.1", "hi");
      await eventually(() => h.fake.fake.messages().length === 1, 5000);
      await postTo(h, "wamid.dup.1", "hi"); // after the answer
      await postTo(h, "wamid.dup.2", "thank you");
      await postTo(h, "wamid.dup.2", "thank you"); // back to back
      await eventually(() => h.fake.fake.messages().length >= 2, 5000);
      await sleep(500);
      expect(sent(h)).toEqual([GREETING, "Thank you o!"]);
      expect(await h.metric("ss_turn_runs_total", { outcome: "handled" })).toBe(2);
    },
    10_000,
  );

  it.skipIf(skipBackend(backend))(
    "coalesces three messages 200 ms apart into one turn and one reply",
    async () => {
      const h = await start("turn-coalesce", { coalesce: { windowMs: 600, maxMs: 3000 }, settings });
      g = h;
      const t = nowSeconds();
      await postTo(h, "wamid.c.1", "Hello", t);
      await sleep(200);
      await postTo(h, "wamid.c.2", "my money never drop", t);
      await sleep(200);
      await postTo(h, "wamid.c.3", "abeg check am", t + 1);
      await eventually(() => h.fake.fake.messages().length === 1, 5000);
      await sleep(800);
      expect(sent(h)).toEqual([settings.fallback.text]);
      expect(await h.metric("ss_turn_runs_total", { outcome: "handled" })).toBe(1);
      expect(await h.metric("ss_turn_messages_sum")).toBe(3);
    },
    10_000,
  );

  it.skipIf(skipBackend(backend))(
    "with coalescing off, runs three turns in Meta-timestamp order though one webhook carried them in reverse",
    async () => {
      const h = await start("turn-order-batch", { coalesce: OFF, settings });
      g = h;
      const t = nowSeconds();
      const reversed = [
        { wamid: "wamid.ob.3", from: CUSTOMER, timestamp: t + 2, text: "talk to a human" },
        { wamid: "wamid.ob.2", from: CUSTOMER, timestamp: t + 1, text: "thank you" },
        { wamid: "wamid.ob.1", from: CUSTOMER, timestamp: t, text: "hi" },
      ];
      expect((await h.post(textWebhook([reversed]))).statusCode).toBe(200);
      await eventually(() => h.fake.fake.messages().length === 3, 8000);
      await sleep(300);
      expect(sent(h)).toEqual([GREETING, "Thank you o!", "I don call person for you."]);
    },
    12_000,
  );

  it.skipIf(skipBackend(backend))(
    "gives a replay 3 h old the stale handling, not the fresh answer",
    async () => {
      const h = await start("turn-stale", { coalesce: OFF, settings });
      g = h;
      await postTo(h, "wamid.s.1", "hi", nowSeconds() - 3 * 3600);
      await eventually(() => h.fake.fake.messages().length === 1, 5000);
      await sleep(300);
      const [text] = sent(h);
      expect(text).not.toBe(GREETING);
      expect(text).toMatch(/late reply/);
      expect(await h.metric("ss_turn_stale_messages_total")).toBe(1);
    },
    10_000,
  );

  it.skipIf(skipBackend(backend))(
    "sends each conversation's replies in the order of its turns, with conversations in parallel",
    async () => {
      const h = await start("turn-send-order", { coalesce: OFF, settings }, { outboundConcurrency: 8 });
      g = h;
      const customers = Array.from({ length: 6 }, (_, n) => `2348030${String(n).padStart(6, "0")}`);
      const script = ["hi", "thank you", "hi", "thank you"];
      const t = nowSeconds();
      for (const [turn, text] of script.entries()) {
        await Promise.all(
          customers.map(async (from, n) => {
            const body = textWebhook([[{ wamid: `wamid.so.${n}.${turn}`, from, timestamp: t + turn, text }]]);
            expect((await h.post(body)).statusCode).toBe(200);
          }),
        );
      }
      await eventually(() => h.fake.fake.messages().length === customers.length * script.length, 8000);
      await sleep(300);
      const expected = [GREETING, "Thank you o!", GREETING, "Thank you o!"];
      for (const from of customers) {
        const got = h.fake.fake
          .messages({ to: `+${from}` })
          .map((m) => (m.body.text as { body: string }).body);
        expect(got).toEqual(expected);
      }
    },
    12_000,
  );
});

// Redis only: these start the workers after the webhooks are in (embedded runs its turn runner
// from the start), drive the turn processor by hand, or read conversation state and Redis keys.
describe.skipIf(skipWithoutRedis)("turn worker end to end, Redis internals", () => {
  let h: TurnHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

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

  it("with coalescing off, reads the inbox once for a lone message; one that came during the turn waits for the next", async () => {
    h = await createTurnHarness("turn-lone", { coalesce: OFF, settings });
    await post(h, "wamid.l.1", "hi");
    const { inbox } = h.ingress.queues;
    let reads = 0;
    let arrivals = 0;
    const processTurn = routerTurns(h, {
      read: (key, limit) => {
        reads += 1;
        return inbox.read(key, limit);
      },
      complete: async (key, wamids) => {
        // A message arrives while the first turn runs: the queue makes its conversation due again.
        if (arrivals++ === 0) await post(h as TurnHarness, "wamid.l.2", "thank you");
        await inbox.complete(key, wamids);
      },
    });
    const job = { tenantId: "default", conversationKey: `default:${PHONE_NUMBER_ID}:${CUSTOMER}` };
    const first = await processTurn(job);
    expect(first.kind === "handled" && first.turns.length).toBe(1);
    expect(reads).toBe(1);
    const second = await processTurn(job);
    expect(second.kind === "handled" && second.turns.length).toBe(1);
    expect((await inbox.read(job.conversationKey)).length).toBe(0);
    h.startWorkers();
    await eventually(() => (h as TurnHarness).fake.fake.messages().length === 2, 5000);
    expect(texts(h)).toEqual([GREETING, "Thank you o!"]);
  }, 10_000);

  it("with coalescing off and one message a read, goes on after a full read until the inbox is empty", async () => {
    h = await createTurnHarness("turn-full-read", { coalesce: OFF, settings });
    const t = nowSeconds();
    await post(h, "wamid.f.1", "hi", t);
    await post(h, "wamid.f.2", "thank you", t + 1);
    const processTurn = routerTurns(h, h.ingress.queues.inbox, { maxMessages: 1 });
    const job = { tenantId: "default", conversationKey: `default:${PHONE_NUMBER_ID}:${CUSTOMER}` };
    const run = await processTurn(job);
    expect(run.kind === "handled" && run.turns.length).toBe(2);
    expect(await h.ingress.queues.inbox.read(job.conversationKey)).toEqual([]);
  }, 10_000);

  it("queues one copy when a turn runs twice for the same messages", async () => {
    h = await createTurnHarness("turn-retry", { coalesce: OFF, settings });
    await post(h, "wamid.r.1", "hi");
    await post(h, "wamid.r.2", "thank you");
    const { inbox } = h.ingress.queues;
    let failNext = true;
    // The first run dies after queuing its reply, before completing the inbox.
    const processTurn = routerTurns(h, {
      read: (key, limit) => inbox.read(key, limit),
      complete: async (key, wamids) => {
        if (failNext) {
          failNext = false;
          throw new Error("crash before complete");
        }
        await inbox.complete(key, wamids);
      },
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
