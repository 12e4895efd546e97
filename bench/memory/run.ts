/**
 * Memory per message: what a waiting message (in its conversation inbox, its
 * turn due) and a handled one (only its dedupe mark left, kept for the dedupe
 * TTL) cost in Redis (`INFO memory` used_memory) and in the embedded SQLite
 * file (pages in use), through the real queue adapters.
 *
 *   node dist/bench/memory/run.js [--messages 20000] [--conversations 2000] [--redis redis://127.0.0.1:6379]
 *
 * Needs `npm run build`. Uses its own Redis key prefix and deletes it after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { createEmbeddedQueues, createJobTable } from "../../src/queue/embedded/index.js";
import type { ConversationInbox, InboundQueue } from "../../src/queue/index.js";
import { createFailFastRedis, createRedisQueues } from "../../src/queue/redis/index.js";
import { openSqliteDatabase } from "../../src/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";
import { deletePrefix } from "../e2e/delete-prefix.js";

const { values } = parseArgs({
  options: {
    messages: { type: "string", default: "20000" },
    conversations: { type: "string", default: "2000" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
  },
});
const MESSAGES = Number(values.messages);
const CONVERSATIONS = Number(values.conversations);
const TEXT = "I sharp sharp transfer ₦15k since morning, my account never credit, wetin dey sup?";

function messageFor(i: number): InboundMessage {
  const customer = `234801${String(i % CONVERSATIONS).padStart(7, "0")}`;
  return {
    tenantId: "default",
    phoneNumberId: "106540352242922",
    wabaId: "102290129340398",
    conversationKey: `default:106540352242922:${customer}`,
    wamid: `wamid.HBgNMjM0ODAxMjM0NTY3OBUCABIYFjNFQjBDMjdENEQ3${String(i).padStart(10, "0")}`,
    timestamp: 1_764_000_000 + i,
    receivedAt: 1_764_000_000_000 + i,
    type: "text",
    customer: { waId: customer, name: "Chidinma Okafor" },
    text: TEXT,
  };
}

async function fill(inbound: InboundQueue): Promise<void> {
  for (let i = 0; i < MESSAGES; i += 50) {
    const batch = [];
    for (let j = i; j < Math.min(MESSAGES, i + 50); j += 1) batch.push(messageFor(j));
    await Promise.all(batch.map((message) => inbound.enqueue({ messages: [message], events: [] })));
  }
}

async function drain(inbox: ConversationInbox): Promise<void> {
  for (let c = 0; c < CONVERSATIONS; c += 1) {
    const key = messageFor(c).conversationKey;
    for (;;) {
      const waiting = await inbox.read(key, 100);
      if (waiting.length === 0) break;
      await inbox.complete(
        key,
        waiting.map((message) => message.wamid),
      );
    }
  }
}

const perMessage = (before: number, after: number) => Math.round((after - before) / MESSAGES);

async function onRedis(): Promise<void> {
  const admin = new Redis(values.redis);
  const usedMemory = async () => {
    const info = await admin.info("memory");
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
  };
  const prefix = `ssbench-memory-${process.pid}`;
  const redis = createFailFastRedis(values.redis);
  await new Promise<void>((resolve) =>
    redis.status === "ready" ? resolve() : redis.once("ready", () => resolve()),
  );
  const queues = createRedisQueues({ redis, prefix, dedupeTtlSeconds: 8 * 86_400, enqueueTimeoutMs: 5000 });
  try {
    const empty = await usedMemory();
    await fill(queues.inbound);
    const waiting = await usedMemory();
    await drain(queues.inbox);
    const handled = await usedMemory();
    process.stdout.write(
      `redis: ${MESSAGES} messages over ${CONVERSATIONS} conversations: waiting ${perMessage(empty, waiting)} B/message, ` +
        `handled (dedupe mark for the TTL) ${perMessage(empty, handled)} B/message\n`,
    );
  } finally {
    await queues.close();
    redis.disconnect();
    await deletePrefix(admin, prefix);
    admin.disconnect();
  }
}

async function onSqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ssbench-memory-"));
  const db = openSqliteDatabase({ dataDir: dir });
  const queues = createEmbeddedQueues({
    db,
    jobs: createJobTable(db),
    dedupeTtlSeconds: 8 * 86_400,
    description: "bench",
  });
  const bytesInUse = () => {
    const pages = Number(db.pragma("page_count", { simple: true }));
    const free = Number(db.pragma("freelist_count", { simple: true }));
    return (pages - free) * Number(db.pragma("page_size", { simple: true }));
  };
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const empty = bytesInUse();
    await fill(queues.inbound);
    db.pragma("wal_checkpoint(TRUNCATE)");
    const waiting = bytesInUse();
    await drain(queues.inbox);
    db.pragma("wal_checkpoint(TRUNCATE)");
    const handled = bytesInUse();
    process.stdout.write(
      `sqlite: ${MESSAGES} messages over ${CONVERSATIONS} conversations: waiting ${perMessage(empty, waiting)} B/message on disk, ` +
        `handled (dedupe mark for the TTL; turn jobs until housekeeping) ${perMessage(empty, handled)} B/message\n`,
    );
  } finally {
    await queues.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await onRedis();
await onSqlite();
