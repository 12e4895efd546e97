export { type AdminAppOptions, buildAdminApp } from "./build-admin-app.js";
export { buildHealthApp, type HealthAppOptions } from "./build-health-app.js";
export { type CellCounter, type CounterCell, createCellCounter } from "./counter-cells.js";
export { observabilityErrorCatalog } from "./errors.js";
export {
  type AdminRoutesOptions,
  type ReadyCheck,
  registerAdminRoutes,
  registerPublicHealthRoutes,
} from "./health-routes.js";
export {
  type CreateLoggerOptions,
  createLogger,
  fingerprint,
  type Logger,
  maskConversationKey,
  maskCustomerId,
} from "./logger.js";
export {
  type CreateIngressMetricsOptions,
  createIngressMetrics,
  type IngressMetrics,
  type QueueDepthSample,
  type WebhookOutcome,
} from "./metrics.js";
export { type CreateTracingOptions, createTracing } from "./otel-tracing.js";
export { createQueueMetrics, type JobQueueSample, type QueueMetricsOptions } from "./queue-metrics.js";
export { createLineRedactor } from "./redact-values.js";
export {
  type ActiveSpan,
  errorTypeOf,
  type SpanAttributes,
  type SpanKindName,
  type SpanOptions,
  type Tracing,
  tracingOff,
} from "./tracing.js";
