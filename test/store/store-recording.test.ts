import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createTurnProcessor, turnIdFor } from "../../src/conversation/index.js";
import { createRedisConversationState } from "../../src/conversation/redis/index.js";
import { createRedisDeliveryStatusStore } from "../../src/delivery/redis/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createRedisOutboundQueue } from "../../src/outbound/redis/index.js";
import { createFailFastRedis, createRedisQueues } from "../../src/queue/redis/index.js";
import { createFirstResponder } from "../../src/router/index.js";
import { openSqliteDatabase, type SqliteDatabase } from "../../src/sqlite/index.js";
import type { MessageStore } from "../../src/store/index.js";
import { createStoreRecorders } from "../../src/store/recording/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { testTenant } from "../support/ingress-harness.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const PHONE_NUMBER_ID = "106540352242922";
const CUSTOMER = "2348012345678";
const KEY = `default:${PHONE_NUMBER_ID}:${CUSTOMER}`;
const HUMAN_TEXT = "abeg I want to talk to a human";
const tenant = testTenant("default");

function inbound(wamid: string, text: string, at = Date.now()): InboundMessage {
  return {
    tenantId: "default",
    phoneNumberId: PHONE_NUMBER_ID,
    wabaId: "waba-1",
    conversationKey: KEY,
    wamid,
    timestamp: Math.floor(at / 1000),
    receivedAt: at,
    type: "text",
    customer: { waId: CUSTOMER },
    text,
  };
}

/** Real Redis adapters under a unique prefix, a real SQLite store on a fresh file, and the log lines. */
async function createRig(label: string, options: { broken?: boolean } = {}) {
  const prefix = uniquePrefix(label);
  const redis = createFailFastRedis(TEST_REDIS_URL);
  // Fail-fast: it refuses commands until connected.
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  const bull = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const queues = createRedisQueues({ redis, prefix, dedupeTtlSeconds: 3600, enqueueTimeoutMs: 2000 });
  const outboundQueue = createRedisOutboundQueue({ redis: bull, prefix });
  const dir = mkdtempSync(join(tmpdir(), "ss-recording-"));
  const db: SqliteDatabase = openSqliteDatabase({ dataDir: dir });
  const store: MessageStore = createSqliteMessageStore(db);
  // A store whose database went away: every call rejects.
  if (options.broken === true) db.close();
  const logs: string[] = [];
  const logger = createLogger({ level: "warn", destination: { write: (line: string) => logs.push(line) } });
  return {
    prefix,
    queues,
    outboundQueue,
    deliveryStore: createRedisDeliveryStatusStore({ redis: bull, prefix }),
    state: createRedisConversationState({ redis: bull, prefix }),
    db,
    store,
    recorders: createStoreRecorders(store, logger),
    logger,
    logs,
    async close() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
      await outboundQueue.close();
      await queues.close();
      await deleteKeys(bull, prefix);
      bull.disconnect();
      redis.disconnect();
    },
  };
}
type Rig = Awaited<ReturnType<typeof createRig>>;

function processorOf(rig: Rig) {
  const { recorders } = rig;
  return createTurnProcessor({
    inbox: recorders.inbox(rig.queues.inbox),
    outbound: recorders.outboundQueue(rig.outboundQueue),
    responder: createFirstResponder([tenant], { onTurnDecision: recorders.onTurnDecision }),
    tenant: (id) => (id === tenant.id ? tenant : undefined),
    state: recorders.conversationState(rig.state),
    logger: rig.logger,
    now: Date.now,
  });
}

const turnsOf = (db: SqliteDatabase) =>
  db.prepare("SELECT turn_id, decision, agent_outcome FROM store_turns ORDER BY at").all();

