export {
  type ApplyStatusEventDeps,
  createApplyStatusEvent,
  OUTSIDE_WINDOW_CODE,
} from "./apply-status-event.js";
export { createDeliveryMetrics, type DeliveryMetrics } from "./delivery-metrics.js";
export {
  createEventJobHandler,
  type EventJobHandlerDeps,
} from "./event-job-handler.js";
export type {
  ApplyOutcome,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryStatusStore,
  StatusUpdate,
} from "./ports.js";
export { isDeliveryStatus, SEEN_RANK, STATUS_RANK } from "./status-rank.js";
export { statusUpdateOf } from "./status-update-of.js";
