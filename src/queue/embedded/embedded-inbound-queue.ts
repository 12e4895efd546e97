import { randomUUID } from "node:crypto";
import {
  createWalSyncer,
  explainSqliteError,
  type SqliteDatabase,
  statementPerLimit,
  type WalSyncer,
} from "../../sqlite/index.js";
import type { InboundEvent, InboundMessage } from "../../whatsapp/index.js";
import { tenantOfConversation } from "../../whatsapp/index.js";
import { QueueUnavailableError } from "../errors.js";
import { QUEUE_NAMES, type TurnJob } from "../job-names.js";
import type {
  ConversationInbox,
  EnqueueOutcome,
  InboundBatch,
  InboundQueue,
  MessageEnqueueResult,
  QueueDepth,
  QueueStatus,
} from "../ports.js";
import type { JobTable } from "./job-table.js";
import { createTurnPriorities } from "./turn-priorities.js";

export interface EmbeddedQueuesOptions {
  readonly db: SqliteDatabase;
  /** Flushes the WAL to disk before webhooks are acknowledged; default one on the db's own WAL file. */
  readonly syncer?: WalSyncer;
  readonly jobs: JobTable;
  /** How long message ids and event ids are remembered, seconds. */
  readonly dedupeTtlSeconds: number;
  /** Conversations in checkout/payment or waiting for a human run first (the conversation state store knows). */
  readonly isUrgent?: (conversationKey: string, nowMs: number) => boolean;
  /** Messages waiting longer than this with no turn due get one again, ms; default 120,000. */
  readonly sweepAfterMs?: number;
  /** Where the file lives, for the startup line and errors. */
  readonly description: string;
  /**
   * Longest a webhook waits for its write to be on disk before it is answered 503 (Meta redelivers;
   * the write, if it lands later, makes the redelivery a no-op), ms; default 2,000.
   */
  readonly enqueueTimeoutMs?: number;
  readonly now?: () => number;
}

/** Hooks the runners fill in once they exist (they are made after the queues). */
export interface EmbeddedQueueSignals {
  /** Conversations whose turn runs now. */
  turnsRunning: () => ReadonlySet<string>;
  turnsDue: () => void;
  eventsDue: () => void;
}

export interface EmbeddedQueues {
  readonly inbound: InboundQueue;
  readonly inbox: ConversationInbox;
  readonly status: QueueStatus;
  readonly signals: EmbeddedQueueSignals;
  /** Gives a turn again to messages that waited too long without one; answers how many conversations. */
  sweepWaitingInboxes(): number;
  /** Deletes dedupe marks past their time; answers how many. */
  sweepExpiredMarks(): number;
  /** Waits for the WAL flush in progress and releases the file (before the database is closed). */
  close(): Promise<void>;
}

/** A failed turn is retried with backoff, as in Redis mode (turn-scheduler.ts). */
const TURN_ATTEMPTS = { maxAttempts: 5, backoffMs: 1000 } as const;
const EVENT_ATTEMPTS = { maxAttempts: 5, backoffMs: 1000 } as const;
/** How long a write failure keeps /readyz failing, ms. */
const UNHEALTHY_AFTER_FAILURE_MS = 5000;

