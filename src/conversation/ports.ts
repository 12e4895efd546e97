import type { TenantConfig } from "../config/index.js";
import type { InboundMessage } from "../whatsapp/index.js";

/** A reply button: `id` comes back as the customer's `replyId` when tapped. */
export interface ReplyButton {
  /** At most 256 characters. */
  readonly id: string;
  /** At most 20 characters (Meta's limit). */
  readonly title: string;
}

/** One row of a list reply: `id` comes back as the customer's `replyId` when chosen. */
export interface ReplyListRow {
  /** At most 200 characters. */
  readonly id: string;
  /** At most 24 characters. */
  readonly title: string;
  /** At most 72 characters. */
  readonly description?: string;
}

/** A list reply: a button that opens sections of rows (Meta: at most 10 rows in all). */
export interface ReplyList {
  /** The button's label, at most 20 characters. */
  readonly button: string;
  readonly sections: readonly { readonly title?: string; readonly rows: readonly ReplyListRow[] }[];
}

/**
 * One message of a reply, free of Graph API types: a text, optionally with
 * up to 3 reply buttons or (instead) a list.
 */
export interface TurnReply {
  readonly text: string;
  readonly buttons?: readonly ReplyButton[];
  readonly list?: ReplyList;
  /** Sending this hands the conversation to a human: the bot stays silent until it is given back. */
  readonly handoff?: boolean;
}

/** What a responder is asked to answer: one turn of one conversation. */
export interface TurnInput {
  readonly tenant: TenantConfig;
  readonly conversationKey: string;
  /** The turn's messages, in Meta-timestamp order (ties by arrival); never empty. */
  readonly messages: readonly InboundMessage[];
  /**
   * The turn's id, as its replies carry it (`turnIdFor` of all its messages,
   * stale ones included, while `messages` may hold the fresh ones only).
   * Absent where a caller builds a turn by hand.
   */
  readonly turnId?: string;
}

/** What the LLM agent used and did in one turn (as its `agent_turn` history entry carries it). */
export type AgentTurnUsage = NonNullable<HistoryEntry["agent"]>;

/** What decided one turn: reported to a responder's `onTurnDecision` hook, for the message log. */
export interface TurnDecision {
  readonly turn: TurnInput;
  /**
   * The router's tier that answered (`reply_id`, `rule`, `classifier`), or
   * `fallback`; `agent` when the LLM agent answered; `confirm` for a
   * Confirm/Cancel tap; `stale` for a replayed turn.
   */
  readonly tier: string;
  /** The intent that answered, else the classifier's best guess; absent when there was none. */
  readonly intent?: string;
  /** 1 for reply ids, rules, taps and stale turns; the classifier's confidence otherwise (0 without one). */
  readonly confidence: number;
  /** True when the turn was answered without the LLM agent or the fallback. */
  readonly resolved: boolean;
  /** Present when the LLM agent ran. */
  readonly agent?: AgentTurnUsage;
}

/**
 * Told what decided each turn the responder answered. Must not reject (a
 * recorder logs its own failures): a failed record must not fail, and so
 * repeat, a turn whose agent already ran.
 */
export type TurnDecisionHook = (decision: TurnDecision) => Promise<void>;

/**
 * Decides what a turn answers. The first responder (buttons and rules) is one;
 * the classifier and the LLM agent plug in here later.
 */
export interface Responder {
  /** The reply to fresh messages, one entry per message to send (may be empty: answer nothing). */
  respond(turn: TurnInput): Promise<readonly TurnReply[]>;
  /**
   * The reply to a turn whose messages are all stale (Meta replayed them long
   * after they were written): never a canned answer as if they had just arrived.
   */
  respondToStale(turn: TurnInput): Promise<readonly TurnReply[]>;
}

/**
 * Thrown by a responder that cannot take the turn now (its tenant's agent
 * slots are all busy): the turn runs again shortly, its messages untouched.
 */
export class ResponderBusyError extends Error {
  override readonly name = "ResponderBusyError";
  constructor(
    message: string,
    /** How long to wait before the turn runs again, ms. */
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * Tells the customer their messages were seen: marks `wamid` (and every
 * earlier message of the thread) read and shows the typing indicator.
 * Best effort: never throws, and returns within a short bound.
 */
export interface TypingIndicator {
  show(tenant: TenantConfig, phoneNumberId: string, wamid: string): Promise<void>;
}

/** One line of a conversation's recent history, as the agent (later) reads it. */
export interface HistoryEntry {
  /** ms since the epoch: Meta's timestamp for the customer's messages, queue time for ours. */
  readonly at: number;
  readonly from: "customer" | "bot";
  readonly type: string;
  readonly text?: string;
  readonly wamid?: string;
  /** For `agent_turn` entries: what the LLM agent used and did. */
  readonly agent?: {
    readonly outcome: string;
    readonly promptTokens: number;
    readonly completionTokens: number;
    readonly costUsd: number;
    readonly llmCalls: number;
    readonly tools: readonly string[];
  };
}

/** Who answers a conversation: the bot, a human agent (the bot stays silent), or nobody for now. */
export type ConversationMode = "bot" | "human" | "paused";

/** Conversation state and recent history (last N entries, expiring when the conversation goes quiet). */
export interface ConversationStateStore {
  /** The newest `limit` entries (default: all kept), oldest first. */
  recent(conversationKey: string, limit?: number): Promise<HistoryEntry[]>;
  append(conversationKey: string, entries: readonly HistoryEntry[]): Promise<void>;
  /** "bot" unless set otherwise. */
  mode(conversationKey: string): Promise<ConversationMode>;
  setMode(conversationKey: string, mode: ConversationMode): Promise<void>;
  /**
   * Marks the conversation urgent (checkout, payment) until `untilMs`: its
   * turns run before ordinary ones (see the turn scheduler's priorities).
   */
  markPriority(conversationKey: string, untilMs: number): Promise<void>;
}

/** A short lease on one conversation, so two turns of it never run at once. */
export interface ConversationLock {
  /** A token when the lease is taken, `undefined` when another turn holds it. */
  acquire(conversationKey: string): Promise<string | undefined>;
  /** Gives the lease back if `token` still holds it (an expired lease is left to its new holder). */
  release(conversationKey: string, token: string): Promise<void>;
}
