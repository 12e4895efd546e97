/**
 * The tracing port: what the gateway's steps need of OpenTelemetry, and
 * nothing of its types. A span's place in a trace travels as a W3C
 * `traceparent` string (`00-<trace id>-<span id>-<flags>`), the one form that
 * survives a queue, a database row and a process boundary alike, so a
 * parent is always passed explicitly, never taken from an ambient context.
 */

/** Values a span may carry. Undefined values are left out. Never message text, phone numbers or secrets. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** How a span relates to the work around it (OpenTelemetry's span kinds). */
export type SpanKindName = "internal" | "server" | "client" | "producer" | "consumer";

export interface SpanOptions {
  readonly kind?: SpanKindName;
  /** The parent's traceparent; absent or malformed: the span starts a trace of its own. */
  readonly parent?: string | undefined;
  /** Spans this one relates to without being their child (a turn's other messages, a status's send). */
  readonly links?: readonly (string | undefined)[];
  readonly attributes?: SpanAttributes;
}

/** A span while it runs. */
export interface ActiveSpan {
  /** This span's traceparent, for its children and for whatever a queue carries; undefined when tracing is off. */
  readonly traceparent: string | undefined;
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed with `errorType` (a code or a class name, never an error's message). */
  fail(errorType: string): void;
}

export interface Tracing {
  /** False when tracing is off: hot paths skip building attributes and carrying a traceparent at all. */
  readonly enabled: boolean;
  /**
   * Runs `work` in a new span that ends when it settles. A throw marks the span
   * failed with the error's code or class name (its message is never kept:
   * it may quote what failed) and is rethrown.
   */
  inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => Promise<T>): Promise<T>;
  /** Exports what is buffered (tests, before reading an exporter). */
  flush(): Promise<void>;
  /** Exports what is buffered and stops; spans started after it are dropped. */
  close(): Promise<void>;
}

const NO_SPAN: ActiveSpan = {
  traceparent: undefined,
  setAttributes() {},
  fail() {},
};

/**
 * Tracing off (the default): no span object is made, no traceparent is
 * carried, `inSpan` only calls its work.
 */
export const tracingOff: Tracing = {
  enabled: false,
  inSpan: (_name, _options, work) => work(NO_SPAN),
  flush: async () => {},
  close: async () => {},
};

/** The error type a failed span records: an error's stable code, else its class name. */
export function errorTypeOf(error: unknown): string {
  if (error !== null && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name)) return name;
  }
  return "Error";
}
