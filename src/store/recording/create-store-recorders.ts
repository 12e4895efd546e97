import type { ConversationStateStore, TurnDecisionHook } from "../../conversation/index.js";
import type { DeliveryStatusStore } from "../../delivery/index.js";
import type { Logger } from "../../observability/index.js";
import type { OutboundQueue, SentMessageRecorder } from "../../outbound/index.js";
import type { ConversationInbox } from "../../queue/index.js";
import type { InboundMessage } from "../../whatsapp/index.js";
import type { MessageStore, RecordOutcome } from "../ports.js";
import { createBestEffort } from "./best-effort.js";
import { recordingConversationState } from "./record-conversation-state.js";
import { recordingDeliveryStatuses } from "./record-deliveries.js";
import { recordingInbox } from "./record-inbox.js";
import { inboundRecordOf } from "./record-of.js";
import { recordingOutboundQueue, recordingSentMessages, recordSentToStore } from "./record-outbound.js";
import { recordTurnDecisions } from "./record-turns.js";

export interface StoreRecordersOptions {
  /** ms since the epoch, for queue and turn times; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Decorators that record the worker's traffic in the message log, each
 * wrapping one existing port and behaving as it does otherwise. Inbound and
 * queued replies are recorded before the turn moves on (a failure rejects and
 * the turn retries; every write is idempotent); wamids, statuses, modes and
 * turn records are best effort (a failure is a warning).
 */
export interface StoreRecorders {
  /** Records each message `read` returns; a store failure rejects the read. */
  inbox(inner: ConversationInbox): ConversationInbox;
  /** Records a message that never reaches an inbox (recorded, not answered); a store failure rejects. */
  recordMessage(message: InboundMessage): Promise<RecordOutcome>;
  /** Records each reply part as queued before delegating; a store failure rejects, nothing queued. */
  outboundQueue(inner: OutboundQueue): OutboundQueue;
  /** Fills in the wamid of each sent part after delegating; best effort. */
  sentMessages(inner: SentMessageRecorder): SentMessageRecorder;
  /** Copies each applied status to the log; `recordSent` as `sentMessages`; best effort. */
  deliveryStatuses(inner: DeliveryStatusStore): DeliveryStatusStore;
  /** Copies each `setMode` to the log's conversation state; best effort. */
  conversationState(inner: ConversationStateStore): ConversationStateStore;
  /** Pass as the responder's `onTurnDecision`: one turn record per turn; best effort. */
  readonly onTurnDecision: TurnDecisionHook;
}

export function createStoreRecorders(
  store: MessageStore,
  logger: Logger,
  options: StoreRecordersOptions = {},
): StoreRecorders {
  const now = options.now ?? Date.now;
  const bestEffort = createBestEffort(logger);
  const recordSent = recordSentToStore(store, bestEffort);
  return {
    inbox: (inner) => recordingInbox(inner, store),
    recordMessage: (message) => store.recordInbound(inboundRecordOf(message)),
    outboundQueue: (inner) => recordingOutboundQueue(inner, store, now),
    sentMessages: (inner) => recordingSentMessages(inner, recordSent),
    deliveryStatuses: (inner) => recordingDeliveryStatuses(inner, store, bestEffort, recordSent),
    conversationState: (inner) => recordingConversationState(inner, store, bestEffort),
    onTurnDecision: recordTurnDecisions(store, bestEffort, now),
  };
}
