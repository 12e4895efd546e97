import { Queue } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeMessageRecord } from "../../src/dev/index.js";
import type { OutboundJob } from "../../src/queue/index.js";
import { DEFAULT_RESPONDER_SETTINGS } from "../../src/router/index.js";
import { eventually } from "../support/eventually.js";
import { type RunningFake, startFake } from "../support/fake-graph.js";
import { createIngressHarness, type IngressHarness } from "../support/ingress-harness.js";
import { skipWithoutRedis } from "../support/redis.js";
import { textWebhook } from "../support/webhook-builder.js";
import { createWorkerProcesses } from "../support/worker-processes.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowSeconds = () => Math.floor(Date.now() / 1000);
const replies = DEFAULT_RESPONDER_SETTINGS.replies;
// Default replies come per language and which one a message gets is the language identifier's call:
// a step's answer is any of its reply's texts.
const texts = (reply: { text: Readonly<Record<string, string>> }): readonly string[] =>
  Object.values(reply.text);
/** Five messages whose five default answers differ, in Meta-timestamp order (the first a 3 h old replay). */
const SCRIPT = [
  { text: "hi", age: 3 * 3600, answers: texts(DEFAULT_RESPONDER_SETTINGS.stale) },
  { text: "hi", age: 4, answers: texts(replies.greeting) },
  { text: "my money never drop", age: 3, answers: texts(DEFAULT_RESPONDER_SETTINGS.fallback) },
  { text: "thank you", age: 2, answers: texts(replies.thanks_goodbye) },
  // Last: the handoff reply hands the conversation to a human, and the bot says nothing after it.
  { text: "talk to a human", age: 1, answers: texts(replies.talk_to_human) },
];
/** Which script step a reply text answers (-1: none). */
const stepOf = (text: string | undefined) => SCRIPT.findIndex((step) => step.answers.includes(String(text)));
const customer = (n: number) => `2348010${String(n).padStart(6, "0")}`;
const bodyText = (m: Pick<FakeMessageRecord, "body">) =>
  (m.body.text as { body: string } | undefined)?.body ??
  (m.body.interactive as { body: { text: string } } | undefined)?.body.text;

function byCustomer(messages: readonly FakeMessageRecord[]): Map<string, string[]> {
  const sorted = [...messages].sort((a, b) => a.receivedAt - b.receivedAt);
  const grouped = new Map<string, string[]>();
  for (const m of sorted) {
    const key = String(m.to).replace(/\D/g, "");
    grouped.set(key, [...(grouped.get(key) ?? []), String(bodyText(m))]);
  }
  return grouped;
}

/** Per conversation, the script index of each reply in the order the turns queued them (send-order number). */
async function turnOrder(h: IngressHarness): Promise<Map<string, number[]>> {
  const queue = new Queue<OutboundJob>("outbound", { connection: h.admin, prefix: h.prefix });
  try {
    const jobs = await queue.getJobs(["completed"]);
    const byConversation = new Map<string, OutboundJob[]>();
    for (const { data } of jobs) {
      byConversation.set(data.conversationKey, [...(byConversation.get(data.conversationKey) ?? []), data]);
    }
    const order = new Map<string, number[]>();
    for (const [conversation, replies] of byConversation) {
      const sorted = [...replies].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
      order.set(
        conversation,
        sorted.map((reply) => stepOf(bodyText({ body: reply.message }))),
      );
    }
    return order;
  } finally {
    await queue.close();
  }
}

