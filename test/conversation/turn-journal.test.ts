import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedBackend } from "../../src/app/backends/embedded.js";
import { createRedisBackend } from "../../src/app/backends/redis.js";
import type { Backend, WorkerPorts } from "../../src/app/index.js";
import type { TenantConfig } from "../../src/config/index.js";
import { createSqliteTurnJournal } from "../../src/conversation/embedded/index.js";
import {
  createTurnProcessor,
  type Responder,
  ResponderBusyError,
  type TurnInput,
  type TurnJournal,
  type TurnOutcome,
} from "../../src/conversation/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { OutboundQueue, OutboundReply } from "../../src/outbound/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { deleteKeys, skipWithoutRedis, TEST_REDIS_URL, uniquePrefix } from "../support/redis.js";

const ME = "2348012345678";
const PHONE = "106540352242922";
const logger = createLogger({ level: "silent" });

interface Opened {
  readonly backend: Backend;
  readonly worker: WorkerPorts;
  readonly tenant: TenantConfig;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(kind: "embedded" | "redis"): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), "ss-journal-"));
  const prefix = uniquePrefix("journal");
  const config = embeddedEnvConfig(
    "http://127.0.0.1:9",
    dir,
    kind === "redis" ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {},
  );
  const backend =
    kind === "redis"
      ? createRedisBackend(config, { logger, role: "worker" })
      : createEmbeddedBackend(config, { logger, housekeepingMs: 60_000 });
  await backend.ingress.status.whenReady();
  cleanups.push(async () => {
    await backend.close();
    if (kind === "redis") {
      const redis = new Redis(TEST_REDIS_URL);
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const tenant = config.tenants[0] as TenantConfig;
  return { backend, worker: backend.worker(), tenant };
}

let sequence = 0;
function message(tenant: TenantConfig, text: string, ageMs = 5_000): InboundMessage {
  sequence += 1;
  const at = Date.now() - ageMs;
  return {
    tenantId: tenant.id,
    phoneNumberId: PHONE,
    wabaId: "1",
    conversationKey: `${tenant.id}:${PHONE}:${ME}`,
    wamid: `wamid.journal.${process.pid}.${sequence}`,
    timestamp: Math.floor(at / 1000),
    receivedAt: at,
    type: "text",
    customer: { waId: ME },
    text,
  };
}

/** A responder that answers each turn with the texts it was given, counting its calls. */
function echoResponder(): Responder & { readonly turns: TurnInput[] } {
  const turns: TurnInput[] = [];
  return {
    turns,
    async respond(turn) {
      turns.push(turn);
      return [{ text: `you said: ${turn.messages.map((m) => m.text).join(" + ")}` }];
    },
    async respondToStale(turn) {
      turns.push(turn);
      return [{ text: "stale" }];
    },
  };
}

/** The real outbound queue, failing after its first enqueue has gone through (the turn dies after queuing). */
function failingOnceAfterEnqueue(
  queue: OutboundQueue,
): OutboundQueue & { readonly calls: OutboundReply[][] } {
  const calls: OutboundReply[][] = [];
  let failed = false;
  return {
    calls,
    async enqueue(replies) {
      calls.push([...replies]);
      await queue.enqueue(replies);
      if (!failed) {
        failed = true;
        throw new Error("the process died after queuing the reply");
      }
    },
  } as OutboundQueue & { readonly calls: OutboundReply[][] };
}

const handledTurns = (outcome: TurnOutcome) => (outcome.kind === "handled" ? outcome.turns : []);

/** A turn processor on the worker's own inbox and outbound queue, with this test's responder and journal. */
function processorFor(
  opened: Opened,
  responder: Responder,
  options: { readonly maxAttempts: number; readonly journal?: TurnJournal },
) {
  const { worker, tenant } = opened;
  return createTurnProcessor(
    {
      inbox: worker.inbox,
      outbound: worker.outboundQueue,
      responder,
      tenant: () => tenant,
      journal: options.journal ?? worker.turnJournal,
      logger,
      now: Date.now,
    },
    { maxAttempts: options.maxAttempts },
  );
}

for (const kind of ["embedded", "redis"] as const) {
  describe.skipIf(kind === "redis" && skipWithoutRedis)(`the turn journal on ${kind}`, () => {
    it("a turn that failed after queuing its reply runs again with its own messages only, and queues nothing new", async () => {
      const { backend, worker, tenant } = await open(kind);
      // Coalescing on: without the journal the second run would read both messages as one new turn.
      const coalescing: TenantConfig = { ...tenant, coalesce: { windowMs: 1, maxMs: 1 } };
      const responder = echoResponder();
      const outbound = failingOnceAfterEnqueue(worker.outboundQueue);
      const processTurn = createTurnProcessor({
        inbox: worker.inbox,
        outbound,
        responder,
        tenant: () => coalescing,
        lock: worker.conversationLock,
        state: worker.conversationState,
        journal: worker.turnJournal,
        logger,
        now: Date.now,
      });
      const first = message(tenant, "I sharp sharp transfer ₦15k");
      await backend.ingress.inbound.enqueue({ messages: [first], events: [] });
      const job = { tenantId: tenant.id, conversationKey: first.conversationKey };
      await expect(processTurn(job)).rejects.toThrow("died after queuing");

      const meanwhile = message(tenant, "wetin dey sup?");
      await backend.ingress.inbound.enqueue({ messages: [meanwhile], events: [] });
      const again = handledTurns(await processTurn(job));
      expect(again.map((turn) => [turn.messages, turn.resumed ?? false])).toEqual([
        [1, true],
        [1, false],
      ]);
      // The responder answered the first turn once: its replies came back from the journal.
      expect(responder.turns.map((turn) => turn.messages.map((m) => m.text))).toEqual([
        ["I sharp sharp transfer ₦15k"],
        ["wetin dey sup?"],
      ]);
      // The resumed turn queued the same reply under the same turn id (the queue keeps one).
      const [queued, requeued, next] = outbound.calls;
      expect(requeued).toEqual(queued);
      expect(next?.[0]?.turnId).not.toBe(queued?.[0]?.turnId);
      expect(await worker.inbox.read(first.conversationKey)).toEqual([]);
      expect(await worker.turnJournal.resume(first.conversationKey)).toBeUndefined();
    });

    it("a turn that fails every time is set aside after its attempts, and the conversation goes on", async () => {
      const opened = await open(kind);
      const { backend, worker, tenant } = opened;
      const poison = message(tenant, "POISON");
      const responder: Responder = {
        async respond(turn) {
          if (turn.messages.some((m) => m.text === "POISON")) throw new Error("the model choked");
          return [{ text: "fine" }];
        },
        async respondToStale() {
          return [];
        },
      };
      const processTurn = processorFor(opened, responder, { maxAttempts: 3 });
      await backend.ingress.inbound.enqueue({ messages: [poison], events: [] });
      const job = { tenantId: tenant.id, conversationKey: poison.conversationKey };
      await expect(processTurn(job)).rejects.toThrow("choked");
      await expect(processTurn(job)).rejects.toThrow("choked");
      const after = message(tenant, "hello again");
      await backend.ingress.inbound.enqueue({ messages: [after], events: [] });
      const third = handledTurns(await processTurn(job));
      expect(third.map((turn) => [turn.messages, turn.setAside ?? false, turn.replies])).toEqual([
        [1, true, 0],
        [1, false, 1],
      ]);
      const [setAside] = await worker.turnJournal.setAsideTurns(10);
      expect(setAside).toMatchObject({
        conversationKey: poison.conversationKey,
        attempts: 3,
        reason: "the model choked",
      });
      expect(setAside?.messages.map((m) => m.wamid)).toEqual([poison.wamid]);
      expect(await worker.inbox.read(poison.conversationKey)).toEqual([]);
    });

    it("a turn cut off again and again (a crash each run) is set aside when it is picked up once too often", async () => {
      const opened = await open(kind);
      const { backend, worker, tenant } = opened;
      const stuck = message(tenant, "refund me");
      await backend.ingress.inbound.enqueue({ messages: [stuck], events: [] });
      const { conversationKey } = stuck;
      // What runs that died leave: a begun turn, counted at each pick-up, never finished.
      await worker.turnJournal.begin(conversationKey, {
        turnId: "turn-stuck",
        messages: [stuck],
        startedAt: Date.now(),
      });
      for (let run = 0; run < 2; run += 1) await worker.turnJournal.resume(conversationKey);
      const responder = echoResponder();
      const processTurn = processorFor(opened, responder, { maxAttempts: 3 });
      const turns = handledTurns(await processTurn({ tenantId: tenant.id, conversationKey }));
      expect(turns.map((turn) => turn.setAside ?? false)).toEqual([true]);
      expect(responder.turns).toEqual([]);
      expect((await worker.turnJournal.setAsideTurns(1))[0]).toMatchObject({
        turnId: "turn-stuck",
        attempts: 4,
        reason: "ran 3 times without finishing",
      });
    });

    it("a busy agent gives the turn back without spending an attempt", async () => {
      const opened = await open(kind);
      const { backend, tenant } = opened;
      let busy = 4;
      const responder: Responder = {
        async respond() {
          if (busy > 0) {
            busy -= 1;
            throw new ResponderBusyError("all agent slots busy", 10);
          }
          return [{ text: "answered at last" }];
        },
        async respondToStale() {
          return [];
        },
      };
      const processTurn = processorFor(opened, responder, { maxAttempts: 2 });
      const waiting = message(tenant, "abeg help");
      await backend.ingress.inbound.enqueue({ messages: [waiting], events: [] });
      const job = { tenantId: tenant.id, conversationKey: waiting.conversationKey };
      for (let run = 0; run < 4; run += 1) expect((await processTurn(job)).kind).toBe("busy");
      const turns = handledTurns(await processTurn(job));
      expect(turns.map((turn) => [turn.replies, turn.setAside ?? false])).toEqual([[1, false]]);
    });
  });
}

/** An embedded journal on a file of its own, told of failed commits by `commitFailures`. */
function fileJournal(commitFailures: () => number) {
  const dir = mkdtempSync(join(tmpdir(), "ss-journal-full-"));
  const db = openSqliteDatabase({ dataDir: dir });
  cleanups.push(async () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return createSqliteTurnJournal({ db, commitFailures });
}

describe("the embedded turn journal on a full disk", () => {
  it("never sets aside a turn whose runs failed because commits failed: it is answered once there is room", async () => {
    const opened = await open("embedded");
    const { backend, tenant } = opened;
    // The batches of writes that failed to commit so far: each failing run below has one fail under it.
    let commitFailures = 0;
    const journal = fileJournal(() => commitFailures);
    let full = 6;
    const responder: Responder = {
      async respond(turn) {
        if (full > 0) {
          full -= 1;
          commitFailures += 1;
          throw new Error("could not journal the turn's step: database or disk is full");
        }
        return [{ text: `answered: ${turn.messages.map((m) => m.text).join(" + ")}` }];
      },
      async respondToStale() {
        return [];
      },
    };
    const processTurn = processorFor(opened, responder, { maxAttempts: 3, journal });
    const waiting = message(tenant, "my transfer never land");
    await backend.ingress.inbound.enqueue({ messages: [waiting], events: [] });
    const job = { tenantId: tenant.id, conversationKey: waiting.conversationKey };
    // Twice the attempts a turn has: none of these runs counts against it.
    for (let run = 0; run < 6; run += 1) await expect(processTurn(job)).rejects.toThrow(/disk is full/);
    const turns = handledTurns(await processTurn(job));
    expect(turns.map((turn) => [turn.replies, turn.setAside ?? false])).toEqual([[1, false]]);
    expect(await journal.setAsideTurns(10)).toEqual([]);
  });

  it("still sets aside a turn that fails on its own while commits succeed", async () => {
    const opened = await open("embedded");
    const { backend, tenant } = opened;
    const journal = fileJournal(() => 0);
    const processTurn = processorFor(
      opened,
      {
        async respond() {
          throw new Error("the model choked");
        },
        async respondToStale() {
          return [];
        },
      },
      { maxAttempts: 2, journal },
    );
    const poison = message(tenant, "POISON");
    await backend.ingress.inbound.enqueue({ messages: [poison], events: [] });
    const job = { tenantId: tenant.id, conversationKey: poison.conversationKey };
    await expect(processTurn(job)).rejects.toThrow("choked");
    expect(handledTurns(await processTurn(job)).map((turn) => turn.setAside ?? false)).toEqual([true]);
  });
});
