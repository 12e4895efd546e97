import type {
  AudienceMember,
  Campaign,
  CampaignConversion,
  CampaignDefinition,
  CampaignRecipient,
  CampaignReport,
  CampaignState,
  CampaignStatusUpdate,
  RecipientOutcome,
} from "./campaign-types.js";

/** What a sender asks for when it takes the next recipients of a campaign. */
export interface ClaimRequest {
  readonly campaignId: string;
  /** Who holds the claim (process and runner), so only it settles them. */
  readonly owner: string;
  readonly limit: number;
  readonly now: number;
  /** A claim not settled within this is its sender's death: the recipient becomes `unknown`, ms. */
  readonly leaseMs: number;
  /** Recipients in these time zones are in their quiet hours now: not claimed. */
  readonly quietTimezones: readonly string[];
  /**
   * The number's messaging limit: unique customers it may start conversations with in the moving
   * window, counted across every campaign of the number; absent: unlimited.
   */
  readonly messagingLimit?: number;
  /** The messaging limit's window, ms (Meta: 24 h). */
  readonly windowMs: number;
}

export interface ClaimResult {
  /** Claimed (now `sending`), in audience order. Opted-out customers met on the way are skipped, not claimed. */
  readonly recipients: readonly CampaignRecipient[];
  /**
   * Set when the messaging limit held recipients back: the earliest time a place in the window frees
   * up, ms since the epoch.
   */
  readonly limitedUntil?: number;
}

/** What recovery did. */
export interface RecoveryResult {
  /** Claims whose sender died (lease over): now `unknown`. */
  readonly unknown: number;
  /** `unknown` recipients no status came back for within the grace: pending again. */
  readonly resent: number;
}

/**
 * Campaigns and their audiences, in the database (SQLite embedded, PostgreSQL distributed), so an
 * audience of a million customers never sits in Redis. Every change is one transaction: claims
 * are exclusive across processes, and each recipient is settled once.
 */
export interface CampaignStore {
  /**
   * Creates a campaign in `draft` with its audience, or answers the one this tenant already made with
   * this client key (`created: false`; the audience given is then ignored). A customer listed twice is
   * kept once (the first), the others counted as skipped duplicates.
   */
  create(
    definition: CampaignDefinition,
    audience: readonly AudienceMember[],
    now: number,
  ): Promise<{ readonly campaign: Campaign; readonly created: boolean }>;
  get(tenantId: string, campaignId: string): Promise<Campaign | undefined>;
  /** Newest first; every tenant's when `tenantId` is absent. */
  list(tenantId?: string): Promise<Campaign[]>;
  /**
   * Moves a campaign from one of `from` to `to` (compare and set). Answers the campaign after the
   * move, or undefined when it was not in one of `from`. Cancelling also skips its pending recipients.
   */
  transition(
    tenantId: string,
    campaignId: string,
    from: readonly CampaignState[],
    to: CampaignState,
    now: number,
    reason?: string,
  ): Promise<Campaign | undefined>;
  /** Moves scheduled campaigns whose start has come to `running`; answers every running campaign. */
  runnable(now: number): Promise<Campaign[]>;
  /** Running campaigns sending from this number (to pause them). */
  runningOnNumber(phoneNumberId: string): Promise<Campaign[]>;
  /** Takes the next due recipients (see ClaimRequest): pending → sending. */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** Settles a claimed recipient; false (and nothing changed) when `owner` no longer holds it. */
  settle(
    campaignId: string,
    seq: number,
    owner: string,
    outcome: RecipientOutcome,
    now: number,
  ): Promise<boolean>;
  /**
   * Claims past their lease become `unknown`; `unknown` recipients that no status has come back for
   * after `unknownGraceMs` are pending again (sent once more).
   */
  recover(now: number, unknownGraceMs: number): Promise<RecoveryResult>;
  /** Completes a running campaign with nothing left pending, sending or unknown; true when it did. */
  completeIfDone(campaignId: string, now: number): Promise<boolean>;
  /**
   * Applies a status of a campaign message, forward only; a `sent` status of an `unknown` (or still
   * `sending`) recipient proves Meta sent it, which settles it as sent. False for no such recipient.
   */
  applyStatus(update: CampaignStatusUpdate): Promise<boolean>;
  /** The campaign recipient a message of ours (by wamid) went to, for replies quoting it. */
  findByWamid(tenantId: string, wamid: string): Promise<{ campaignId: string; seq: number } | undefined>;
  /** Counts a reply to a campaign message (once per recipient). */
  recordReply(campaignId: string, seq: number, at: number): Promise<void>;
  /** Counts an opt-out against the last campaign that reached this customer within `withinMs`. */
  recordOptOut(tenantId: string, customerId: string, at: number, withinMs: number): Promise<void>;
  /**
   * Counts a handoff to a human or a checkout against the last campaign that reached this customer
   * within `withinMs` (once per recipient and kind).
   */
  recordConversion(
    tenantId: string,
    customerId: string,
    kind: CampaignConversion,
    at: number,
    withinMs: number,
  ): Promise<void>;
  report(tenantId: string, campaignId: string, now: number): Promise<CampaignReport | undefined>;
}

/** How a customer came to be on the suppression list. */
export type SuppressionSource = "keyword" | "button" | "import" | "meta" | "api";

/** A tenant's customers who asked for no more campaign messages. Campaigns skip them. */
export interface SuppressionList {
  /** Idempotent; the first source is kept. */
  optOut(tenantId: string, customerId: string, source: SuppressionSource, at: number): Promise<void>;
  /** True when the customer was on the list (and is now off it). */
  optIn(tenantId: string, customerId: string): Promise<boolean>;
  isSuppressed(tenantId: string, customerId: string): Promise<boolean>;
  /** How many customers the tenant has on the list. */
  count(tenantId: string): Promise<number>;
}

/** Meta's quality rating of a number. */
export type NumberQuality = "GREEN" | "YELLOW" | "RED" | "UNKNOWN";

/** What Meta last told us of a business number's standing. */
export interface NumberStanding {
  readonly phoneNumberId: string;
  /** Unique customers per moving 24 h; absent: unlimited. */
  readonly messagingLimit?: number;
  readonly quality: NumberQuality;
  readonly updatedAt: number;
}

/** The standing of each business number, updated from Meta's webhooks. */
export interface NumberStandings {
  get(phoneNumberId: string): Promise<NumberStanding | undefined>;
  set(standing: NumberStanding): Promise<void>;
}
