import type {
  Campaign,
  CampaignRecipient,
  CampaignState,
  CampaignTemplate,
  RecipientState,
} from "./campaign-types.js";

/** A time column as a driver hands it back: a `Date` from PostgreSQL's timestamptz, ms from SQLite. */
export type TimeValue = Date | number;

export function msOf(value: TimeValue): number {
  return typeof value === "number" ? value : value.getTime();
}

/** A JSON column as a driver hands it back: parsed from PostgreSQL's jsonb, text from SQLite. */
type JsonValue<T> = T | string;

function parsed<T>(value: JsonValue<T>): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/** A campaigns row, in the column names both adapters select. */
export interface CampaignRow {
  id: string;
  tenant_id: string;
  phone_number_id: string;
  name: string;
  client_key: string;
  template: JsonValue<CampaignTemplate>;
  start_at: TimeValue | null;
  timezone: string;
  quiet_start: string | null;
  quiet_end: string | null;
  send_rate_mps: number | null;
  state: string;
  state_reason: string | null;
  audience_size: number;
  created_at: TimeValue;
  updated_at: TimeValue;
}

export function campaignOf(row: CampaignRow): Campaign {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    phoneNumberId: row.phone_number_id,
    name: row.name,
    clientKey: row.client_key,
    template: parsed(row.template),
    ...(row.start_at === null ? {} : { startAt: msOf(row.start_at) }),
    timezone: row.timezone,
    ...(row.quiet_start === null || row.quiet_end === null
      ? {}
      : { quietHours: { start: row.quiet_start, end: row.quiet_end } }),
    ...(row.send_rate_mps === null ? {} : { sendRateMps: row.send_rate_mps }),
    state: row.state as CampaignState,
    ...(row.state_reason === null ? {} : { stateReason: row.state_reason }),
    audienceSize: row.audience_size,
    createdAt: msOf(row.created_at),
    updatedAt: msOf(row.updated_at),
  };
}

/** The recipient columns a claim hands back. */
export interface RecipientRow {
  campaign_id: string;
  seq: number;
  customer_id: string;
  kind: string;
  params: JsonValue<string[]>;
  timezone: string;
  state: string;
  attempts: number;
  not_before: TimeValue;
  wamid: string | null;
  error_code: number | null;
  reason: string | null;
}

export const RECIPIENT_COLUMNS =
  "campaign_id, seq, customer_id, kind, params, timezone, state, attempts, not_before, wamid, error_code, reason";

export function recipientOf(row: RecipientRow): CampaignRecipient {
  return {
    campaignId: row.campaign_id,
    seq: row.seq,
    customerId: row.customer_id,
    kind: row.kind as CampaignRecipient["kind"],
    params: parsed(row.params),
    timezone: row.timezone,
    state: row.state as RecipientState,
    attempts: row.attempts,
    notBefore: msOf(row.not_before),
    ...(row.wamid === null ? {} : { wamid: row.wamid }),
    ...(row.error_code === null ? {} : { errorCode: row.error_code }),
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}
