import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import {
  ATTR_ERROR_TYPE,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
} from "@opentelemetry/semantic-conventions";
import type { TraceSamplerName, TracingConfig } from "../config/index.js";
import type { Logger } from "./logger.js";
import {
  type ActiveSpan,
  errorTypeOf,
  type SpanAttributes,
  type SpanKindName,
  type SpanOptions,
  type Tracing,
  tracingOff,
} from "./tracing.js";

export interface CreateTracingOptions {
  readonly logger: Logger;
  /** The process's part (`embedded`, `ingress`, `worker`), as the resource's `sharpsharp.role`. */
  readonly role: string;
  /** The resource's service.version. */
  readonly version?: string;
  /** Replaces the OTLP exporter (tests: the SDK's InMemorySpanExporter). */
  readonly exporter?: SpanExporter;
  /** A failed export is logged at most once per this long, ms; default 60,000. */
  readonly exportWarningEveryMs?: number;
}

const KINDS: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

const propagator = new W3CTraceContextPropagator();

function contextOf(traceparent: string | undefined): Context {
  if (traceparent === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
}

function linksOf(traceparents: readonly (string | undefined)[] | undefined): Link[] {
  const links: Link[] = [];
  for (const traceparent of traceparents ?? []) {
    const spanContext = trace.getSpanContext(contextOf(traceparent));
    if (spanContext !== undefined) links.push({ context: spanContext });
  }
  return links;
}

function attributesOf(given: SpanAttributes | undefined): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) kept[key] = value;
  return kept;
}

function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  return carrier.traceparent;
}

function samplerOf(name: TraceSamplerName, ratio: number): Sampler {
  const root =
    name === "always_off" || name === "parentbased_always_off"
      ? new AlwaysOffSampler()
      : name === "traceidratio" || name === "parentbased_traceidratio"
        ? new TraceIdRatioBasedSampler(ratio)
        : new AlwaysOnSampler();
  return name.startsWith("parentbased_") ? new ParentBasedSampler({ root }) : root;
}

/** The OTLP/HTTP exporter, with failures logged (throttled) instead of lost in the SDK's silent diag channel. */
function loggingExporter(inner: SpanExporter, logger: Logger, everyMs: number): SpanExporter {
  let lastWarning = Number.NEGATIVE_INFINITY;
  let failedSince = 0;
  return {
    export(spans, done) {
      inner.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          failedSince += spans.length;
          if (Date.now() - lastWarning >= everyMs) {
            lastWarning = Date.now();
            logger.warn(
              { err: result.error, spansLost: failedSince },
              "could not export trace spans to the OTLP endpoint; they are dropped",
            );
            failedSince = 0;
          }
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * Tracing on OpenTelemetry's SDK: one tracer provider of the process's own
 * (nothing registered globally), its spans batched to the OTLP/HTTP exporter
 * (protobuf or JSON) or to `options.exporter`, sampled as the configuration
 * says; parents and links are read from traceparents with the W3C propagator.
 * Off (no configuration, no exporter given): `tracingOff`.
 */
export function createTracing(config: TracingConfig | undefined, options: CreateTracingOptions): Tracing {
  const exporter =
    options.exporter ??
    (config === undefined
      ? undefined
      : loggingExporter(
          config.protocol === "http/json"
            ? new OtlpJsonExporter({ url: config.url, headers: { ...config.headers } })
            : new OtlpProtobufExporter({ url: config.url, headers: { ...config.headers } }),
          options.logger,
          options.exportWarningEveryMs ?? 60_000,
        ));
  if (exporter === undefined) return tracingOff;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config?.serviceName ?? "sharpsharp",
      ...(options.version === undefined ? {} : { [ATTR_SERVICE_VERSION]: options.version }),
      "sharpsharp.role": options.role,
    }),
    sampler: samplerOf(config?.sampler ?? "parentbased_always_on", config?.samplerRatio ?? 1),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("sharpsharp");

  const handleOf = (span: Span): ActiveSpan => {
    let traceparent: string | undefined;
    return {
      get traceparent() {
        traceparent ??= traceparentOf(span);
        return traceparent;
      },
      setAttributes(attributes) {
        span.setAttributes(attributesOf(attributes));
      },
      fail(errorType) {
        span.setAttribute(ATTR_ERROR_TYPE, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
      },
    };
  };

  return {
    enabled: true,
    async inSpan(name, spanOptions: SpanOptions, work) {
      const span = tracer.startSpan(
        name,
        {
          kind: KINDS[spanOptions.kind ?? "internal"],
          attributes: attributesOf(spanOptions.attributes),
          links: linksOf(spanOptions.links),
        },
        contextOf(spanOptions.parent),
      );
      const handle = handleOf(span);
      try {
        return await work(handle);
      } catch (error) {
        handle.fail(errorTypeOf(error));
        throw error;
      } finally {
        span.end();
      }
    },
    // A failed export was logged by the exporter: traces are never worth failing a shutdown for.
    flush: () => provider.forceFlush().catch(() => {}),
    close: () => provider.shutdown().catch(() => {}),
  };
}
