import type { TenantConfig } from "../config/index.js";
import type { OutboundMedia } from "../media/media-message-body.js";
import type { InboundMessage, MediaReading } from "../whatsapp/index.js";

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
 * A reply's media: an uploaded `id` or an https `link` (exactly one), a
 * `caption` (image, video, document), a `fileName` (document), `voice` (audio).
 */
export type ReplyMedia = OutboundMedia;

/**
 * One message of a reply, free of Graph API types: a text, optionally with
 * up to 3 reply buttons or (instead) a list; or a media message.
 */
export interface TurnReply {
  readonly text: string;
  readonly buttons?: readonly ReplyButton[];
  readonly list?: ReplyList;
  /**
   * Sends the reply as this media message instead: `text` becomes the caption
   * of an image, video or document that has none; audio and stickers take no
   * caption, so their `text` is not sent (queue it as a reply of its own).
   * Buttons and lists are not sent with media.
   */
  readonly media?: ReplyMedia;
  /** Sending this hands the conversation to a human: the bot stays silent until it is given back. */
  readonly handoff?: boolean;
}

/**
 * Reads a turn's voice notes, images and documents before the responder runs
 * (downloads, speech to text, receipts, PDF text), bounded in time so the
 * conversation's lock is never held for long. Never throws for a medium it
 * cannot read: that message gets a `failure` marker and the customer one line.
 */
export interface TurnMediaReader {
  /** Whether any of these messages has media to read (cheap: no I/O). */
  wants(messages: readonly InboundMessage[]): boolean;
  read(input: {
    readonly tenant: TenantConfig;
    readonly conversationKey: string;
    readonly messages: readonly InboundMessage[];
  }): Promise<TurnMediaRead>;
  /**
   * The turn's replies with a voice note added after each plain text one, when the tenant answers
   * voice notes in kind and the turn had one; the replies unchanged otherwise (and when speech fails).
   */
  answerInKind?(input: {
    readonly tenant: TenantConfig;
    readonly phoneNumberId: string;
    readonly messages: readonly InboundMessage[];
    readonly replies: readonly TurnReply[];
  }): Promise<readonly TurnReply[]>;
}

/** What a turn's media said, by wamid (JSON: it is journaled with the turn). */
export interface TurnMediaReadings {
  readonly readings: Readonly<Record<string, MediaReading>>;
  /** The one line the customer gets when something could not be read (sent before the answer). */
  readonly notice?: TurnReply;
}

/**
 * One picture of the turn as a model with vision is sent it: a `data:` URL of
 * the bytes the worker downloaded (never Meta's URL). Held in memory for one
 * run of the turn only: never journaled, logged or kept in the history.
 */
export interface TurnImage {
  /** `data:<mime>;base64,<bytes>`. */
  readonly dataUrl: string;
  /** Bytes of the picture. */
  readonly size: number;
}

/** A turn's reading: the journaled readings, and the pictures the agent may be sent (this run only). */
export interface TurnMediaRead extends TurnMediaReadings {
  /** By wamid: the pictures of a tenant whose agent sees images (`media.agentImages`), within a size bound. */
  readonly images?: Readonly<Record<string, TurnImage>>;
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
  /** The turn's journaled steps: what an earlier run of this turn did is replayed, not done again. */
  readonly steps?: TurnSteps;
  /** The W3C traceparent of the turn's span, the parent of the router's and the agent's; when tracing is on. */
  readonly traceparent?: string;
  /**
   * This run's pictures by wamid, for an agent whose model sees images. Absent when a
   * resumed run took the reading from the journal (the bytes are never journaled).
   */
  readonly images?: Readonly<Record<string, TurnImage>>;
}

