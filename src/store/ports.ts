import type { DeliveryStatus } from "../delivery/index.js";
import type { MediaReading } from "../whatsapp/index.js";

/** Who answers a conversation: the bot, a human agent, or nobody for now. */
export type StoredConversationMode = "bot" | "human" | "paused";

/** One customer message as the message log keeps it. */
export interface InboundRecord {
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly wamid: string;
  /** The customer's wa_id, or business-scoped user id when there is no number. */
  readonly customerId: string;
  /** The customer's profile name, as the webhook's `contacts` gave it; the console shows and searches it. */
  readonly customerName?: string;
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
  /** The operator who wrote it (their id); absent: the bot. */
  readonly sentBy?: string;
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

/** One tool call of an agent turn, as the console shows it: secrets already masked, sizes bounded. */
export interface ToolCallRecord {
  readonly name: string;
  /** The arguments the model gave, as JSON text (bounded). */
  readonly arguments: string;
  /** What the tool answered, or its error, as text (bounded). */
  readonly result: string;
  readonly ok: boolean;
}

/** What the LLM agent used and did in a turn. */
export interface AgentUsageRecord {
  readonly outcome: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly tools: readonly string[];
  /** Each tool call with its arguments and result; absent on turns recorded before it was kept. */
  readonly calls?: readonly ToolCallRecord[];
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
  /** Outbound only: the operator who wrote it; absent: the bot. */
  readonly sentBy?: string;
  /** Inbound only: what the worker read from the media (recordMediaReading). */
  readonly reading?: MediaReading;
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
  /** The business number (the key's middle part). */
  readonly phoneNumberId: string;
  readonly customerId?: string;
  /** The newest profile name the customer's messages carried. */
  readonly customerName?: string;
  readonly mode: StoredConversationMode;
  readonly assignedAgent?: string;
  /** ms since the epoch. */
  readonly lastActivityAt: number;
  /** The customer's newest message, ms since the epoch (the 24-hour window runs from it). */
  readonly lastInboundAt?: number;
  /**
   * The customer's oldest message not answered since (no outbound message after it), ms since the
   * epoch; absent when the last word was ours. A handoff's wait runs from it.
   */
  readonly awaitingReplySince?: number;
  /** A customer message came after an operator last opened the conversation (or none ever did). */
  readonly unread: boolean;
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

/** Which conversations a console list shows. */
export type ConversationView =
  /** Every conversation. */
  | "all"
  /** Mode `human`: handed off or taken over. */
  | "needs_human"
  /** Assigned to `ConversationQuery.assignedTo`. */
  | "mine"
  | "bot"
  | "paused"
  /** A customer message newer than the last time an operator opened it. */
  | "unread";

export interface ConversationQuery {
  /** The tenants the reader may see; at least one. */
  readonly tenantIds: readonly string[];
  readonly phoneNumberId?: string;
  /** Default `all`. */
  readonly view?: ConversationView;
  /** Needed by the `mine` view: the operator's id. */
  readonly assignedTo?: string;
  /**
   * Matches a customer id prefix, or (case-insensitively) part of the customer's name or of any
   * message's text or caption. Trimmed; empty means no search.
   */
  readonly search?: string;
}

/** An operator's internal note on a conversation: never sent to the customer. */
export interface NoteRecord {
  readonly tenantId: string;
  readonly conversationKey: string;
  readonly operatorId: string;
  readonly text: string;
  /** ms since the epoch. */
  readonly at: number;
}

export interface StoredNote extends NoteRecord {
  readonly id: string;
}

/** One time bucket of a dashboard's activity, across the asked tenants. */
export interface ActivityBucket {
  /** The bucket's start, ms since the epoch (a multiple of the bucket size). */
  readonly at: number;
  readonly inbound: number;
  /** Our messages queued, the operators' included. */
  readonly outbound: number;
  readonly operatorMessages: number;
  readonly turns: number;
  /** Turns the router answered without the agent (`resolved`). */
  readonly localTurns: number;
  /** Turns the LLM agent ran in. */
  readonly agentTurns: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  /** Deliveries Meta reported failed, by their status time. */
  readonly failedDeliveries: number;
}

/** Failed deliveries by Meta's error code. */
export interface DeliveryFailureCount {
  readonly code: number;
  readonly title?: string;
  readonly count: number;
}

export interface HandoffQueueStats {
  /** Conversations in mode `human` whose customer waits for an answer. */
  readonly waiting: number;
  /** The longest-waiting one's `awaitingReplySince`, ms since the epoch. */
  readonly oldestWaitingSince?: number;
}

/** The console's reads over the message log: filtered lists, turns, notes and dashboard figures. */
export interface ConsoleQueries {
  /** Conversations by last activity, newest first, keyset-paged like `listConversations`. */
  findConversations(query: ConversationQuery, options: PageOptions): Promise<Page<ConversationSummary>>;
  conversation(conversationKey: string): Promise<ConversationSummary | undefined>;
  /** The conversation's turns, newest first. */
  turnsOf(conversationKey: string, options: PageOptions): Promise<Page<TurnRecord>>;
  /** Throws `StoreUnknownConversationError` for a conversation with no recorded message. */
  addNote(note: NoteRecord): Promise<StoredNote>;
  /** Newest first. */
  notesOf(conversationKey: string, limit: number): Promise<StoredNote[]>;
  /** An operator opened the conversation at `atMs`: it is no longer unread (forward-only). */
  markSeen(conversationKey: string, atMs: number): Promise<void>;
  /** Buckets of `bucketMs` from `sinceMs` (rounded down to a bucket) to now, oldest first; empty buckets included. */
  activity(tenantIds: readonly string[], sinceMs: number, bucketMs: number): Promise<ActivityBucket[]>;
  /** Most frequent first. */
  deliveryFailures(tenantIds: readonly string[], sinceMs: number): Promise<DeliveryFailureCount[]>;
  handoffQueue(tenantIds: readonly string[]): Promise<HandoffQueueStats>;
  /** When the newest customer message of these tenants was received, ms since the epoch. */
  lastInboundAt(tenantIds: readonly string[]): Promise<number | undefined>;
}

export type OperatorRole = "admin" | "agent";

/** A role on one tenant, or on every tenant (`tenantId` "*"). */
export interface OperatorGrant {
  readonly tenantId: string;
  readonly role: OperatorRole;
}

export interface OperatorRecord {
  readonly id: string;
  /** Lower-cased; unique. */
  readonly email: string;
  readonly name: string;
  /** The KDF's self-describing hash string; never leaves the server. */
  readonly passwordHash: string;
  readonly grants: readonly OperatorGrant[];
  /** ms since the epoch. */
  readonly createdAt: number;
}

export interface SessionRecord {
  /** SHA-256 of the cookie's token, hex: the token itself is never stored. */
  readonly idHash: string;
  readonly operatorId: string;
  /** Sent back in `x-csrf-token` on every state-changing request. */
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface ApiTokenRecord {
  readonly id: string;
  /** SHA-256 of the token, hex. */
  readonly tokenHash: string;
  readonly operatorId: string;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt?: number;
  readonly revokedAt?: number;
}

/** Operator accounts, sessions and API tokens, in the message log's database. */
export interface OperatorStore {
  /** `exists` when the e-mail (case-insensitively) is taken; nothing is changed then. */
  createOperator(operator: OperatorRecord): Promise<"created" | "exists">;
  operatorByEmail(email: string): Promise<OperatorRecord | undefined>;
  operatorById(id: string): Promise<OperatorRecord | undefined>;
  /** By e-mail. */
  listOperators(): Promise<OperatorRecord[]>;
  setPassword(operatorId: string, passwordHash: string): Promise<void>;
  setGrants(operatorId: string, grants: readonly OperatorGrant[]): Promise<void>;
  createSession(session: SessionRecord): Promise<void>;
  /** The session if it exists and has not expired at `nowMs`. */
  session(idHash: string, nowMs: number): Promise<SessionRecord | undefined>;
  /** Moves a session's expiry (sliding sessions). */
  extendSession(idHash: string, expiresAt: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  /** Ends every session of the operator (a password change). */
  deleteSessionsOf(operatorId: string): Promise<void>;
  createApiToken(token: ApiTokenRecord): Promise<void>;
  /** The token if it exists and is not revoked; records `nowMs` as its last use. */
  useApiToken(tokenHash: string, nowMs: number): Promise<ApiTokenRecord | undefined>;
  apiTokensOf(operatorId: string): Promise<ApiTokenRecord[]>;
  revokeApiToken(id: string, nowMs: number): Promise<void>;
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
  /**
   * What the worker read from an inbound message's media (a transcript, a receipt's slots, a
   * document's text, or why it could not be read), kept beside the message; the latest wins.
   * "applied" when the message was found.
   */
  recordMediaReading(
    tenantId: string,
    conversationKey: string,
    wamid: string,
    reading: MediaReading,
  ): Promise<"applied" | "unknown_message">;
  /** Conversations by last activity, newest first. */
  listConversations(tenantId: string, options: PageOptions): Promise<Page<ConversationSummary>>;
  /** Inbound and outbound together, newest first. */
  messagesOf(conversationKey: string, options: PageOptions): Promise<Page<StoredMessage>>;
  /** Conversations whose customer id starts with `customerIdPrefix`, by last activity. */
  searchByCustomer(tenantId: string, customerIdPrefix: string, limit: number): Promise<ConversationSummary[]>;
  /** Deletes the tenant's rows older than `cutoffMs` (ms since the epoch). */
  purgeOlderThan(tenantId: string, cutoffMs: number): Promise<PurgeCounts>;
  /** The console's reads and notes. */
  readonly console: ConsoleQueries;
  readonly operators: OperatorStore;
}
