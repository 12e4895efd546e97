export { createRedisEventBus, type RedisEventBusDeps } from "./redis-event-bus.js";