describe.skipIf(skipWithoutRedis)("message store recorders (real Redis adapters, SQLite store)", () => {
  const rigs: Rig[] = [];
  const rig = async (label: string, options?: { broken?: boolean }) => {
    const made = await createRig(label, options);
    rigs.push(made);
    return made;
  };
  afterEach(async () => {
    for (const made of rigs.splice(0)) await made.close();
  });

  it("records a whole turn: the messages, the queued reply, the turn's decision and the handoff", async () => {
    const r = await rig("rec-turn");
    const t0 = Date.now() - 1_000;
    const first = inbound("wamid.r1", "hello", t0);
    const second = inbound("wamid.r2", HUMAN_TEXT, t0 + 10);
    await r.queues.inbound.enqueue({ messages: [first, second], events: [] });
    // Coalescing (the tenant's default window) makes the two one turn once the burst is quiet.
    const processTurn = processorOf(r);
    let outcome = await processTurn({ tenantId: "default", conversationKey: KEY });
    for (let waited = 0; outcome.kind === "postpone" && waited < 20; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      outcome = await processTurn({ tenantId: "default", conversationKey: KEY });
    }
    expect(outcome.kind).toBe("handled");
    const turnId = turnIdFor(["wamid.r1", "wamid.r2"]);

    const { items } = await r.store.messagesOf(KEY, { limit: 10 });
    expect(items.map((m) => [m.direction, m.wamid ?? m.turnId, m.text])).toEqual([
      ["outbound", turnId, expect.stringContaining("I don call person for you")],
      ["inbound", "wamid.r2", HUMAN_TEXT],
      ["inbound", "wamid.r1", "hello"],
    ]);
    expect(items[0]).toMatchObject({ customerId: CUSTOMER, part: 0, type: "text", body: { type: "text" } });
    expect(items[2]).toMatchObject({ customerId: CUSTOMER, metaTimestamp: Math.floor(t0 / 1000), at: t0 });

    const [conversation] = (await r.store.listConversations("default", { limit: 5 })).items;
    expect(conversation).toMatchObject({ conversationKey: KEY, customerId: CUSTOMER, mode: "human" });
    expect(turnsOf(r.db)).toEqual([
      {
        turn_id: turnId,
        decision: JSON.stringify({ intent: "talk_to_human", confidence: 1, resolved: true, tier: "rule" }),
        agent_outcome: null,
      },
    ]);
    expect(r.logs).toEqual([]);
  }, 10_000);

  it("records each message once however often the inbox is read, and each reply part once", async () => {
    const r = await rig("rec-once");
    await r.queues.inbound.enqueue({ messages: [inbound("wamid.o1", "hi")], events: [] });
    const inbox = r.recorders.inbox(r.queues.inbox);
    expect(await inbox.read(KEY)).toHaveLength(1);
    expect(await inbox.read(KEY)).toHaveLength(1);
    const queue = r.recorders.outboundQueue(r.outboundQueue);
    const reply = {
      tenantId: "default",
      phoneNumberId: PHONE_NUMBER_ID,
      conversationKey: KEY,
      to: CUSTOMER,
      turnId: "turn-o",
      part: 0,
      message: {
        type: "interactive",
        interactive: { type: "button", body: { text: "Pick one" }, action: { buttons: [] } },
      },
    };
    await queue.enqueue([reply]);
    await queue.enqueue([reply]);
    const { items } = await r.store.messagesOf(KEY, { limit: 10 });
    expect(items.map((m) => [m.direction, m.type, m.text])).toEqual([
      ["outbound", "interactive", "Pick one"],
      ["inbound", "text", "hi"],
    ]);
    expect(await r.outboundQueue.queue.count()).toBe(1);
  });

  it("fills in the wamid of a sent part and copies its statuses, forward only", async () => {
    const r = await rig("rec-status");
    await r.recorders.inbox(r.queues.inbox).read(KEY);
    await r.recorders.outboundQueue(r.outboundQueue).enqueue([
      {
        tenantId: "default",
        phoneNumberId: PHONE_NUMBER_ID,
        conversationKey: KEY,
        to: CUSTOMER,
        turnId: "turn-s",
        part: 0,
        message: { type: "text", text: { body: "Your order don ship" } },
      },
    ]);
    const deliveries = r.recorders.deliveryStatuses(r.deliveryStore);
    const sentAt = Date.now();
    await deliveries.recordSent({
      tenantId: "default",
      wamid: "wamid.out1",
      phoneNumberId: PHONE_NUMBER_ID,
      conversationKey: KEY,
      to: CUSTOMER,
      turnId: "turn-s",
      part: 0,
      sentAt,
    });
    const status = (s: "delivered" | "read" | "sent", seconds: number) =>
      deliveries.applyStatus({ tenantId: "default", wamid: "wamid.out1", status: s, timestamp: seconds });
    const t = Math.floor(sentAt / 1000);
    expect(await status("read", t + 2)).toBe("applied");
    expect(await status("delivered", t + 1)).toBe("stale_ignored");
    // The delegate still holds its own record.
    expect(await deliveries.get("default", "wamid.out1")).toMatchObject({ status: "read" });
    const [reply] = (await r.store.messagesOf(KEY, { limit: 1 })).items;
    expect(reply).toMatchObject({
      wamid: "wamid.out1",
      text: "Your order don ship",
      delivery: { status: "read", at: (t + 2) * 1000 },
    });
    // A sent part the store never saw queued is still recorded, without text.
    await r.recorders.sentMessages(r.deliveryStore).recordSent({
      tenantId: "default",
      wamid: "wamid.tpl",
      phoneNumberId: PHONE_NUMBER_ID,
      conversationKey: KEY,
      to: CUSTOMER,
      turnId: "turn-tpl",
      part: 0,
      reengagement: true,
      sentAt: sentAt + 5_000,
    });
    const [template] = (await r.store.messagesOf(KEY, { limit: 1 })).items;
    expect(template).toMatchObject({ wamid: "wamid.tpl", type: "template", direction: "outbound" });
    expect(template?.text).toBeUndefined();
  });

  it("copies a mode change to a known conversation and shrugs at an unknown one", async () => {
    const r = await rig("rec-mode");
    const state = r.recorders.conversationState(r.state);
    await state.setMode("default:1:nobody", "paused");
    expect(await r.state.mode("default:1:nobody")).toBe("paused");
    await r.queues.inbound.enqueue({ messages: [inbound("wamid.m1", "hi")], events: [] });
    await r.recorders.inbox(r.queues.inbox).read(KEY);
    await state.setMode(KEY, "paused");
    const { items } = await r.store.listConversations("default", { limit: 5 });
    expect(items.map((c) => [c.conversationKey, c.mode])).toEqual([[KEY, "paused"]]);
    expect(r.logs).toEqual([]);
  });

  it("fails the turn's writes when the store fails, and leaves the inbox and the queue untouched", async () => {
    const r = await rig("rec-fail", { broken: true });
    await r.queues.inbound.enqueue({ messages: [inbound("wamid.f1", HUMAN_TEXT)], events: [] });
    await expect(r.recorders.inbox(r.queues.inbox).read(KEY)).rejects.toThrow(/not open/);
    expect(await r.queues.inbox.read(KEY)).toHaveLength(1);
    const reply = {
      tenantId: "default",
      phoneNumberId: PHONE_NUMBER_ID,
      conversationKey: KEY,
      to: CUSTOMER,
      turnId: "turn-f",
      part: 0,
      message: { type: "text", text: { body: "secret reply text" } },
    };
    await expect(r.recorders.outboundQueue(r.outboundQueue).enqueue([reply])).rejects.toThrow(/not open/);
    expect(await r.outboundQueue.queue.count()).toBe(0);
  });

  it("keeps best-effort writes best effort: the delegates' work stands, a masked warning is logged", async () => {
    const r = await rig("rec-warn", { broken: true });
    const deliveries = r.recorders.deliveryStatuses(r.deliveryStore);
    const sent = {
      tenantId: "default",
      wamid: "wamid.w1",
      phoneNumberId: PHONE_NUMBER_ID,
      conversationKey: KEY,
      to: CUSTOMER,
      turnId: "turn-w",
      part: 0,
      sentAt: Date.now(),
    };
    await deliveries.recordSent(sent);
    const seconds = Math.floor(Date.now() / 1000);
    expect(
      await deliveries.applyStatus({
        tenantId: "default",
        wamid: "wamid.w1",
        status: "delivered",
        timestamp: seconds,
      }),
    ).toBe("applied");
    await r.recorders.conversationState(r.state).setMode(KEY, "human");
    await r.recorders.onTurnDecision({
      turn: { tenant, conversationKey: KEY, messages: [inbound("wamid.w2", HUMAN_TEXT)] },
      tier: "rule",
      intent: "talk_to_human",
      confidence: 1,
      resolved: true,
    });
    expect(await r.deliveryStore.get("default", "wamid.w1")).toMatchObject({ status: "delivered", sent });
    expect(await r.state.mode(KEY)).toBe("human");
    expect(r.logs).toHaveLength(4);
    for (const line of r.logs) {
      expect(line).toContain("message store: could not record");
      expect(line).not.toContain(CUSTOMER);
      expect(line).not.toContain("wamid.w");
      expect(line).not.toContain(HUMAN_TEXT);
    }
    expect(JSON.parse(r.logs[0] as string)).toMatchObject({
      level: 40,
      conversation: "default:106540352242922:234*******678",
    });
  });
});
