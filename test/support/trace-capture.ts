import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { createLogger, createTracing, type Tracing } from "../../src/observability/index.js";
import { eventually } from "./eventually.js";

/** Tracing as a process makes it, its spans kept in memory (the SDK's own InMemorySpanExporter). */
export interface TraceCapture {
  readonly tracing: Tracing;
  /** Every span ended so far (the batch flushed first). */
  spans(): Promise<ReadableSpan[]>;
  /** Waits until a span named `name` has ended (and `count` of them), then answers all spans. */
  until(name: string, count?: number, timeoutMs?: number): Promise<ReadableSpan[]>;
  close(): Promise<void>;
}

export function captureTraces(role = "test"): TraceCapture {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing(undefined, {
    logger: createLogger({ level: "silent" }),
    role,
    exporter,
  });
  const spans = async () => {
    await tracing.flush();
    return exporter.getFinishedSpans();
  };
  return {
    tracing,
    spans,
    async until(name, count = 1, timeoutMs = 15_000) {
      await eventually(
        async () => (await spans()).filter((span) => span.name === name).length >= count,
        timeoutMs,
        50,
      );
      return spans();
    },
    close: () => tracing.close(),
  };
}

export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The one span named `name` (fails when there are more or none). */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) {
    throw new Error(
      `expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(", ")}`,
    );
  }
  return found[0] as ReadableSpan;
}

/** Everything a span carries that a backend would store: name, attributes, status, events, links, resource. */
export function exportedText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
      links: span.links.map((link) => link.attributes ?? {}),
      resource: span.resource.attributes,
    })),
  );
}
