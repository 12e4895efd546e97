import type { ConversationInbox } from "../../queue/index.js";
import type { MessageStore } from "../ports.js";
import { inboundRecordOf } from "./record-of.js";

/**
 * Records each message the turn worker reads, before it handles them. A
 * store failure rejects the read, so the turn runs again later with its
 * messages untouched; the writes are idempotent on (tenant, wamid), so a
 * message read by several runs (coalescing, retries) is kept once.
 */
export function recordingInbox(inner: ConversationInbox, store: MessageStore): ConversationInbox {
  return {
    async read(conversationKey, limit) {
      const messages = await inner.read(conversationKey, limit);
      // One at a time: the log's order of arrival follows the inbox's order.
      for (const message of messages) await store.recordInbound(inboundRecordOf(message));
      return messages;
    },
    complete: (conversationKey, wamids) => inner.complete(conversationKey, wamids),
  };
}
