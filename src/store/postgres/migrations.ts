import type { Migration } from "../migration.js";

export type { Migration } from "../migration.js";

/**
 * Times are timestamptz; the store converts to and from ms since the epoch.
 * Statuses live apart from messages because Meta may report one before the
 * send that produced it is recorded with its wamid. No foreign keys: the
 * conversation row is a summary the store maintains, and purges delete by
 * age table by table.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "message log",
    sql: `
CREATE TABLE conversations (
  conversation_key text PRIMARY KEY,
  tenant_id text NOT NULL,
  customer_id text,
  mode text NOT NULL DEFAULT 'bot' CHECK (mode IN ('bot', 'human', 'paused')),
  assigned_agent text,
  last_activity_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Console list (newest activity first, keyset paging) and purge.
CREATE INDEX conversations_tenant_activity ON conversations (tenant_id, last_activity_at, conversation_key);
-- Customer search by id prefix: text_pattern_ops lets LIKE 'prefix%' use the index in any collation.
CREATE INDEX conversations_tenant_customer ON conversations (tenant_id, customer_id text_pattern_ops);

CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL,
  conversation_key text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('inbound', 'outbound')),
  wamid text,
  customer_id text,
  turn_id text,
  part integer,
  type text NOT NULL,
  text text,
  body jsonb,
  media_id text,
  caption text,
  meta_timestamp timestamptz,
  at timestamptz NOT NULL,
  CHECK (direction = 'outbound' OR (wamid IS NOT NULL AND customer_id IS NOT NULL)),
  CHECK (direction = 'inbound' OR (turn_id IS NOT NULL AND part IS NOT NULL))
);
CREATE UNIQUE INDEX messages_tenant_wamid ON messages (tenant_id, wamid) WHERE wamid IS NOT NULL;
CREATE UNIQUE INDEX messages_turn_part ON messages (turn_id, part) WHERE direction = 'outbound';
-- A conversation's log, newest first, keyset paging on (at, id).
CREATE INDEX messages_conversation_at ON messages (conversation_key, at, id);
CREATE INDEX messages_tenant_at ON messages (tenant_id, at);

CREATE TABLE deliveries (
  tenant_id text NOT NULL,
  wamid text NOT NULL,
  status text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'played', 'failed')),
  status_at timestamptz NOT NULL,
  error_code integer,
  error_title text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, wamid)
);
CREATE INDEX deliveries_tenant_status_at ON deliveries (tenant_id, status_at);

CREATE TABLE turns (
  turn_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  conversation_key text NOT NULL,
  decision jsonb NOT NULL,
  agent_outcome text,
  prompt_tokens integer,
  completion_tokens integer,
  cost_usd numeric(12, 6),
  tools text[],
  at timestamptz NOT NULL
);
CREATE INDEX turns_conversation_at ON turns (conversation_key, at);
CREATE INDEX turns_tenant_at ON turns (tenant_id, at);
`,
  },
  {
    version: 2,
    name: "whole inbound content; deleted status",
    // An inbound message's normalised content (reactions, locations, contact cards, orders, Flow
    // responses, system changes) did not fit text/media_id/caption; `deleted` comes from older senders.
    sql: `
ALTER TABLE messages ADD COLUMN content jsonb;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
  CHECK (status IN ('sent', 'delivered', 'read', 'played', 'deleted', 'failed'));
`,
  },
  {
    version: 3,
    name: "operator console: conversation figures, notes, operators",
    // Existing rows stay: every new column is nullable or has a default, and what the log already
    // holds is backfilled (the number from the key, the customer's newest message and name, the
    // oldest message not answered since).
    sql: `
ALTER TABLE conversations
  ADD COLUMN phone_number_id text NOT NULL DEFAULT '',
  ADD COLUMN customer_name text,
  ADD COLUMN last_inbound_at timestamptz,
  ADD COLUMN awaiting_reply_since timestamptz,
  ADD COLUMN seen_at timestamptz;
ALTER TABLE messages ADD COLUMN sent_by text;
ALTER TABLE turns ADD COLUMN calls jsonb;

UPDATE conversations AS c SET
  phone_number_id = coalesce(substring(c.conversation_key FROM '^[^:]*:(.*):[^:]*$'), ''),
  last_inbound_at = (
    SELECT max(at) FROM messages m WHERE m.conversation_key = c.conversation_key AND m.direction = 'inbound'
  ),
  customer_name = (
    SELECT left(btrim(m.content->'customer'->>'name'), 256) FROM messages m
    WHERE m.conversation_key = c.conversation_key AND m.direction = 'inbound' AND m.content IS NOT NULL
      AND btrim(m.content->'customer'->>'name') <> ''
    ORDER BY m.at DESC, m.id DESC LIMIT 1
  ),
  awaiting_reply_since = (
    SELECT min(i.at) FROM messages i
    WHERE i.conversation_key = c.conversation_key AND i.direction = 'inbound' AND i.at > coalesce((
      SELECT max(o.at) FROM messages o
      WHERE o.conversation_key = c.conversation_key AND o.direction = 'outbound'
    ), '-infinity')
  );

-- The console's list views, each an index walk in (last activity, key) order: by number, by mode
-- (needs_human, bot, paused), by assignee (mine) and unread (the predicate as the queries spell it).
CREATE INDEX conversations_tenant_number_activity
  ON conversations (tenant_id, phone_number_id, last_activity_at, conversation_key);
CREATE INDEX conversations_tenant_mode_activity
  ON conversations (tenant_id, mode, last_activity_at, conversation_key);
CREATE INDEX conversations_tenant_assignee_activity
  ON conversations (tenant_id, assigned_agent, last_activity_at, conversation_key)
  WHERE assigned_agent IS NOT NULL;
CREATE INDEX conversations_tenant_unread_activity
  ON conversations (tenant_id, last_activity_at, conversation_key)
  WHERE last_inbound_at > seen_at OR (seen_at IS NULL AND last_inbound_at IS NOT NULL);

-- A conversation's turns newest first, keyset paging on (at, turn_id).
DROP INDEX turns_conversation_at;
CREATE INDEX turns_conversation_at_id ON turns (conversation_key, at, turn_id);

-- An operator's internal notes; purged with their conversation.
CREATE TABLE notes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id text NOT NULL,
  conversation_key text NOT NULL,
  operator_id text NOT NULL,
  text text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX notes_conversation_at ON notes (conversation_key, at, id);

-- Operator accounts, sessions and API tokens: never purged by retention.
CREATE TABLE operators (
  id text PRIMARY KEY,
  -- Lower-cased by the store.
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE operator_grants (
  operator_id text NOT NULL,
  -- '*': every tenant.
  tenant_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'agent')),
  PRIMARY KEY (operator_id, tenant_id)
);
CREATE TABLE sessions (
  -- SHA-256 of the cookie's token, hex.
  id_hash text PRIMARY KEY,
  operator_id text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_operator ON sessions (operator_id);
CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  operator_id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_tokens_operator ON api_tokens (operator_id, created_at);
`,
  },
  {
    version: 4,
    name: "what the worker read from inbound media",
    // A transcript, a receipt's slots, a document's text or why it could not be read.
    sql: `
ALTER TABLE messages ADD COLUMN reading jsonb;
`,
  },
  {
    version: 5,
    name: "campaigns",
    // Beside the message log, so an audience of a million customers lives in the database, not
    // in Redis. `limited_until`: when the number's messaging limit last held this campaign back.
    sql: `
CREATE TABLE campaigns (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  phone_number_id text NOT NULL,
  name text NOT NULL,
  client_key text NOT NULL,
  template jsonb NOT NULL,
  start_at timestamptz,
  timezone text NOT NULL,
  quiet_start text,
  quiet_end text,
  send_rate_mps double precision,
  state text NOT NULL CHECK (state IN ('draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled')),
  state_reason text,
  audience_size integer NOT NULL,
  limited_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Creating is idempotent by the client's key.
  UNIQUE (tenant_id, client_key)
);
CREATE INDEX campaigns_tenant_created ON campaigns (tenant_id, created_at);
-- The scheduler's scans (scheduled, running) and the running campaigns of one number.
CREATE INDEX campaigns_state_number ON campaigns (state, phone_number_id);

-- One row per audience member; seq is its place in the audience, from 1.
CREATE TABLE campaign_recipients (
  campaign_id text NOT NULL,
  seq integer NOT NULL,
  customer_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('to', 'recipient')),
  params jsonb NOT NULL,
  timezone text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'skipped', 'unknown')),
  attempts integer NOT NULL DEFAULT 0,
  -- Times an unknown send was put back to pending (sent once more).
  resends integer NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL DEFAULT 'epoch',
  owner text,
  lease_until timestamptz,
  claimed_at timestamptz,
  unknown_since timestamptz,
  wamid text,
  error_code integer,
  reason text,
  -- Delivery progress from status webhooks, forward only.
  status text CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  replied_at timestamptz,
  opted_out_at timestamptz,
  handoff_at timestamptz,
  checkout_at timestamptz,
  pricing_category text,
  billable boolean,
  PRIMARY KEY (campaign_id, seq)
);
-- Claims walk a campaign's pending rows in seq order (no sort), filtering out those not yet due;
-- reports count by state from the same index.
CREATE INDEX campaign_recipients_claim ON campaign_recipients (campaign_id, state, seq);
-- Replies quoting a campaign message; the tenant is checked through the campaign.
CREATE INDEX campaign_recipients_wamid ON campaign_recipients (wamid) WHERE wamid IS NOT NULL;
-- Recovery: expired claims and unknown sends, across campaigns.
CREATE INDEX campaign_recipients_recover ON campaign_recipients (state, lease_until)
  WHERE state IN ('sending', 'unknown');
-- Opt-outs counted against the last campaign message a customer got.
CREATE INDEX campaign_recipients_customer_sent ON campaign_recipients (customer_id, sent_at)
  WHERE sent_at IS NOT NULL;

-- Customers each number started a conversation with, for the moving-window messaging limit: at is
-- when the customer's place in the window was taken; rows past the window are pruned by claims.
CREATE TABLE messaging_window (
  phone_number_id text NOT NULL,
  customer_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (phone_number_id, customer_id)
);
CREATE INDEX messaging_window_number_at ON messaging_window (phone_number_id, at);

CREATE TABLE suppressions (
  tenant_id text NOT NULL,
  customer_id text NOT NULL,
  source text NOT NULL CHECK (source IN ('keyword', 'button', 'import', 'meta', 'api')),
  at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, customer_id)
);

CREATE TABLE number_standings (
  phone_number_id text PRIMARY KEY,
  messaging_limit integer,
  quality text NOT NULL CHECK (quality IN ('GREEN', 'YELLOW', 'RED', 'UNKNOWN')),
  updated_at timestamptz NOT NULL
);
`,
  },
];
