import { QueueUnavailableError } from "../../queue/index.js";
import { isSqliteWriteFailure, type SqliteDatabase } from "../../sqlite/index.js";
import type { SendOrder, SendOrderCursor } from "../ports.js";

export interface SqliteSendOrderOptions {
  /** The embedded database (openSqliteDatabase); owned by the caller. */
  readonly db: SqliteDatabase;
  /** A conversation's order is forgotten after this long without an assign or finish, ms; default 7 days. */
  readonly ttlMs?: number;
  /** Clock, ms since the epoch; default Date.now. */
  readonly now?: () => number;
}

/** The embedded SendOrder, plus the sweep the composition root runs now and then. */
export interface SqliteSendOrder extends SendOrder {
  /** Deletes the order of conversations quiet for `ttlMs`; answers how many conversations. */
  sweepExpired(): number;
}

// The Redis hash (send-order-script.ts) as two tables: `last`/`next` per conversation, and one row per
// sequence that holds a job id (s:{jobId} and j:{seq}, always set and cleared together) or is done (d:{seq}).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbound_send_order (
  tenant_id TEXT NOT NULL,
  conversation_key TEXT NOT NULL,
  last INTEGER NOT NULL DEFAULT 0,
  next INTEGER NOT NULL DEFAULT 1,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, conversation_key)
);
CREATE INDEX IF NOT EXISTS outbound_send_order_expiry ON outbound_send_order (expires_at);
CREATE TABLE IF NOT EXISTS outbound_send_order_seqs (
  tenant_id TEXT NOT NULL,
  conversation_key TEXT NOT NULL,
  seq INTEGER NOT NULL,
  job_id TEXT,
  done INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, conversation_key, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS outbound_send_order_jobs
  ON outbound_send_order_seqs (tenant_id, conversation_key, job_id);
`;

type Key = { readonly t: string; readonly c: string };

/**
 * The embedded adapter of SendOrder, step for step the Redis scripts
 * (send-order-script.ts), each step one transaction.
 */
export function createSqliteSendOrder(options: SqliteSendOrderOptions): SqliteSendOrder {
  const { db } = options;
  const ttlMs = options.ttlMs ?? 7 * 86_400_000;
  const now = options.now ?? Date.now;
  db.exec(SCHEMA);
  const where = "tenant_id = @t AND conversation_key = @c";
  const head = db.prepare<[Key & { now: number }], { last: number; next: number }>(
    `SELECT last, next FROM outbound_send_order WHERE ${where} AND expires_at > @now`,
  );
  const isExpired = db.prepare<[Key & { now: number }], { one: number }>(
    `SELECT 1 AS one FROM outbound_send_order WHERE ${where} AND expires_at <= @now`,
  );
  const dropSeqs = db.prepare(`DELETE FROM outbound_send_order_seqs WHERE ${where}`);
  const dropHead = db.prepare(`DELETE FROM outbound_send_order WHERE ${where}`);
  const touch = db.prepare(`INSERT INTO outbound_send_order (tenant_id, conversation_key, expires_at)
    VALUES (@t, @c, @expiresAt) ON CONFLICT (tenant_id, conversation_key) DO UPDATE SET expires_at = excluded.expires_at`);
  const bumpLast = db.prepare<[Key], { last: number }>(
    `UPDATE outbound_send_order SET last = last + 1 WHERE ${where} RETURNING last`,
  );
  const setNext = db.prepare(`UPDATE outbound_send_order SET next = @next WHERE ${where}`);
  const seqOfJob = db.prepare<[Key & { jobId: string }], { seq: number }>(
    `SELECT seq FROM outbound_send_order_seqs WHERE ${where} AND job_id = @jobId`,
  );
  const rowOfSeq = db.prepare<[Key & { seq: number }], { job_id: string | null; done: number }>(
    `SELECT job_id, done FROM outbound_send_order_seqs WHERE ${where} AND seq = @seq`,
  );
  const giveJob = db.prepare(`INSERT INTO outbound_send_order_seqs (tenant_id, conversation_key, seq, job_id)
    VALUES (@t, @c, @seq, @jobId) ON CONFLICT (tenant_id, conversation_key, seq) DO UPDATE SET job_id = excluded.job_id`);
  const markDone = db.prepare(`INSERT INTO outbound_send_order_seqs (tenant_id, conversation_key, seq, done)
    VALUES (@t, @c, @seq, 1) ON CONFLICT (tenant_id, conversation_key, seq) DO UPDATE SET done = 1`);
  const dropSeq = db.prepare(`DELETE FROM outbound_send_order_seqs WHERE ${where} AND seq = @seq`);
  const sweepSeqs = db.prepare(`DELETE FROM outbound_send_order_seqs WHERE (tenant_id, conversation_key) IN
    (SELECT tenant_id, conversation_key FROM outbound_send_order WHERE expires_at <= ?)`);
  const sweepHeads = db.prepare("DELETE FROM outbound_send_order WHERE expires_at <= ?");

  /** Forgets an expired order (as Redis would have), then renews the conversation's expiry. */
  const begin = (key: Key): number => {
    const at = now();
    if (isExpired.get({ ...key, now: at }) !== undefined) {
      dropSeqs.run(key);
      dropHead.run(key);
    }
    touch.run({ ...key, expiresAt: at + ttlMs });
    return at;
  };
  const cursorAt = (key: Key, next: number): SendOrderCursor => {
    const jobId = rowOfSeq.get({ ...key, seq: next })?.job_id ?? null;
    return jobId === null ? { next } : { next, jobId };
  };

  const assign = db.transaction((key: Key, jobIds: readonly string[]): number[] => {
    begin(key);
    return jobIds.map((jobId) => {
      const held = seqOfJob.get({ ...key, jobId });
      if (held !== undefined) return held.seq;
      const seq = (bumpLast.get(key) as { last: number }).last;
      giveJob.run({ ...key, seq, jobId });
      return seq;
    });
  });
  const finish = db.transaction((key: Key, seq: number): SendOrderCursor => {
    const at = begin(key);
    let cursor = (head.get({ ...key, now: at }) as { next: number }).next;
    if (seq >= cursor) markDone.run({ ...key, seq });
    while (rowOfSeq.get({ ...key, seq: cursor })?.done === 1) {
      dropSeq.run({ ...key, seq: cursor });
      cursor += 1;
    }
    setNext.run({ ...key, next: cursor });
    return cursorAt(key, cursor);
  });

  return {
    async assign(tenantId, conversationKey, jobIds) {
      if (jobIds.length === 0) return [];
      return assign({ t: tenantId, c: conversationKey }, jobIds);
    },
    async peek(tenantId, conversationKey) {
      const key = { t: tenantId, c: conversationKey };
      const live = head.get({ ...key, now: now() });
      return live === undefined ? { next: 1 } : cursorAt(key, live.next);
    },
    async finish(tenantId, conversationKey, seq) {
      try {
        return finish({ t: tenantId, c: conversationKey }, seq);
      } catch (error) {
        // Typed as the job runner's refused writes are: a send that met it before Meta runs again, and
        // does not advance the order meanwhile (see createOutboundJobHandler).
        if (isSqliteWriteFailure(error)) {
          throw new QueueUnavailableError("the send order could not be written (a full disk?)", error);
        }
        throw error;
      }
    },
    sweepExpired() {
      const at = now();
      sweepSeqs.run(at);
      return sweepHeads.run(at).changes;
    },
  };
}
