import type { SqliteDatabase } from "../../sqlite/index.js";
import type { ConsoleQueries } from "../ports.js";
import { createSqliteDashboardQueries } from "./dashboard-queries.js";
import { createSqliteFindConversations } from "./find-conversations.js";
import { createSqliteTurnsAndNotes } from "./turns-and-notes.js";

/** The console's reads and notes over the SQLite log, each synchronous call wrapped as a promise. */
export function createSqliteConsole(db: SqliteDatabase, now: () => number): ConsoleQueries {
  const lists = createSqliteFindConversations(db);
  const turnsAndNotes = createSqliteTurnsAndNotes(db);
  const dashboard = createSqliteDashboardQueries(db, now);
  return {
    findConversations: async (query, options) => lists.findConversations(query, options),
    conversation: async (conversationKey) => lists.conversation(conversationKey),
    turnsOf: async (conversationKey, options) => turnsAndNotes.turnsOf(conversationKey, options),
    addNote: async (note) => turnsAndNotes.addNote(note),
    notesOf: async (conversationKey, limit) => turnsAndNotes.notesOf(conversationKey, limit),
    markSeen: async (conversationKey, atMs) => turnsAndNotes.markSeen(conversationKey, atMs),
    activity: async (tenantIds, sinceMs, bucketMs) => dashboard.activity(tenantIds, sinceMs, bucketMs),
    deliveryFailures: async (tenantIds, sinceMs) => dashboard.deliveryFailures(tenantIds, sinceMs),
    handoffQueue: async (tenantIds) => dashboard.handoffQueue(tenantIds),
    lastInboundAt: async (tenantIds) => dashboard.lastInboundAt(tenantIds),
  };
}
