import type { Migration } from "../migration.js";

/**
 * The SQLite twin of the Postgres schema (postgres/migrations.ts): the same
 * tables, constraints and indexes, with `store_` names. STRICT tables, so a
 * wrong type fails as it would in Postgres. Times are INTEGER ms since the
 * epoch (Meta's `meta_timestamp` too, for one unit everywhere); `body`,
 * `content`, `decision` and `tools` are JSON text.
 */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "message log",
    sql: `
CREATE TABLE store_conversations (
  conversation_key TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  customer_id TEXT,
  mode TEXT NOT NULL DEFAULT 'bot' CHECK (mode IN ('bot', 'human', 'paused')),
  assigned_agent TEXT,
  last_activity_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
-- Console list (newest activity first, keyset paging) and purge.
CREATE INDEX store_conversations_tenant_activity
  ON store_conversations (tenant_id, last_activity_at, conversation_key);
-- Customer search by id prefix: a BINARY-collated column lets GLOB 'prefix*' use the index.
CREATE INDEX store_conversations_tenant_customer ON store_conversations (tenant_id, customer_id);

CREATE TABLE store_messages (
  -- AUTOINCREMENT: ids never come back after a purge, like a Postgres identity.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  conversation_key TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('inbound', 'outbound')),
  wamid TEXT,
  customer_id TEXT,
  turn_id TEXT,
  part INTEGER,
  type TEXT NOT NULL,
  text TEXT,
  body TEXT,
  media_id TEXT,
  caption TEXT,
  meta_timestamp INTEGER,
  at INTEGER NOT NULL,
  CHECK (direction = 'outbound' OR (wamid IS NOT NULL AND customer_id IS NOT NULL)),
  CHECK (direction = 'inbound' OR (turn_id IS NOT NULL AND part IS NOT NULL))
) STRICT;
CREATE UNIQUE INDEX store_messages_tenant_wamid ON store_messages (tenant_id, wamid) WHERE wamid IS NOT NULL;
CREATE UNIQUE INDEX store_messages_turn_part ON store_messages (turn_id, part) WHERE direction = 'outbound';
-- A conversation's log, newest first, keyset paging on (at, id).
CREATE INDEX store_messages_conversation_at ON store_messages (conversation_key, at, id);
CREATE INDEX store_messages_tenant_at ON store_messages (tenant_id, at);

CREATE TABLE store_deliveries (
  tenant_id TEXT NOT NULL,
  wamid TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'played', 'failed')),
  status_at INTEGER NOT NULL,
  error_code INTEGER,
  error_title TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, wamid)
) STRICT;
CREATE INDEX store_deliveries_tenant_status_at ON store_deliveries (tenant_id, status_at);

CREATE TABLE store_turns (
  turn_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  conversation_key TEXT NOT NULL,
  decision TEXT NOT NULL,
  agent_outcome TEXT,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  cost_usd REAL,
  tools TEXT,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX store_turns_conversation_at ON store_turns (conversation_key, at);
CREATE INDEX store_turns_tenant_at ON store_turns (tenant_id, at);
`,
  },
  {
    version: 2,
    name: "whole inbound content; deleted status",
    // SQLite cannot change a CHECK in place: store_deliveries is rebuilt with the new one.
    sql: `
ALTER TABLE store_messages ADD COLUMN content TEXT;

CREATE TABLE store_deliveries_v2 (
  tenant_id TEXT NOT NULL,
  wamid TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'played', 'deleted', 'failed')),
  status_at INTEGER NOT NULL,
  error_code INTEGER,
  error_title TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, wamid)
) STRICT;
INSERT INTO store_deliveries_v2 (tenant_id, wamid, status, status_at, error_code, error_title, updated_at)
  SELECT tenant_id, wamid, status, status_at, error_code, error_title, updated_at FROM store_deliveries;
DROP TABLE store_deliveries;
ALTER TABLE store_deliveries_v2 RENAME TO store_deliveries;
CREATE INDEX store_deliveries_tenant_status_at ON store_deliveries (tenant_id, status_at);
`,
  },
];