interface Pending {
  readonly batch: InboundBatch;
  readonly json: readonly string[];
  readonly resolve: (outcome: EnqueueOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded adapter of the inbound ports, on the process's SQLite file.
 * Webhooks that arrive in the same turn of the event loop are written in one
 * transaction, and acknowledged once a WAL flush after it completes (group
 * commit off the event loop, see createWalSyncer), so an acknowledged
 * message survives a power cut. Per message: dedupe mark, inbox row and the
 * conversation's turn made due, with the same outcomes as the Redis adapter
 * (new, redelivered, duplicate).
 */
export function createEmbeddedQueues(options: EmbeddedQueuesOptions): EmbeddedQueues {
  const { db, jobs } = options;
  const syncer = options.syncer ?? createWalSyncer(`${db.name}-wal`);
  const enqueueTimeoutMs = options.enqueueTimeoutMs ?? 2_000;
  const now = options.now ?? Date.now;
  const ttlMs = options.dedupeTtlSeconds * 1000;
  const sweepAfterMs = options.sweepAfterMs ?? 120_000;
  db.exec(`
    CREATE TABLE IF NOT EXISTS queue_marks (
      tenant_id TEXT NOT NULL, wamid TEXT NOT NULL, handled INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      PRIMARY KEY (tenant_id, wamid)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS queue_marks_expiry ON queue_marks (expires_at);
    CREATE TABLE IF NOT EXISTS queue_inbox (
      seq INTEGER PRIMARY KEY,
      conversation_key TEXT NOT NULL, wamid TEXT NOT NULL, meta_ts INTEGER NOT NULL,
      received_at INTEGER NOT NULL, payload TEXT NOT NULL,
      UNIQUE (conversation_key, wamid)
    );
    CREATE TABLE IF NOT EXISTS queue_event_marks (
      dedupe_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
  const selectMark = db.prepare("SELECT handled FROM queue_marks WHERE tenant_id = ? AND wamid = ?");
  // A new message's mark in one statement: written unless a live mark is there (then nothing changes and
  // selectMark tells a redelivery from a duplicate). The common case, a new message, costs no read.
  const claimMark = db.prepare(
    `INSERT INTO queue_marks (tenant_id, wamid, handled, expires_at) VALUES (?, ?, 0, ?)
     ON CONFLICT (tenant_id, wamid) DO UPDATE SET handled = 0, expires_at = excluded.expires_at
     WHERE queue_marks.expires_at <= ?`,
  );
  // Keeps a live mark's expiry; a mark that expired before its message was handled lives a full TTL again (as in Redis).
  const markHandled = db.prepare(
    `INSERT INTO queue_marks (tenant_id, wamid, handled, expires_at) VALUES (@tenant, @wamid, 1, @expiresAt)
     ON CONFLICT (tenant_id, wamid) DO UPDATE SET handled = 1,
       expires_at = CASE WHEN expires_at <= @now THEN excluded.expires_at ELSE expires_at END`,
  );
  const insertInbox = db.prepare(
    `INSERT INTO queue_inbox (conversation_key, wamid, meta_ts, received_at, payload) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (conversation_key, wamid) DO NOTHING`,
  );
  const readInbox = statementPerLimit(
    db,
    "SELECT payload FROM queue_inbox WHERE conversation_key = ? ORDER BY meta_ts, seq LIMIT ?",
  );
  const deleteInbox = db.prepare("DELETE FROM queue_inbox WHERE conversation_key = ? AND wamid = ?");
  const selectEventMark = db.prepare(
    "SELECT expires_at AS expiresAt FROM queue_event_marks WHERE dedupe_id = ?",
  );
  const putEventMark = db.prepare(
    "INSERT OR REPLACE INTO queue_event_marks (dedupe_id, expires_at) VALUES (?, ?)",
  );
  const stale = db.prepare(
    `SELECT DISTINCT conversation_key AS conversationKey FROM queue_inbox WHERE received_at <= ?
     AND conversation_key NOT IN (SELECT id FROM queue_jobs WHERE queue = 'turns' AND state = 'waiting') LIMIT 1000`,
  );
  const deleteMarks = db.prepare("DELETE FROM queue_marks WHERE expires_at <= ?");
  const deleteEventMarks = db.prepare("DELETE FROM queue_event_marks WHERE expires_at <= ?");
  const inboxCounts = db.prepare(
    `SELECT COUNT(*) AS messages, COUNT(DISTINCT conversation_key) AS conversations,
       COUNT(DISTINCT CASE WHEN conversation_key NOT IN
         (SELECT id FROM queue_jobs WHERE queue = 'turns' AND state = 'waiting') THEN conversation_key END)
         AS unscheduled
     FROM queue_inbox`,
  );

  const signals: EmbeddedQueueSignals = {
    turnsRunning: () => new Set(),
    turnsDue: () => {},
    eventsDue: () => {},
  };
  const priorities = createTurnPriorities({
    ...(options.isUrgent === undefined ? {} : { isUrgent: options.isUrgent }),
  });

  const scheduleTurn = (conversationKey: string, at: number) => {
    const data: TurnJob = { tenantId: tenantOfConversation(conversationKey), conversationKey };
    jobs.schedule(
      QUEUE_NAMES.turns,
      {
        id: conversationKey,
        data,
        runAt: at,
        priority: priorities.next(conversationKey, at),
        ...TURN_ATTEMPTS,
      },
      signals.turnsRunning().has(conversationKey),
      at,
    );
  };

  const recordMessage = (message: InboundMessage, json: string, at: number): MessageEnqueueResult => {
    const tenant = tenantOfConversation(message.conversationKey);
    const fresh = claimMark.run(tenant, message.wamid, at + ttlMs, at).changes === 1;
    if (!fresh) {
      const mark = selectMark.get(tenant, message.wamid) as { handled: number } | undefined;
      if (mark?.handled === 1) return "duplicate";
    }
    insertInbox.run(message.conversationKey, message.wamid, message.timestamp, message.receivedAt, json);
    scheduleTurn(message.conversationKey, at);
    return fresh ? "new" : "redelivered";
  };

  const recordEvent = (event: InboundEvent, at: number): "new" | "duplicate" => {
    const mark = selectEventMark.get(event.dedupeId) as { expiresAt: number } | undefined;
    if (mark !== undefined && mark.expiresAt > at) return "duplicate";
    putEventMark.run(event.dedupeId, at + ttlMs);
    jobs.add(QUEUE_NAMES.events, [{ id: randomUUID(), data: event, runAt: at, ...EVENT_ATTEMPTS }], at);
    return "new";
  };

  let lastWriteFailure = 0;
  let pending: Pending[] = [];
  let flushScheduled = false;

  const fail = (items: readonly Pending[], error: unknown) => {
    lastWriteFailure = now();
    const failure = new QueueUnavailableError(explainSqliteError(error, options.description), error);
    for (const item of items) item.reject(failure);
  };

  const flush = () => {
    flushScheduled = false;
    const items = pending;
    pending = [];
    const at = now();
    let outcomes: EnqueueOutcome[];
    try {
      outcomes = db.transaction(() =>
        items.map(({ batch, json }) => ({
          messages: batch.messages.map((message, index) => recordMessage(message, json[index] as string, at)),
          events: batch.events.map((event) => recordEvent(event, at)),
        })),
      )();
    } catch (error) {
      fail(items, error);
      return;
    }
    // Acknowledged, and answered, only once on disk: a power cut before the flush loses the
    // commit and the acknowledgement together, and Meta redelivers.
    syncer.sync().then(
      () => {
        items.forEach((item, index) => {
          item.resolve(outcomes[index] as EnqueueOutcome);
        });
        if (outcomes.some((outcome) => outcome.messages.some((result) => result !== "duplicate"))) {
          signals.turnsDue();
        }
        if (outcomes.some((outcome) => outcome.events.includes("new"))) signals.eventsDue();
      },
      (error: unknown) => fail(items, error),
    );
  };

  const inbound: InboundQueue = {
    enqueue(batch) {
      if (batch.messages.length === 0 && batch.events.length === 0) {
        return Promise.resolve({ messages: [], events: [] });
      }
      // Serialised here, per request, so nothing one webhook holds can fail the others in its group.
      const json = batch.messages.map((message) => JSON.stringify(message));
      return new Promise<EnqueueOutcome>((resolve, reject) => {
        // A disk that stops answering (a hung fdatasync) must not hold Meta's request open.
        const timer = setTimeout(
          () =>
            reject(
              new QueueUnavailableError(
                `${options.description}: the write was not on disk within ${enqueueTimeoutMs} ms`,
              ),
            ),
          enqueueTimeoutMs,
        );
        pending.push({
          batch,
          json,
          resolve: (outcome) => {
            clearTimeout(timer);
            resolve(outcome);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        if (!flushScheduled) {
          flushScheduled = true;
          // Every webhook read in this turn of the event loop joins the same commit.
          setImmediate(flush);
        }
      });
    },
  };

  const inbox: ConversationInbox = {
    async read(conversationKey, limit = 100) {
      const rows = readInbox(limit).all(conversationKey) as { payload: string }[];
      return rows.map((row) => JSON.parse(row.payload) as InboundMessage);
    },
    async complete(conversationKey, wamids) {
      if (wamids.length === 0) return;
      const tenant = tenantOfConversation(conversationKey);
      const at = now();
      db.transaction(() => {
        for (const wamid of wamids) {
          deleteInbox.run(conversationKey, wamid);
          markHandled.run({ tenant, wamid, expiresAt: at + ttlMs, now: at });
        }
      })();
    },
  };

  const status: QueueStatus = {
    description: options.description,
    async ping() {
      if (now() - lastWriteFailure < UNHEALTHY_AFTER_FAILURE_MS) {
        throw new QueueUnavailableError(`the last write to ${options.description} failed`);
      }
      db.prepare("SELECT 1").get();
    },
    // The file is open before the queues exist.
    async whenReady() {},
    async depth(): Promise<QueueDepth> {
      const counts = inboxCounts.get() as { messages: number; conversations: number; unscheduled: number };
      const at = now();
      return {
        inboxMessages: counts.messages,
        inboxConversations: counts.conversations,
        unscheduledConversations: counts.unscheduled,
        jobs: {
          [QUEUE_NAMES.turns]: jobs.counts(QUEUE_NAMES.turns, at, signals.turnsRunning()),
          [QUEUE_NAMES.events]: jobs.counts(QUEUE_NAMES.events, at),
        },
      };
    },
  };

  return {
    inbound,
    inbox,
    status,
    signals,
    sweepWaitingInboxes() {
      const at = now();
      const rows = stale.all(at - sweepAfterMs) as { conversationKey: string }[];
      const running = signals.turnsRunning();
      const waiting = rows.filter((row) => !running.has(row.conversationKey));
      if (waiting.length === 0) return 0;
      db.transaction(() => {
        for (const row of waiting) scheduleTurn(row.conversationKey, at);
      })();
      signals.turnsDue();
      return waiting.length;
    },
    sweepExpiredMarks() {
      const at = now();
      return deleteMarks.run(at).changes + deleteEventMarks.run(at).changes;
    },
    close: () => (options.syncer === undefined ? syncer.close() : Promise.resolve()),
  };
}
