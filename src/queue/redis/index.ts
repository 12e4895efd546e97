export { bullProcessor, JobLockLostError } from "./bull-processor.js";
export { defineScript, type RedisScript } from "./define-script.js";
export {
  createEventStreamRunner,
  type EventStreamRunner,
  type EventStreamRunnerOptions,
} from "./event-stream-runner.js";
export { createKeys, type RedisKeys } from "./keys.js";
export {
  checkRedisPersistence,
  MINIMUM_REDIS_VERSION,
  type PersistenceVerdict,
  redisEvictionPolicy,
  redisGuardsReplicaWrites,
  redisTooOld,
} from "./persistence-check.js";
export { duplicatePatient, isCluster, primariesOf, type RedisClient } from "./redis-client.js";
export {
  connectionOptionsFor,
  createFailFastRedis,
  describeRedisUrl,
  type RedisBehaviour,
  type RedisConnectionOptions,
  reconnectDelayMs,
} from "./redis-connection.js";
export {
  createRedisEventStream,
  EVENTS_GROUP,
  type EventCounts,
  type EventStreamEntry,
  eventStreamKeys,
  type RedisEventStream,
} from "./redis-event-stream.js";
export { createRedisQueues, type RedisQueues, type RedisQueuesOptions } from "./redis-inbound-queue.js";
export {
  type ClaimedTurns,
  createRedisTurnClaims,
  type RedisTurnClaims,
  type RedisTurnClaimsOptions,
  TURN_FAIRNESS_WINDOW_MS,
  type TurnSettlement,
} from "./redis-turn-claims.js";
export {
  type JobQueueDepth,
  SAMPLED_STATES,
  type SampledQueue,
  sampleJobQueues,
} from "./sample-job-queues.js";
