import type { IncomingHttpHeaders } from "node:http";

/** How a recorded request ended (so far). */
export type FakeLlmOutcome = "pending" | "hung" | "answered" | "dropped" | "abandoned";

/** An image a request carried (in any user message), for assertions: never its bytes. */
export interface FakeLlmImageRecord {
  /** `data`: a data URL, decoded; `url`: an http(s) URL, noted and not fetched. */
  readonly source: "data" | "url";
  /** The declared type of a data URL. */
  readonly mimeType?: string;
  /** Decoded bytes of a data URL. */
  readonly bytes?: number;
  readonly sha256?: string;
  /** The remote URL, for `url` images. */
  readonly url?: string;
  readonly detail: "auto" | "low" | "high";
}

/** One chat-completions call and what the fake answered. */
export interface FakeLlmRequestRecord {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  /** Request headers; the `authorization` value is replaced by `[redacted]`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when it was not JSON. */
  readonly body: unknown;
  /** ms since the epoch, on the fake's clock. */
  readonly receivedAt: number;
  /**
   * `hung`: held right now; `dropped`: held until the fake closed, never answered;
   * `abandoned`: the client gave up (closed the connection) while held or delayed.
   */
  readonly outcome: FakeLlmOutcome;
  /** The HTTP status answered. */
  readonly status?: number;
  readonly answeredAt?: number;
  /** OpenAI's error `code` (or `type` when it has none) of an error answer. */
  readonly error?: string;
  /** Which rule answered: its index, `default`, or `forced` (tool_choice). */
  readonly rule?: number | "default" | "forced";
  /** Images of a valid request's user messages, in order (absent when it had none). */
  readonly images?: readonly FakeLlmImageRecord[];
  /** A valid request's `response_format`: its type, and the json_schema's name. */
  readonly responseFormat?: { readonly type: string; readonly name?: string };
}

type Change = Partial<
  Pick<
    FakeLlmRequestRecord,
    "outcome" | "status" | "answeredAt" | "error" | "rule" | "images" | "responseFormat"
  >
>;

export interface Records {
  add(record: Omit<FakeLlmRequestRecord, "seq" | "outcome">): number;
  update(seq: number, change: Change): void;
  list(): FakeLlmRequestRecord[];
  clear(): void;
}

/** Headers as plain strings, with the API key taken out. */
export function recordableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = name === "authorization" ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** A bounded log of requests; the oldest go first past `maxRecords`. */
export function createRecords(maxRecords: number): Records {
  let records = new Map<number, FakeLlmRequestRecord>();
  let seq = 0;
  return {
    add(record) {
      seq += 1;
      records.set(seq, { seq, outcome: "pending", ...record });
      if (records.size > maxRecords) {
        // Trimming in steps keeps adds cheap under a load test.
        const keep = [...records.entries()].slice(Math.ceil(maxRecords / 10) + records.size - maxRecords);
        records = new Map(keep);
      }
      return seq;
    },
    update(at, change) {
      const record = records.get(at);
      if (record !== undefined) records.set(at, { ...record, ...change });
    },
    list: () => [...records.values()],
    clear() {
      records = new Map();
    },
  };
}
