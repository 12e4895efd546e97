import type { SentMessage } from "../../outbound/index.js";
import type { SqliteDatabase } from "../../sqlite/index.js";
import type { DeliveryRecord, DeliveryStatus, DeliveryStatusStore, StatusUpdate } from "../ports.js";
import { isDeliveryStatus, SEEN_RANK, STATUS_RANK } from "../status-rank.js";

export interface SqliteDeliveryStatusStoreOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** How long a message's record lives after its last write, ms; default 30 days (Meta's message TTL). */
  readonly ttlMs?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded DeliveryStatusStore, plus the sweep the composition root runs now and then. */
export interface SqliteDeliveryStatusStore extends DeliveryStatusStore {
  /** Deletes expired records; answers how many. */
  sweepExpired(): number;
}

interface Row {
  phone_number_id: string | null;
  conversation_key: string | null;
  turn_id: string | null;
  part: number | null;
  sent_at: number | null;
  sent_to: string | null;
  sent_recipient: string | null;
  reengagement: number | null;
  traceparent: string | null;
  status: string | null;
  status_rank: number | null;
  status_at: number | null;
  recipient: string | null;
  error_code: number | null;
  error_title: string | null;
}

// One row per (tenant, wamid), the twin of the Redis hash; `at_<status>` keeps each status's timestamp.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS delivery_messages (
  tenant_id TEXT NOT NULL,
  wamid TEXT NOT NULL,
  phone_number_id TEXT, conversation_key TEXT, turn_id TEXT, part INTEGER, sent_at INTEGER,
  sent_to TEXT, sent_recipient TEXT, reengagement INTEGER,
  status TEXT, status_rank INTEGER, status_at INTEGER, recipient TEXT, error_code INTEGER, error_title TEXT,
  at_sent INTEGER, at_delivered INTEGER, at_read INTEGER, at_played INTEGER, at_deleted INTEGER, at_failed INTEGER,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, wamid)
);
CREATE INDEX IF NOT EXISTS delivery_messages_expiry ON delivery_messages (expires_at);
`;

/**
 * A file written before a status existed lacks its `at_<status>` column (the table is created once),
 * and one written before tracing its `traceparent` (the send's span, which its statuses link to).
 */
function addMissingColumns(db: SqliteDatabase): void {
  const columns = new Set(
    (db.prepare("PRAGMA table_info(delivery_messages)").all() as { name: string }[]).map((c) => c.name),
  );
  if (!columns.has("traceparent")) db.exec("ALTER TABLE delivery_messages ADD COLUMN traceparent TEXT");
  for (const status of Object.keys(STATUS_RANK)) {
    if (!columns.has(`at_${status}`))
      db.exec(`ALTER TABLE delivery_messages ADD COLUMN at_${status} INTEGER`);
  }
}

/** The same rules as APPLY_STATUS_LUA: forward by rank only; failed is final and cannot follow a read. */
function moves(current: Row | undefined, update: StatusUpdate): boolean {
  if (current?.status_rank === null || current?.status_rank === undefined) return true;
  const rank = STATUS_RANK[update.status];
  if (current.status_rank === 0) return false;
  if (rank === 0) return current.status_rank < SEEN_RANK && update.timestamp >= (current.status_at ?? 0);
  return rank > current.status_rank;
}

function sentOf(tenantId: string, wamid: string, row: Row): SentMessage | undefined {
  if (row.turn_id === null || row.phone_number_id === null || row.conversation_key === null) return undefined;
  return {
    tenantId,
    wamid,
    phoneNumberId: row.phone_number_id,
    conversationKey: row.conversation_key,
    turnId: row.turn_id,
    part: row.part ?? 0,
    sentAt: row.sent_at ?? 0,
    ...(row.sent_to === null ? {} : { to: row.sent_to }),
    ...(row.sent_recipient === null ? {} : { recipient: row.sent_recipient }),
    ...(row.reengagement === 1 ? { reengagement: true as const } : {}),
    ...(row.traceparent === null || row.traceparent === undefined ? {} : { traceparent: row.traceparent }),
  };
}

/**
 * The embedded adapter of DeliveryStatusStore: one row per (tenant, wamid) in
 * `delivery_messages`, the same fields and rules as the Redis hash; every
 * write renews the row's expiry, and an expired row reads as absent.
 */
export function createSqliteDeliveryStatusStore(
  options: SqliteDeliveryStatusStoreOptions,
): SqliteDeliveryStatusStore {
  const { db } = options;
  const ttlMs = options.ttlMs ?? 30 * 86_400_000;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  addMissingColumns(db);
  const dropExpired = db.prepare(
    "DELETE FROM delivery_messages WHERE tenant_id = ? AND wamid = ? AND expires_at <= ?",
  );
  const select = db.prepare<[string, string, number], Row>(
    "SELECT * FROM delivery_messages WHERE tenant_id = ? AND wamid = ? AND expires_at > ?",
  );
  // Like HSET: optional fields the new write lacks keep what was there.
  const upsertSent = db.prepare(`
    INSERT INTO delivery_messages (tenant_id, wamid, phone_number_id, conversation_key, turn_id, part, sent_at,
      sent_to, sent_recipient, reengagement, traceparent, expires_at)
    VALUES (@tenantId, @wamid, @phoneNumberId, @conversationKey, @turnId, @part, @sentAt, @to, @recipient,
      @reengagement, @traceparent, @expiresAt)
    ON CONFLICT (tenant_id, wamid) DO UPDATE SET phone_number_id = excluded.phone_number_id,
      conversation_key = excluded.conversation_key, turn_id = excluded.turn_id, part = excluded.part,
      sent_at = excluded.sent_at, sent_to = COALESCE(excluded.sent_to, sent_to),
      sent_recipient = COALESCE(excluded.sent_recipient, sent_recipient),
      reengagement = COALESCE(excluded.reengagement, reengagement),
      traceparent = COALESCE(excluded.traceparent, traceparent), expires_at = excluded.expires_at`);
  const upsertStatus = (status: DeliveryStatus) =>
    db.prepare(`
    INSERT INTO delivery_messages (tenant_id, wamid, status, status_rank, status_at, at_${status}, recipient,
      error_code, error_title, expires_at)
    VALUES (@tenantId, @wamid, @status, @rank, @timestamp, @timestamp, @recipient, @errorCode, @errorTitle,
      @expiresAt)
    ON CONFLICT (tenant_id, wamid) DO UPDATE SET status = excluded.status, status_rank = excluded.status_rank,
      status_at = excluded.status_at, at_${status} = excluded.status_at,
      recipient = COALESCE(excluded.recipient, recipient),
      error_code = COALESCE(excluded.error_code, error_code),
      error_title = CASE WHEN excluded.error_code IS NULL THEN error_title ELSE excluded.error_title END,
      expires_at = excluded.expires_at`);
  const statusWrites = Object.fromEntries(
    (Object.keys(STATUS_RANK) as DeliveryStatus[]).map((status) => [status, upsertStatus(status)]),
  ) as Record<DeliveryStatus, ReturnType<typeof upsertStatus>>;
  const sweep = db.prepare("DELETE FROM delivery_messages WHERE expires_at <= ?");

  const apply = db.transaction((update: StatusUpdate): boolean => {
    const at = now();
    dropExpired.run(update.tenantId, update.wamid, at);
    if (!moves(select.get(update.tenantId, update.wamid, at), update)) return false;
    statusWrites[update.status].run({
      tenantId: update.tenantId,
      wamid: update.wamid,
      status: update.status,
      rank: STATUS_RANK[update.status],
      timestamp: update.timestamp,
      recipient: update.recipient === undefined || update.recipient === "" ? null : update.recipient,
      errorCode: update.error?.code ?? null,
      errorTitle: update.error?.title ?? null,
      expiresAt: at + ttlMs,
    });
    return true;
  });
  const recordSent = db.transaction((message: SentMessage) => {
    const at = now();
    dropExpired.run(message.tenantId, message.wamid, at);
    upsertSent.run({
      tenantId: message.tenantId,
      wamid: message.wamid,
      phoneNumberId: message.phoneNumberId,
      conversationKey: message.conversationKey,
      turnId: message.turnId,
      part: message.part,
      sentAt: message.sentAt,
      to: message.to ?? null,
      recipient: message.recipient ?? null,
      reengagement: message.reengagement === true ? 1 : null,
      traceparent: message.traceparent ?? null,
      expiresAt: at + ttlMs,
    });
  });

  return {
    async recordSent(message) {
      recordSent(message);
    },
    async applyStatus(update) {
      return apply(update) ? "applied" : "stale_ignored";
    },
    async get(tenantId, wamid) {
      const row = select.get(tenantId, wamid, now());
      if (row === undefined) return undefined;
      const sent = sentOf(tenantId, wamid, row);
      return {
        tenantId,
        wamid,
        ...(sent === undefined ? {} : { sent }),
        ...(row.status !== null && isDeliveryStatus(row.status) ? { status: row.status } : {}),
        ...(row.status_at === null ? {} : { statusAt: row.status_at }),
        ...(row.recipient === null ? {} : { recipient: row.recipient }),
        ...(row.error_code === null ? {} : { errorCode: row.error_code }),
        ...(row.error_title === null ? {} : { errorTitle: row.error_title }),
      } satisfies DeliveryRecord;
    },
    sweepExpired() {
      return sweep.run(now()).changes;
    },
  };
}
