export {
  createRedisConversationLock,
  type RedisConversationLockOptions,
} from "./redis-conversation-lock.js";
export {
  createRedisConversationState,
  type RedisConversationStateOptions,
} from "./redis-conversation-state.js";
export { createRedisTurnJournal, type RedisTurnJournalOptions } from "./redis-turn-journal.js";
export {
  createTurnWorker,
  type TurnWorker,
  type TurnWorkerDeps,
  type TurnWorkerOptions,
} from "./turn-worker.js";
