import type { Migration } from "../migration.js";

/**
 * The SQLite twin of the Postgres schema (postgres/migrations.ts): the same
 * tables, constraints and indexes, with `store_` names. STRICT tables, so a
 * wrong type fails as it would in Postgres. Times are INTEGER ms since the
 * epoch (Meta's `meta_timestamp` too, for one unit everywhere); `body`,
 * `content`, `decision`, `tools` and `calls` are JSON text.
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
  {
    version: 3,
    name: "operator console: conversation figures, notes, operators",
    // Existing rows stay: every new column is nullable or has a default, and what the log already
    // holds is backfilled (the number from the key, the customer's newest message and name, the
    // oldest message not answered since). `rtrim(k, replace(k, ':', ''))` is the key up to its last ":".
    sql: `
ALTER TABLE store_conversations ADD COLUMN phone_number_id TEXT NOT NULL DEFAULT '';
ALTER TABLE store_conversations ADD COLUMN customer_name TEXT;
ALTER TABLE store_conversations ADD COLUMN last_inbound_at INTEGER;
ALTER TABLE store_conversations ADD COLUMN awaiting_reply_since INTEGER;
ALTER TABLE store_conversations ADD COLUMN seen_at INTEGER;
ALTER TABLE store_messages ADD COLUMN sent_by TEXT;
ALTER TABLE store_turns ADD COLUMN calls TEXT;

UPDATE store_conversations AS c SET
  phone_number_id = coalesce(substr(
    substr(rtrim(c.conversation_key, replace(c.conversation_key, ':', '')),
           instr(c.conversation_key, ':') + 1),
    1,
    length(rtrim(c.conversation_key, replace(c.conversation_key, ':', ''))) - instr(c.conversation_key, ':') - 1
  ), ''),
  last_inbound_at = (
    SELECT max(at) FROM store_messages m WHERE m.conversation_key = c.conversation_key AND m.direction = 'inbound'
  ),
  customer_name = (
    SELECT substr(trim(json_extract(m.content, '$.customer.name')), 1, 256) FROM store_messages m
    WHERE m.conversation_key = c.conversation_key AND m.direction = 'inbound' AND m.content IS NOT NULL
      AND trim(json_extract(m.content, '$.customer.name')) <> ''
    ORDER BY m.at DESC, m.id DESC LIMIT 1
  ),
  awaiting_reply_since = (
    SELECT min(i.at) FROM store_messages i
    WHERE i.conversation_key = c.conversation_key AND i.direction = 'inbound' AND i.at > coalesce((
      SELECT max(o.at) FROM store_messages o
      WHERE o.conversation_key = c.conversation_key AND o.direction = 'outbound'
    ), -1)
  );

-- The console's list views, each an index walk in (last activity, key) order: by number, by mode
-- (needs_human, bot, paused), by assignee (mine) and unread. The unread predicate is spelled as in
-- the queries (conversation-query.ts), which is what lets the planner use the partial index.
CREATE INDEX store_conversations_tenant_number_activity
  ON store_conversations (tenant_id, phone_number_id, last_activity_at, conversation_key);
CREATE INDEX store_conversations_tenant_mode_activity
  ON store_conversations (tenant_id, mode, last_activity_at, conversation_key);
CREATE INDEX store_conversations_tenant_assignee_activity
  ON store_conversations (tenant_id, assigned_agent, last_activity_at, conversation_key)
  WHERE assigned_agent IS NOT NULL;
CREATE INDEX store_conversations_tenant_unread_activity
  ON store_conversations (tenant_id, last_activity_at, conversation_key)
  WHERE last_inbound_at > seen_at OR (seen_at IS NULL AND last_inbound_at IS NOT NULL);

-- A conversation's turns newest first, keyset paging on (at, turn_id).
DROP INDEX store_turns_conversation_at;
CREATE INDEX store_turns_conversation_at_id ON store_turns (conversation_key, at, turn_id);

-- An operator's internal notes; purged with their conversation.
CREATE TABLE store_notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  conversation_key TEXT NOT NULL,
  operator_id TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX store_notes_conversation_at ON store_notes (conversation_key, at, id);

-- Operator accounts, sessions and API tokens: never purged by retention.
CREATE TABLE store_operators (
  id TEXT PRIMARY KEY,
  -- Lower-cased by the store.
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE TABLE store_operator_grants (
  operator_id TEXT NOT NULL,
  -- '*': every tenant.
  tenant_id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'agent')),
  PRIMARY KEY (operator_id, tenant_id)
) STRICT;
CREATE TABLE store_sessions (
  -- SHA-256 of the cookie's token, hex.
  id_hash TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX store_sessions_operator ON store_sessions (operator_id);
CREATE TABLE store_api_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  operator_id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
) STRICT;
CREATE INDEX store_api_tokens_operator ON store_api_tokens (operator_id, created_at);
`,
  },
  {
    version: 4,
    name: "what the worker read from inbound media",
    // JSON text: a transcript, a receipt's slots, a document's text or why it could not be read.
    sql: `
ALTER TABLE store_messages ADD COLUMN reading TEXT;
`,
  },
  {
    version: 5,
    name: "campaigns",
    // See the Postgres twin for why each table and index is there.
    sql: `
CREATE TABLE store_campaigns (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  phone_number_id TEXT NOT NULL,
  name TEXT NOT NULL,
  client_key TEXT NOT NULL,
  template TEXT NOT NULL,
  start_at INTEGER,
  timezone TEXT NOT NULL,
  quiet_start TEXT,
  quiet_end TEXT,
  send_rate_mps REAL,
  state TEXT NOT NULL CHECK (state IN ('draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled')),
  state_reason TEXT,
  audience_size INTEGER NOT NULL,
  limited_until INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (tenant_id, client_key)
) STRICT;
CREATE INDEX store_campaigns_tenant_created ON store_campaigns (tenant_id, created_at);
CREATE INDEX store_campaigns_state_number ON store_campaigns (state, phone_number_id);

CREATE TABLE store_campaign_recipients (
  campaign_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  customer_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('to', 'recipient')),
  params TEXT NOT NULL,
  timezone TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'skipped', 'unknown')),
  attempts INTEGER NOT NULL DEFAULT 0,
  resends INTEGER NOT NULL DEFAULT 0,
  not_before INTEGER NOT NULL DEFAULT 0,
  owner TEXT,
  lease_until INTEGER,
  claimed_at INTEGER,
  unknown_since INTEGER,
  wamid TEXT,
  error_code INTEGER,
  reason TEXT,
  status TEXT CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  sent_at INTEGER,
  delivered_at INTEGER,
  read_at INTEGER,
  failed_at INTEGER,
  replied_at INTEGER,
  opted_out_at INTEGER,
  handoff_at INTEGER,
  checkout_at INTEGER,
  pricing_category TEXT,
  billable INTEGER,
  PRIMARY KEY (campaign_id, seq)
) STRICT;
CREATE INDEX store_campaign_recipients_claim ON store_campaign_recipients (campaign_id, state, seq);
CREATE INDEX store_campaign_recipients_wamid ON store_campaign_recipients (wamid) WHERE wamid IS NOT NULL;
CREATE INDEX store_campaign_recipients_recover ON store_campaign_recipients (state, lease_until)
  WHERE state IN ('sending', 'unknown');
CREATE INDEX store_campaign_recipients_customer_sent ON store_campaign_recipients (customer_id, sent_at)
  WHERE sent_at IS NOT NULL;

CREATE TABLE store_messaging_window (
  phone_number_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (phone_number_id, customer_id)
) STRICT;
CREATE INDEX store_messaging_window_number_at ON store_messaging_window (phone_number_id, at);

CREATE TABLE store_suppressions (
  tenant_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('keyword', 'button', 'import', 'meta', 'api')),
  at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, customer_id)
) STRICT;

CREATE TABLE store_number_standings (
  phone_number_id TEXT PRIMARY KEY,
  messaging_limit INTEGER,
  quality TEXT NOT NULL CHECK (quality IN ('GREEN', 'YELLOW', 'RED', 'UNKNOWN')),
  updated_at INTEGER NOT NULL
) STRICT;
`,
  },
];
