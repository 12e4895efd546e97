/**
 * Redis key layout of the inbound side (prefix = REDIS_PREFIX, default "ss").
 *
 *   {p}:stats                    hash  seq (arrival counter), inbox (waiting messages)
 *   {p}:inboxes                  zset  conversationKey → first arrival ms (conversations with waiting messages)
 *   {p}:ready                    zset  conversationKey → ms when its turn is due; a score in the future is a
 *                                      scheduler's lease while it creates the BullMQ turn job
 *   {p}:wamid:{tenant}:{wamid}   str   "p" recorded, not yet handled | "d" handled; expires after the dedupe TTL
 *   {p}:inbox:{conversationKey}  zset  wamid → Meta timestamp × 10⁶ + arrival counter mod 10⁶
 *   {p}:msg:{conversationKey}    hash  wamid → message JSON
 *   {p}:turnload:{tenant}:{n}    str   turn jobs scheduled for the tenant in fairness window n (see turn-scheduler)
 *   {p}:state:{conversationKey}  hash  mode, priorityUntil (written by the conversation state store)
 *   {p}:turns:…                  BullMQ's own keys for the turns queue
 *   {p}:events:stream, …         the events stream and its retry set, dead letters and marks (redis-event-stream.ts)
 *
 * One Redis primary (with replicas/Sentinel) holds them all; Redis Cluster is
 * not supported because one script touches several conversations at once.
 */
export function createKeys(prefix: string) {
  return {
    stats: `${prefix}:stats`,
    inboxes: `${prefix}:inboxes`,
    ready: `${prefix}:ready`,
    mark: (tenantId: string, wamid: string) => `${prefix}:wamid:${tenantId}:${wamid}`,
    inbox: (conversationKey: string) => `${prefix}:inbox:${conversationKey}`,
    messages: (conversationKey: string) => `${prefix}:msg:${conversationKey}`,
    turnLoad: (tenantId: string, window: number) => `${prefix}:turnload:${tenantId}:${window}`,
    /** Same key as the conversation state store's hash (src/conversation/conversation-state.ts). */
    conversationState: (conversationKey: string) => `${prefix}:state:${conversationKey}`,
  };
}

export type RedisKeys = ReturnType<typeof createKeys>;
