/**
 * Redis key layout of the inbound side (prefix = REDIS_PREFIX, default "ss").
 *
 *   {p}:stats                    hash  inbox (waiting messages), turnseq (the ready set's arrival counter)
 *   {p}:inboxes                  zset  conversationKey → first arrival ms (conversations with waiting messages)
 *   {p}:ready                    zset  conversationKey → rank (priority × 2³² + arrival): turns a worker may claim now
 *   {p}:turns:delayed            zset  conversationKey → ms when its turn may be claimed (coalescing, retry, backoff)
 *   {p}:turns:leased             zset  conversationKey → ms when the claiming worker's lease ends
 *   {p}:turns:lease              hash  conversationKey → the lease's token (whose the lease is)
 *   {p}:turns:failures           hash  conversationKey → runs that failed in a row (the backoff)
 *   {p}:turns:wake               channel: published when the ready set stops being empty
 *   {p}:wamid:{tenant}:{wamid}   str   "p" recorded, not yet handled | "d" handled; expires after the dedupe TTL
 *   {p}:inbox:{conversationKey}  zset  wamid → Meta timestamp × 10⁶ + arrival counter mod 10⁶
 *   {p}:msg:{conversationKey}    hash  wamid → message JSON
 *   {p}:turnload:{tenant}:{n}    str   turns the tenant was given in fairness window n (see turn-claim-scripts.ts)
 *   {p}:state:{conversationKey}  hash  mode, priorityUntil (written by the conversation state store)
 *   {p}:events:stream, …         the events stream and its retry set, dead letters and marks (redis-event-stream.ts)
 *
 * One Redis primary (with replicas/Sentinel) holds them all. On a Redis
 * Cluster the prefix is hash-tagged (`{ss}`, see config/topology-config.ts), so
 * every key, BullMQ's included, hashes to one slot: the scripts touch several
 * conversations and the shared turn sets at once, and declare only some of
 * the keys they touch. A cluster then gives failover, not sharding.
 */
export function createKeys(prefix: string) {
  return {
    stats: `${prefix}:stats`,
    inboxes: `${prefix}:inboxes`,
    ready: `${prefix}:ready`,
    delayedTurns: `${prefix}:turns:delayed`,
    leasedTurns: `${prefix}:turns:leased`,
    turnLeases: `${prefix}:turns:lease`,
    turnFailures: `${prefix}:turns:failures`,
    turnWakeChannel: `${prefix}:turns:wake`,
    mark: (tenantId: string, wamid: string) => `${prefix}:wamid:${tenantId}:${wamid}`,
    inbox: (conversationKey: string) => `${prefix}:inbox:${conversationKey}`,
    messages: (conversationKey: string) => `${prefix}:msg:${conversationKey}`,
    /** Same key as the conversation state store's hash (src/conversation/conversation-state.ts). */
    conversationState: (conversationKey: string) => `${prefix}:state:${conversationKey}`,
  };
}

export type RedisKeys = ReturnType<typeof createKeys>;
