import type { MessageStore } from "../store/index.js";
import { tenantOfConversation } from "../whatsapp/index.js";
import type { ConsoleEventBus } from "./ports.js";

/**
 * The message log with each change announced on the bus after it is
 * written (and only when something changed: a duplicate is no news), so
 * every writer of the log, in any process, feeds the live console.
 */
export function publishingMessageStore(store: MessageStore, bus: ConsoleEventBus): MessageStore {
  const queries = store.console;
  return {
    listConversations: (tenantId, options) => store.listConversations(tenantId, options),
    messagesOf: (conversationKey, options) => store.messagesOf(conversationKey, options),
    searchByCustomer: (tenantId, prefix, limit) => store.searchByCustomer(tenantId, prefix, limit),
    purgeOlderThan: (tenantId, cutoffMs) => store.purgeOlderThan(tenantId, cutoffMs),
    operators: store.operators,
    async recordInbound(message) {
      const outcome = await store.recordInbound(message);
      if (outcome === "recorded") {
        bus.publish({
          kind: "message",
          tenantId: message.tenantId,
          conversationKey: message.conversationKey,
          direction: "inbound",
          type: message.type,
          at: message.receivedAt,
        });
      }
      return outcome;
    },
    async recordOutbound(reply) {
      const outcome = await store.recordOutbound(reply);
      if (outcome === "recorded") {
        bus.publish({
          kind: "message",
          tenantId: reply.tenantId,
          conversationKey: reply.conversationKey,
          direction: "outbound",
          type: reply.type,
          at: reply.queuedAt,
        });
      }
      return outcome;
    },
    async updateDelivery(tenantId, wamid, status, at, error) {
      const outcome = await store.updateDelivery(tenantId, wamid, status, at, error);
      if (outcome === "applied") bus.publish({ kind: "status", tenantId, wamid, status });
      return outcome;
    },
    async setConversationState(conversationKey, state) {
      await store.setConversationState(conversationKey, state);
      bus.publish({
        kind: "mode",
        tenantId: tenantOfConversation(conversationKey),
        conversationKey,
        mode: state.mode,
        ...(state.assignedAgent === undefined ? {} : { assignedAgent: state.assignedAgent }),
      });
    },
    async recordMediaReading(tenantId, conversationKey, wamid, reading) {
      const outcome = await store.recordMediaReading(tenantId, conversationKey, wamid, reading);
      // A message that changed: the console reads the conversation again and shows the transcript.
      if (outcome === "applied") {
        bus.publish({
          kind: "message",
          tenantId,
          conversationKey,
          direction: "inbound",
          type: reading.kind,
          at: Date.now(),
        });
      }
      return outcome;
    },
    async recordTurn(turn) {
      const outcome = await store.recordTurn(turn);
      if (outcome === "recorded") {
        bus.publish({
          kind: "turn",
          tenantId: turn.tenantId,
          conversationKey: turn.conversationKey,
          turnId: turn.turnId,
        });
      }
      return outcome;
    },
    console: {
      findConversations: (query, options) => queries.findConversations(query, options),
      conversation: (conversationKey) => queries.conversation(conversationKey),
      turnsOf: (conversationKey, options) => queries.turnsOf(conversationKey, options),
      notesOf: (conversationKey, limit) => queries.notesOf(conversationKey, limit),
      markSeen: (conversationKey, atMs) => queries.markSeen(conversationKey, atMs),
      activity: (tenantIds, sinceMs, bucketMs) => queries.activity(tenantIds, sinceMs, bucketMs),
      deliveryFailures: (tenantIds, sinceMs) => queries.deliveryFailures(tenantIds, sinceMs),
      handoffQueue: (tenantIds) => queries.handoffQueue(tenantIds),
      lastInboundAt: (tenantIds) => queries.lastInboundAt(tenantIds),
      async addNote(note) {
        const stored = await queries.addNote(note);
        bus.publish({ kind: "note", tenantId: note.tenantId, conversationKey: note.conversationKey });
        return stored;
      },
    },
  };
}
