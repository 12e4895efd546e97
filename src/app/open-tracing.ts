import type { AppConfig } from "../config/index.js";
import { createTracing, type Logger, type Tracing } from "../observability/index.js";
import type { CloseStack } from "./process-lifecycle.js";

/**
 * The process's tracing: the one its caller gives (owned by the caller), or
 * one made from config.tracing, closed (its last spans exported) as the
 * process's final shutdown step. Off unless an OTLP endpoint is configured.
 */
export function openTracing(
  config: AppConfig,
  given: Tracing | undefined,
  role: string,
  logger: Logger,
  opened: CloseStack,
): Tracing {
  if (given !== undefined) return given;
  const tracing = createTracing(config.tracing, { logger, role });
  if (tracing.enabled) {
    opened.push(() => tracing.close());
    logger.info(
      { traces: config.tracing?.url, sampler: config.tracing?.sampler, protocol: config.tracing?.protocol },
      "OpenTelemetry traces on",
    );
  }
  return tracing;
}
