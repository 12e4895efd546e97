import type { DeliveryStatus } from "../delivery/index.js";

/** Who answers a conversation: the bot, a human agent, or nobody for now. */
export type StoredConversationMode = "bot" | "human" | "paused";

/** One customer message as the message log keeps it. */
export interface InboundRecord {
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly wamid: string;
  /** The customer's wa_id, or business-scoped user id when there is no number. */
  readonly customerId: string;
  readonly type: string;
  readonly text?: string;
  readonly mediaId?: string;
  readonly caption?: string;
  /**
   * The message's whole normalised content (a reaction's emoji and target, a
   * location, contact cards, order items, a Flow's response, a system change…),
   * as JSON; the columns above are what the console lists and searches.
   */
  readonly content?: unknown;
  /** Meta's timestamp, Unix seconds. */
  readonly metaTimestamp: number;
  /** When the ingress received it, ms since the epoch; orders the log. */
  readonly receivedAt: number;
}

/** One part of one of our replies as the message log keeps it. */
export interface OutboundRecord {
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly turnId: string;
  /** 0-based index of this message within the turn's reply. */
  readonly part: number;
  /** Our message's wamid, once Meta accepted it; recording again with it fills it in. */
  readonly wamid?: string;
  /** Known when the conversation may not have been recorded yet (a proactive message). */
  readonly customerId?: string;
  readonly type: string;
  readonly text?: string;
  /** The Graph API message body, as queued. */
  readonly body?: unknown;
  /** When the reply was queued, ms since the epoch; orders the log. */
  readonly queuedAt: number;
}

/** What the router decided for a turn. */
export interface RouterDecisionRecord {
  readonly intent: string;
  readonly confidence: number;
  readonly resolved: boolean;
  readonly tier: string;
}

/** What the LLM agent used and did in a turn. */
export interface AgentUsageRecord {
  readonly outcome: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly tools: readonly string[];
}

export interface TurnRecord {
  readonly turnId: string;
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly decision: RouterDecisionRecord;
  /** Absent when the router answered without the agent. */
  readonly agent?: AgentUsageRecord;
  /** When the turn ended, ms since the epoch. */
  readonly at: number;
}

export interface ConversationState {
  readonly mode: StoredConversationMode;
  /** The human agent handling the conversation; absent clears it. */
  readonly assignedAgent?: string;
}

/** The latest status Meta reported for one of our messages. */
export interface DeliveryInfo {
  readonly status: DeliveryStatus;
  /** ms since the epoch. */
  readonly at: number;
  readonly errorCode?: number;
  readonly errorTitle?: string;
}

/** One line of a conversation, inbound or outbound. */
export interface StoredMessage {
  readonly direction: "inbound" | "outbound";
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly wamid?: string;
  readonly customerId?: string;
  readonly turnId?: string;
  readonly part?: number;
  readonly type: string;
  readonly text?: string;
  readonly body?: unknown;
  readonly mediaId?: string;
  readonly caption?: string;
  /** Inbound only: the whole normalised content (InboundRecord.content); absent for rows older than it. */
  readonly content?: unknown;
  /** Inbound only: Meta's timestamp, Unix seconds. */
  readonly metaTimestamp?: number;
  /** Received (inbound) or queued (outbound), ms since the epoch. */
  readonly at: number;
  /** Outbound only, once Meta reported a status. */
  readonly delivery?: DeliveryInfo;
}

export interface ConversationSummary {
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly customerId?: string;
  readonly mode: StoredConversationMode;
  readonly assignedAgent?: string;
  /** ms since the epoch. */
  readonly lastActivityAt: number;
  /** The newest message, its text cut to a preview. */
  readonly lastMessage?: {
    readonly direction: "inbound" | "outbound";
    readonly type: string;
    readonly preview?: string;
    readonly at: number;
  };
}

export interface PageOptions {
  /** At most this many items (1–500). */
  readonly limit: number;
  /** The `next` cursor of the previous page; absent starts at the newest. */
  readonly before?: string;
}

export interface Page<T> {
  readonly items: T[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  readonly next?: string;
}

/** `recorded`: a new row; `duplicate`: already there (a redelivery or a retried turn). */
export type RecordOutcome = "recorded" | "duplicate";

/** `applied`: the status moved forward; `stale_ignored`: it was already as far or further, or failed. */
export type DeliveryUpdateOutcome = "applied" | "stale_ignored";

/** Rows deleted by a retention purge, per table. */
export interface PurgeCounts {
  readonly messages: number;
  readonly deliveries: number;
  readonly turns: number;
  readonly conversations: number;
}

/**
 * The message log: what customers wrote, what we answered and how it was
 * delivered, conversation state and turn decisions, plus the queries the
 * console needs. Every write is idempotent, so queue retries are safe.
 */
export interface MessageStore {
  /** Idempotent on (tenant, wamid). */
  recordInbound(message: InboundRecord): Promise<RecordOutcome>;
  /** Idempotent on (turnId, part); a repeat that knows the wamid fills it in. */
  recordOutbound(reply: OutboundRecord): Promise<RecordOutcome>;
  /**
   * Forward-only: sent < delivered < read < played < deleted; `failed` replaces sent or
   * delivered, keeps Meta's error, and is final. `at` is ms since the epoch.
   * A status may arrive before its message is recorded; it is kept all the same.
   */
  updateDelivery(
    tenantId: string,
    wamid: string,
    status: DeliveryStatus,
    at: number,
    error?: { readonly code: number; readonly title: string },
  ): Promise<DeliveryUpdateOutcome>;
  /** Throws `StoreUnknownConversationError` for a conversation with no recorded message. */
  setConversationState(conversationKey: string, state: ConversationState): Promise<void>;
  /** Idempotent on turnId. */
  recordTurn(turn: TurnRecord): Promise<RecordOutcome>;
  /** Conversations by last activity, newest first. */
  listConversations(tenantId: string, options: PageOptions): Promise<Page<ConversationSummary>>;
  /** Inbound and outbound together, newest first. */
  messagesOf(conversationKey: string, options: PageOptions): Promise<Page<StoredMessage>>;
  /** Conversations whose customer id starts with `customerIdPrefix`, by last activity. */
  searchByCustomer(tenantId: string, customerIdPrefix: string, limit: number): Promise<ConversationSummary[]>;
  /** Deletes the tenant's rows older than `cutoffMs` (ms since the epoch). */
  purgeOlderThan(tenantId: string, cutoffMs: number): Promise<PurgeCounts>;
}
