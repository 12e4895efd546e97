import type { OutboundQueue, SentMessage, SentMessageRecorder } from "../../outbound/index.js";
import type { MessageStore } from "../ports.js";
import type { BestEffort } from "./best-effort.js";
import { outboundRecordOf } from "./record-of.js";

/**
 * Records each reply part as queued, then queues it. A store failure rejects
 * before anything is queued, so the turn retries whole; a part recorded
 * twice (a retried turn) is kept once, on (turnId, part).
 */
export function recordingOutboundQueue(
  inner: OutboundQueue,
  store: MessageStore,
  now: () => number,
): OutboundQueue {
  return {
    async enqueue(replies) {
      const queuedAt = now();
      for (const reply of replies) await store.recordOutbound(outboundRecordOf(reply, queuedAt));
      await inner.enqueue(replies);
    },
  };
}

/**
 * Fills in the wamid Meta gave a sent part, best effort: the message is out
 * already, and a missing wamid only leaves its delivery status unmatched in
 * the console. A part the store has not seen (queued past the recording
 * queue) is recorded from what the sender knows, without its text.
 */
export function recordSentToStore(store: MessageStore, bestEffort: BestEffort) {
  return (message: SentMessage) =>
    bestEffort("a sent message's wamid", message, () => {
      const customerId = message.to ?? message.recipient;
      return store.recordOutbound({
        tenantId: message.tenantId,
        conversationKey: message.conversationKey,
        turnId: message.turnId,
        part: message.part,
        wamid: message.wamid,
        ...(customerId === undefined ? {} : { customerId }),
        type: message.content?.type ?? (message.reengagement === true ? "template" : "unknown"),
        ...(message.content?.text === undefined ? {} : { text: message.content.text }),
        queuedAt: message.sentAt,
      });
    });
}

/** Delegates, then records the wamid in the store whether or not the delegate succeeded. */
export function recordingSentMessages(
  inner: SentMessageRecorder,
  record: (message: SentMessage) => Promise<void>,
): SentMessageRecorder {
  return {
    async recordSent(message) {
      try {
        await inner.recordSent(message);
      } finally {
        await record(message);
      }
    },
  };
}
