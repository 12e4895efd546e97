/** Where a campaign stands. draft → scheduled → running ⇄ paused → completed, or cancelled from any but completed. */
export type CampaignState = "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";

/** Meta's template categories, as the statuses' pricing objects name them. */
export type TemplateCategory = "marketing" | "utility" | "authentication";

/** The approved template a campaign sends; each recipient fills its body's parameters. */
export interface CampaignTemplate {
  readonly name: string;
  /** Meta's language code, e.g. "en" or "en_US". */
  readonly language: string;
  /** Marketing templates are the ones Meta caps per user (131049) and customers opt out of. */
  readonly category: TemplateCategory;
  /** The body text with {{1}}… placeholders, kept for history and reports; optional. */
  readonly bodyText?: string;
}

/** Hours in which nobody is sent a campaign message, in the recipient's own time zone. */
export interface QuietHours {
  /** "21:00": quiet from then... */
  readonly start: string;
  /** "08:00": ...until then (the next day when end ≤ start). */
  readonly end: string;
}

/** What a client asks for when it creates a campaign. */
export interface CampaignDefinition {
  readonly tenantId: string;
  /** The business number it sends from. */
  readonly phoneNumberId: string;
  readonly name: string;
  /** Makes creating idempotent: the same key for the same tenant answers the campaign already made. */
  readonly clientKey: string;
  readonly template: CampaignTemplate;
  /** When it may start sending, ms since the epoch; absent: as soon as it is started. */
  readonly startAt?: number;
  /** IANA time zone of recipients that name none; default Africa/Lagos (WAT). */
  readonly timezone: string;
  readonly quietHours?: QuietHours;
  /** Its own cap, messages/s; absent: what the number's campaign share allows. */
  readonly sendRateMps?: number;
}

/** One customer of an audience: a phone number (wa_id) or a business-scoped user id, and their parameters. */
export interface AudienceMember {
  /** A wa_id (digits), or a business-scoped user id when `kind` is "recipient". */
  readonly customerId: string;
  readonly kind: "to" | "recipient";
  /** The template body's parameters, in order ({{1}}, {{2}}, …). */
  readonly params: readonly string[];
  /** IANA time zone; absent: the campaign's. */
  readonly timezone?: string;
}

export interface Campaign extends CampaignDefinition {
  readonly id: string;
  readonly state: CampaignState;
  /** Why it was paused or cancelled ("quality_red", "tier_downgrade", "operator", …). */
  readonly stateReason?: string;
  readonly audienceSize: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * Where one recipient stands. `sending`: claimed by a sender, the Graph API call may be under way.
 * `unknown`: its sender died mid-send; it is sent again only if no status of it comes back in time.
 */
export type RecipientState = "pending" | "sending" | "sent" | "failed" | "skipped" | "unknown";

/** Why a recipient was skipped without a send. */
export type SkipReason = "opted_out" | "invalid" | "duplicate" | "cancelled";

export interface CampaignRecipient {
  readonly campaignId: string;
  /** Its position in the audience, from 1: stable, and the id its callback data names. */
  readonly seq: number;
  readonly customerId: string;
  readonly kind: "to" | "recipient";
  readonly params: readonly string[];
  readonly timezone: string;
  readonly state: RecipientState;
  /** Failed sends so far (throttles and retries). */
  readonly attempts: number;
  /** Not sent before this, ms since the epoch (retries, quiet hours, the messaging limit). */
  readonly notBefore: number;
  readonly wamid?: string;
  /** Meta's error code of a failed send or status. */
  readonly errorCode?: number;
  /** Skip or give-up reason. */
  readonly reason?: string;
}

/** How a claimed recipient's send ended. */
export type RecipientOutcome =
  | { readonly kind: "sent"; readonly wamid: string }
  | { readonly kind: "failed"; readonly code?: number; readonly reason: string }
  | { readonly kind: "skipped"; readonly reason: SkipReason }
  /**
   * Not sent (Meta refused before sending): try again from `notBefore`. `reason` says why it waits;
   * "messaging_limit" counts it as held for the number's messaging limit in reports.
   */
  | { readonly kind: "retry"; readonly notBefore: number; readonly code?: number; readonly reason?: string }
  /** Meta may or may not have sent it (timeout, lost answer): never sent again blindly. */
  | { readonly kind: "unknown" }
  /**
   * Not attempted (no send slot free now, the number paused, quiet hours): back to pending from
   * `notBefore`, no attempt counted; `reason` "messaging_limit" marks it held by the number's limit.
   */
  | { readonly kind: "release"; readonly notBefore: number; readonly reason?: string };

/** Delivery progress of a sent message, forward only: sent < delivered < read; failed ends it. */
export type DeliveryStatus = "sent" | "delivered" | "read" | "failed";

/** A status webhook as a campaign sees it. */
export interface CampaignStatusUpdate {
  readonly campaignId: string;
  readonly seq: number;
  readonly wamid: string;
  readonly status: DeliveryStatus;
  readonly at: number;
  readonly errorCode?: number;
  /** Meta's pricing category, when the status carried pricing and it was billable. */
  readonly pricingCategory?: string;
  readonly billable?: boolean;
}

/** What a conversation a campaign started led to, as reports count it. */
export type CampaignConversion = "handoff" | "checkout";

/** Counts per campaign, as reports show them. */
export interface CampaignReport {
  readonly campaign: Campaign;
  readonly targeted: number;
  readonly pending: number;
  /** Pending and held back by the number's messaging limit until the window frees up. */
  readonly heldForLimit: number;
  readonly sending: number;
  readonly unknown: number;
  readonly skipped: Readonly<Record<string, number>>;
  readonly sent: number;
  readonly delivered: number;
  readonly read: number;
  readonly failed: Readonly<Record<string, number>>;
  readonly replied: number;
  readonly optedOut: number;
  /** Conversations it started that were handed to a human, and that reached checkout (payment). */
  readonly handoffs: number;
  readonly checkouts: number;
  /** Messages Meta's pricing objects marked billable, by category. */
  readonly billable: Readonly<Record<string, number>>;
  /** Sent per minute, oldest first: [minute start ms, count]. */
  readonly timeline: readonly (readonly [number, number])[];
}
