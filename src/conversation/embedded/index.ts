export { createLocalConversationLock, type LocalConversationLockOptions } from "./local-conversation-lock.js";
export {
  createSqliteConversationState,
  type SqliteConversationStateOptions,
  type SqliteConversationStateStore,
} from "./sqlite-conversation-state.js";
export {
  createSqliteTurnJournal,
  type SqliteTurnJournal,
  type SqliteTurnJournalOptions,
} from "./sqlite-turn-journal.js";
