import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import type { Responder } from "../../src/conversation/index.js";
import { createLogger } from "../../src/observability/index.js";
import type { StoredMessage } from "../../src/store/index.js";
import { embeddedEnvConfig, postSignedWebhook } from "./embedded-config.js";
import { eventually } from "./eventually.js";
import { type RunningFake, startFake } from "./fake-graph.js";
import { openLiveSqliteStore } from "./live-sqlite-store.js";

/** One "ok" per turn: what is answered, and to whom, is all these tests look at. */
const okResponder: Responder = {
  respond: async () => [{ text: "ok" }],
  respondToStale: async () => [{ text: "ok (stale)" }],
};

export interface AnsweringGateway {
  readonly fake: RunningFake;
  readonly running: RunningEmbedded;
  /** Posts the exact bytes, signed as Meta signs them; answers the HTTP status. */
  post(body: string | Buffer): Promise<number>;
  /** Waits until every inbox is empty and no job is waiting (turns, sends, events). */
  settled(timeoutMs?: number): Promise<void>;
  /** The message log's inbound row for a wamid of the default tenant. */
  logged(wamid: string): Promise<StoredMessage | undefined>;
  /** Every reply the gateway queued (sent or not), with its address. */
  queuedReplies(): { readonly to?: string; readonly recipient?: string }[];
  /** The delivery status the delivery store holds for a wamid. */
  deliveryStatus(wamid: string): string | undefined;
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The embedded gateway on a fresh data directory, answering through the fake
 * Graph API with one "ok" per turn, coalescing off. `env` adds variables (say,
 * WHATSAPP_PHONE_NUMBER_ID to list one business number).
 */
export async function startAnsweringGateway(env: Record<string, string> = {}): Promise<AnsweringGateway> {
  const fake = await startFake();
  const dataDir = mkdtempSync(join(tmpdir(), "ss-answering-"));
  const running = await startEmbedded(embeddedEnvConfig(fake.url, dataDir, env), {
    logger: createLogger({ level: "silent" }),
    responder: okResponder,
  });
  // A second connection on the live file (WAL): reads see each commit of the gateway's.
  const { db, store } = await openLiveSqliteStore(running.databasePath);
  const pending = db.prepare(
    `SELECT (SELECT COUNT(*) FROM queue_inbox) + (SELECT COUNT(*) FROM queue_jobs WHERE state = 'waiting') AS n`,
  );
  const byWamid = db.prepare(
    "SELECT conversation_key AS conversationKey FROM store_messages WHERE tenant_id = 'default' AND wamid = ?",
  );
  const delivery = db.prepare("SELECT status FROM delivery_messages WHERE wamid = ?");
  const outbound = db.prepare("SELECT data FROM queue_jobs WHERE queue = 'outbound'");
  return {
    fake,
    running,
    async post(body) {
      return (await postSignedWebhook(running.url, body)).status;
    },
    async settled(timeoutMs = 10_000) {
      await eventually(() => (pending.get() as { n: number }).n === 0, timeoutMs, 10);
    },
    async logged(wamid) {
      const row = byWamid.get(wamid) as { conversationKey: string } | undefined;
      if (row === undefined) return undefined;
      const page = await store.messagesOf(row.conversationKey, { limit: 500 });
      return page.items.find((item) => item.direction === "inbound" && item.wamid === wamid);
    },
    queuedReplies() {
      return (outbound.all() as { data: string }[]).map((row) => {
        const { to, recipient } = JSON.parse(row.data) as { to?: string; recipient?: string };
        return { ...(to === undefined ? {} : { to }), ...(recipient === undefined ? {} : { recipient }) };
      });
    },
    deliveryStatus(wamid) {
      return (delivery.get(wamid) as { status: string | null } | undefined)?.status ?? undefined;
    },
    async metrics() {
      return (await fetch(`${running.adminUrl}/metrics`)).text();
    },
    async close() {
      db.close();
      await running.close();
      await fake.fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
