export {
  type ApplyStatusEventDeps,
  createApplyStatusEvent,
  OUTSIDE_WINDOW_CODE,
} from "./apply-status-event.js";
export { createDeliveryMetrics, type DeliveryMetrics } from "./delivery-metrics.js";
export {
  createEventJobHandler,
  createEventsWorker,
  type EventsWorker,
  type EventsWorkerDeps,
  type EventsWorkerOptions,
} from "./events-worker.js";
export type {
  ApplyOutcome,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryStatusStore,
  StatusUpdate,
} from "./ports.js";
export {
  createRedisDeliveryStatusStore,
  deliveryKey,
  type RedisDeliveryStatusStoreOptions,
} from "./redis-delivery-status-store.js";
export {
  createSqliteDeliveryStatusStore,
  type SqliteDeliveryStatusStore,
  type SqliteDeliveryStatusStoreOptions,
} from "./sqlite-delivery-status-store.js";
export { isDeliveryStatus, SEEN_RANK, STATUS_RANK } from "./status-rank.js";
export { statusUpdateOf } from "./status-update-of.js";
