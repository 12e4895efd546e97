export {
  closeRedis,
  connectRedis,
  refuseEviction,
  requireRedisUrl,
  warnIfVolatile,
} from "./redis-connection.js";
