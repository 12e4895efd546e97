import type { ConversationStateStore } from "../../conversation/index.js";
import { StoreUnknownConversationError } from "../errors.js";
import type { MessageStore } from "../ports.js";
import type { BestEffort } from "./best-effort.js";

/**
 * Copies each mode change (a handoff to a human) to the message log, best
 * effort, after the delegate set it. A conversation with no recorded message
 * yet has nothing to show the mode on: that is no failure. The mode goes
 * without an assigned agent: the bot never assigns one.
 */
export function recordingConversationState(
  inner: ConversationStateStore,
  store: MessageStore,
  bestEffort: BestEffort,
): ConversationStateStore {
  return {
    recent: (conversationKey, limit) => inner.recent(conversationKey, limit),
    append: (conversationKey, entries) => inner.append(conversationKey, entries),
    mode: (conversationKey) => inner.mode(conversationKey),
    async setMode(conversationKey, mode) {
      await inner.setMode(conversationKey, mode);
      await bestEffort(`the "${mode}" mode`, { conversationKey }, async () => {
        try {
          await store.setConversationState(conversationKey, { mode });
        } catch (error) {
          if (!(error instanceof StoreUnknownConversationError)) throw error;
        }
      });
    },
    markPriority: (conversationKey, untilMs) => inner.markPriority(conversationKey, untilMs),
  };
}
