import type { ParsedEnv, TraceSamplerName } from "./env-schema.js";

/** Where and how traces are exported (OTLP over HTTP); absent from AppConfig when tracing is off. */
export interface TracingConfig {
  /** The full traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces). */
  readonly url: string;
  readonly protocol: "http/protobuf" | "http/json";
  /** Sent with every export; the values are secrets (an API key, usually). */
  readonly headers: Readonly<Record<string, string>>;
  /** The resource's service.name (OTEL_SERVICE_NAME, default "sharpsharp"). */
  readonly serviceName: string;
  readonly sampler: TraceSamplerName;
  /** The ratio of the traceidratio samplers, 0–1 (OTEL_TRACES_SAMPLER_ARG, default 1). */
  readonly samplerRatio: number;
}

function parseHeaders(list: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (list === undefined) return headers;
  for (const pair of list.split(",")) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim().toLowerCase();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: kept as written.
    }
    headers[name] = value;
  }
  return headers;
}

/**
 * Tracing is off unless an OTLP endpoint is set; OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none turn it off even then. The traces-specific
 * variables win over the general ones, as the OpenTelemetry specification says.
 */
export function tracingConfigOf(env: ParsedEnv): TracingConfig | undefined {
  if (env.OTEL_SDK_DISABLED === "true" || env.OTEL_TRACES_EXPORTER === "none") return undefined;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const url =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base === undefined ? undefined : `${base}/v1/traces`);
  if (url === undefined) return undefined;
  return {
    url,
    protocol: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf",
    headers: {
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    serviceName: env.OTEL_SERVICE_NAME,
    sampler: env.OTEL_TRACES_SAMPLER,
    samplerRatio: env.OTEL_TRACES_SAMPLER_ARG ?? 1,
  };
}
