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
];