/** One tool call of an agent turn as an operator may see it. */
export interface AgentToolCall {
  readonly name: string;
  /** JSON text, secrets masked, at most 2,000 characters. */
  readonly arguments: string;
  /** The tool's answer or error, secrets masked, at most 2,000 characters. */
  readonly result: string;
  readonly ok: boolean;
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
  /** The agent's tool calls with their arguments and results, secrets masked and sizes bounded (for the console). */
  readonly toolCalls?: readonly AgentToolCall[];
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

/**
 * A short lease on one conversation, so two turns of it never run at once.
 * The holder renews it while its turn runs, so the lease can be short (a
 * dead worker's conversation is free again within `ttlMs`) while a turn is long.
 */
export interface ConversationLock {
  /** How long a lease lasts without renewal, ms. */
  readonly ttlMs: number;
  /** A token when the lease is taken, `undefined` when another turn holds it. */
  acquire(conversationKey: string): Promise<string | undefined>;
  /** Renews the lease for another `ttlMs` if `token` still holds it; false when it does not. */
  extend(conversationKey: string, token: string): Promise<boolean>;
  /** Gives the lease back if `token` still holds it (an expired lease is left to its new holder). */
  release(conversationKey: string, token: string): Promise<void>;
}

/** A turn as it was begun: its id and its exact messages, so every run of it answers the same set. */
export interface JournaledTurn {
  readonly turnId: string;
  /** All the turn's messages (stale ones included), in the order the inbox gave them. */
  readonly messages: readonly InboundMessage[];
  /** ms since the epoch. */
  readonly startedAt: number;
}

/** A begun turn picked up again by a later run (after a failure, a crash or a shutdown). */
export interface ResumedTurn extends JournaledTurn {
  /** Runs of this turn so far, this one included: 2 on the first run after the one that began it. */
  readonly attempts: number;
  /** What earlier runs recorded, by step name (JSON values). */
  readonly steps: ReadonlyMap<string, unknown>;
}

/** A turn that failed too often and was taken out of the way, kept for an operator. */
export interface SetAsideTurn extends JournaledTurn {
  readonly conversationKey: string;
  readonly attempts: number;
  /** Why, in a few words (the last error's message, bounded). */
  readonly reason: string;
  /** ms since the epoch. */
  readonly setAsideAt: number;
}

/**
 * The turn journal: a conversation's turn in progress, written before the
 * responder runs, and each step's result (an LLM completion, a tool's output,
 * the replies) recorded before the next step. A run that finds a begun turn
 * answers exactly its messages and replays the recorded steps instead of
 * doing them again. One turn per conversation at a time (the conversation
 * lock sees to that).
 */
export interface TurnJournal {
  /** Begins a turn (replacing whatever the conversation had): attempts 1, no steps. */
  begin(conversationKey: string, turn: JournaledTurn): Promise<void>;
  /** The conversation's begun, unfinished turn with its attempts counted up for this run; undefined if none. */
  resume(conversationKey: string): Promise<ResumedTurn | undefined>;
  /**
   * Records a step's result (JSON-serialisable) if `turnId` is still the conversation's turn; resolves
   * once the record is durable, or, for a `repeatable` step, once it is written (see StepOptions).
   */
  record(
    conversationKey: string,
    turnId: string,
    step: string,
    value: unknown,
    options?: StepOptions,
  ): Promise<void>;
  /**
   * Throws TurnJournalError if a record of this run may have been lost after it was written: in embedded
   * mode a repeatable step's record shares a later commit, and a commit that failed (a full disk) took
   * it, while the writes after it may still commit. Called just before the turn queues its replies, with
   * no wait on I/O or a timer between, so the check and the queued replies share one commit; the next run
   * goes on from what the journal kept. Journals whose records are durable once written leave it out.
   */
  assertWritesKept?(conversationKey: string, turnId: string): void;
  /**
   * True when a commit failed since this run began or resumed the turn (see assertWritesKept), or `error`
   * is a write the store refused: the run failed for want of a disk, not on its own, and its attempt is
   * given back. Journals whose records are durable once written leave it out.
   */
  writesLost?(conversationKey: string, error?: unknown): boolean;
  /**
   * This run's attempt does not count: it gave the turn back untried (the agent's slots were busy), or it
   * failed for want of a disk (writesLost). Kept even if its own write is not: the next resume counts less.
   */
  release(conversationKey: string, turnId: string): Promise<void>;
  /** Ends the turn if `turnId` is still the conversation's turn. */
  finish(conversationKey: string, turnId: string): Promise<void>;
  /** Ends the turn as set aside: it stays listed, with `reason`, for an operator. */
  setAside(conversationKey: string, turnId: string, reason: string): Promise<void>;
  /** The newest set-aside turns first. */
  setAsideTurns(limit: number): Promise<SetAsideTurn[]>;
}

/**
 * A turn's steps as the responder sees them: `once(name, run)` gives the
 * result an earlier run of this turn recorded under `name`, else runs `run`
 * and records its result before returning it. Names must be the same in
 * every run for the same step (number them by their place in the turn).
 */
export interface TurnSteps {
  once<T>(step: string, run: () => Promise<T>, options?: StepOptions): Promise<T>;
}

/** How a step's record must be kept before the turn goes on. */
export interface StepOptions {
  /**
   * Running the step again after a crash only costs (a download, a model's answer), and what the turn
   * does with its result outside the process is written after it. Its record may then share a later
   * commit instead of waiting for one of its own: the embedded journal commits it with the writes that
   * follow (the replies queued, the turn's end), within milliseconds and before any reply is sent.
   * Default false: the record is durable before the turn goes on (a tool that moved money is not
   * called twice).
   */
  readonly repeatable?: boolean;
}
