export {
  createEventsWorker,
  type EventsWorker,
  type EventsWorkerDeps,
  type EventsWorkerOptions,
} from "./events-worker.js";
export {
  createRedisDeliveryStatusStore,
  deliveryKey,
  type RedisDeliveryStatusStoreOptions,
} from "./redis-delivery-status-store.js";
