import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedQueues, createJobTable } from "../../src/queue/embedded/index.js";
import { QueueUnavailableError } from "../../src/queue/index.js";
import { openSqliteDatabase, type SqliteDatabase, type WalSyncer } from "../../src/sqlite/index.js";
import type { InboundMessage } from "../../src/whatsapp/index.js";

const dirs: string[] = [];
const dbs: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A WAL flush the test settles by hand. */
function manualSyncer() {
  const pending: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const syncer: WalSyncer = {
    sync: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    close: async () => {},
  };
  return { syncer, pending };
}

function queuesWith(syncer: WalSyncer) {
  const dir = mkdtempSync(join(tmpdir(), "ss-ack-"));
  dirs.push(dir);
  const db = openSqliteDatabase({ dataDir: dir });
  dbs.push(db);
  let turnsDue = 0;
  const queues = createEmbeddedQueues({
    db,
    jobs: createJobTable(db),
    syncer,
    dedupeTtlSeconds: 3600,
    description: "test",
  });
  queues.signals.turnsDue = () => {
    turnsDue += 1;
  };
  return { queues, turnsDue: () => turnsDue };
}

const message = (wamid: string): InboundMessage =>
  ({
    tenantId: "acme",
    wamid,
    conversationKey: "acme:106540352242922:2348012345678",
    phoneNumberId: "106540352242922",
    customer: { waId: "2348012345678" },
    timestamp: Math.floor(Date.now() / 1000),
    receivedAt: Date.now(),
    type: "text",
    text: "hi",
  }) as unknown as InboundMessage;

describe("embedded ingress: a webhook is acknowledged only once its commit is on disk", () => {
  it("holds the enqueue (and the turn) until the WAL flush completes", async () => {
    const { syncer, pending } = manualSyncer();
    const { queues, turnsDue } = queuesWith(syncer);
    let settled = false;
    const enqueued = queues.inbound
      .enqueue({ messages: [message("wamid.a")], events: [] })
      .then((outcome) => {
        settled = true;
        return outcome;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pending).toHaveLength(1);
    expect(settled).toBe(false);
    expect(turnsDue()).toBe(0);
    pending[0]?.resolve();
    expect((await enqueued).messages).toEqual(["new"]);
    expect(turnsDue()).toBe(1);
  });

  it("answers QueueUnavailableError (503) when the flush fails, and keeps failing after it (fsync errors are final)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ss-ack-"));
    dirs.push(dir);
    const { syncer, pending } = manualSyncer();
    const { queues } = queuesWith(syncer);
    const first = queues.inbound.enqueue({ messages: [message("wamid.b")], events: [] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    pending[0]?.reject(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    await expect(first).rejects.toThrow(QueueUnavailableError);
    await expect(queues.status.ping(100)).rejects.toThrow(QueueUnavailableError);
  });
});
