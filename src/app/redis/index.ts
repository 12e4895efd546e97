export {
  describeRedisServer,
  openRedisClient,
  type RedisClientSpec,
  redisClientSpec,
} from "./redis-clients.js";
export {
  closeRedis,
  connectRedis,
  refuseEviction,
  requireRedisServer,
  warnIfFailoverLosesWrites,
  warnIfVolatile,
} from "./redis-connection.js";