describe.skipIf(skipWithoutRedis)("worker processes (built CLI, real Redis, fake Graph API)", () => {
  let ingress: IngressHarness | undefined;
  let fake: RunningFake | undefined;
  let workers: ReturnType<typeof createWorkerProcesses> | undefined;
  afterEach(async () => {
    workers?.killAll();
    await fake?.fake.close();
    await ingress?.close();
    workers = undefined;
    fake = undefined;
    ingress = undefined;
  });

  async function setUp(label: string, env: Record<string, string> = {}) {
    ingress = await createIngressHarness({ label });
    fake = await startFake();
    workers = createWorkerProcesses({ prefix: ingress.prefix, graphUrl: fake.url, env });
    return { ingress, fake, workers };
  }

  async function postScript(h: IngressHarness, n: number, index: number) {
    const step = SCRIPT[index] as (typeof SCRIPT)[number];
    const message = {
      wamid: `wamid.p.${n}.${index}`,
      from: customer(n),
      timestamp: nowSeconds() - step.age,
      text: step.text,
    };
    const response = await h.post(textWebhook([[message]]));
    expect(response.statusCode).toBe(200);
  }

  it("100 conversations × 5 messages over 4 worker processes: 5 replies each, none lost or doubled, in order", async () => {
    const { ingress: h, fake: f, workers: w } = await setUp("procs-100");
    const started = [0, 1, 2, 3].map(() => w.spawn());
    await Promise.all(started.map((p) => p.ready()));
    const t0 = Date.now();
    for (let index = 0; index < SCRIPT.length; index += 1) {
      await Promise.all(Array.from({ length: 100 }, (_, n) => postScript(h, n, index)));
    }
    await eventually(() => f.fake.messages().length >= 500, 30_000, 100);
    const elapsed = Date.now() - t0;
    await sleep(500);
    const grouped = byCustomer(f.fake.messages());
    expect(f.fake.messages()).toHaveLength(500);
    expect(grouped.size).toBe(100);
    for (const [, sent] of grouped) expect(sent.map(stepOf).sort()).toEqual([0, 1, 2, 3, 4]);
    // Each turn marks its message read once. Not in turn order: the typing call is best effort and a
    // turn waits for it at most 1 s, so a slow one can reach the fake after the next turn's.
    const reads = new Map<string, number[]>();
    for (const request of f.fake.requests()) {
      if (request.kind !== "read" || request.messageId === undefined) continue;
      const [, , n, index] = request.messageId.split(".");
      reads.set(String(n), [...(reads.get(String(n)) ?? []), Number(index)]);
    }
    expect(reads.size).toBe(100);
    for (const [, indexes] of reads) expect([...indexes].sort()).toEqual([0, 1, 2, 3, 4]);
    // The turn order: each turn's reply takes its conversation's next send-order number as it is queued.
    const turns = await turnOrder(h);
    expect(turns.size).toBe(100);
    for (const [, order] of turns) expect(order).toEqual([0, 1, 2, 3, 4]);
    const outOfOrder = [...grouped.values()].filter((sent) => sent.map(stepOf).join() !== "0,1,2,3,4").length;
    const lateReads = [...reads.values()].filter((indexes) => indexes.join() !== "0,1,2,3,4").length;
    process.stdout.write(
      `500 replies through 4 worker processes in ${elapsed} ms; conversations whose sends left out of turn order: ${outOfOrder}/100 (whose read marks reached the fake out of turn order: ${lateReads}/100)\n`,
    );
    expect(outOfOrder).toBe(0);
  }, 45_000);

  it("a worker SIGKILLed mid-turn and another mid-send: every message gets exactly one reply after recovery", async () => {
    const lockMs = 1000;
    const stalledMs = 500;
    const {
      ingress: h,
      fake: f,
      workers: w,
    } = await setUp("procs-crash", {
      WORKER_LOCK_MS: String(lockMs),
      WORKER_STALLED_INTERVAL_MS: String(stalledMs),
    });
    // Turns a worker holds are leases in the leased set; sends are BullMQ jobs in its active list.
    const active = (queue: "turns" | "outbound") =>
      queue === "turns"
        ? h.admin.zcard(`${h.prefix}:turns:leased`)
        : h.admin.llen(`${h.prefix}:outbound:active`);
    // Slow Graph API: each turn waits out its typing indicator's 1 s bound.
    f.fake.setFaults({ latencyMs: 3000 });
    const first = w.spawn();
    await first.ready();
    for (const n of [0, 1, 2]) await postScript(h, n, 1);
    await eventually(async () => (await active("turns")) > 0, 5000);
    first.child.kill("SIGKILL");
    const killedMidTurn = Date.now();
    // The next worker's sends hang at the fake: it is killed with them in flight.
    f.fake.setFaults({ latencyMs: 0, hangRate: 1 });
    const second = w.spawn();
    await eventually(async () => (await active("outbound")) > 0, 15_000, 20);
    const turnRecoveryMs = Date.now() - killedMidTurn;
    await eventually(() => f.fake.requests().some((r) => r.outcome === "hung" && r.type === undefined), 5000);
    await sleep(200);
    second.child.kill("SIGKILL");
    const killedMidSend = Date.now();
    f.fake.setFaults({ hangRate: 0 });
    w.spawn();
    await eventually(() => f.fake.messages().length >= 3, 15_000, 20);
    const sendRecoveryMs = Date.now() - killedMidSend;
    await sleep(1500);
    const grouped = byCustomer(f.fake.messages());
    process.stdout.write(
      `recovery after SIGKILL (WORKER_LOCK_MS=${lockMs}, WORKER_STALLED_INTERVAL_MS=${stalledMs}, incl. ~0.5 s worker start): mid-turn ${turnRecoveryMs} ms, mid-send ${sendRecoveryMs} ms\n`,
    );
    expect(f.fake.messages()).toHaveLength(3);
    expect([...grouped.values()].map((sent) => sent.map(stepOf))).toEqual([[1], [1], [1]]);
    const bound = lockMs + 2 * stalledMs + 3000;
    expect(turnRecoveryMs).toBeLessThan(bound);
    expect(sendRecoveryMs).toBeLessThan(bound);
  }, 40_000);
});
