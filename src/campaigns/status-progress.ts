import type { CampaignStatusUpdate, DeliveryStatus, RecipientState } from "./campaign-types.js";

/** What a status may change of a recipient, times in ms. */
export interface StatusFields {
  readonly state: RecipientState;
  readonly wamid: string | null;
  readonly status: DeliveryStatus | null;
  readonly errorCode: number | null;
  readonly sentAt: number | null;
  readonly deliveredAt: number | null;
  readonly readAt: number | null;
  readonly failedAt: number | null;
  readonly pricingCategory: string | null;
  readonly billable: boolean | null;
}

const RANK: Record<DeliveryStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 0 };

const earliest = (known: number | null, at: number) => (known === null ? at : Math.min(known, at));

/**
 * The recipient after a status, forward only: sent < delivered < read, and failed ends it unless it
 * was already delivered or read. Any status carries a wamid Meta gave the send, so a recipient not
 * yet settled (sending, unknown, or pending again after recovery) is settled as sent by it. A
 * failed recipient stays as it is. Undefined when the recipient's wamid is another message's.
 */
export function progressOf(row: StatusFields, update: CampaignStatusUpdate): StatusFields | undefined {
  if (row.wamid !== null && row.wamid !== update.wamid) return undefined;
  if (row.state === "failed") return row;
  const pricing =
    update.pricingCategory === undefined
      ? {}
      : { pricingCategory: update.pricingCategory, billable: update.billable ?? row.billable };
  const settled = {
    ...row,
    ...pricing,
    state: "sent" as const,
    wamid: update.wamid,
    sentAt: row.sentAt ?? update.at,
  };
  const current = row.status === null ? 0 : RANK[row.status];
  if (update.status === "failed") {
    if (row.status === "delivered" || row.status === "read") return settled;
    return {
      ...settled,
      state: "failed",
      status: "failed",
      failedAt: update.at,
      errorCode: update.errorCode ?? row.errorCode,
    };
  }
  const status = RANK[update.status] > current ? update.status : row.status;
  if (update.status === "delivered")
    return { ...settled, status, deliveredAt: earliest(row.deliveredAt, update.at) };
  if (update.status === "read") {
    // Meta may skip `delivered`: a read message was delivered.
    return {
      ...settled,
      status,
      readAt: earliest(row.readAt, update.at),
      deliveredAt: row.deliveredAt ?? update.at,
    };
  }
  return { ...settled, status };
}
