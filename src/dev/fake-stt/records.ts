import type { TranscriptMatch } from "./transcripts.js";

/** How a recorded request ended (so far); as the fake LLM's. */
export type FakeSttOutcome = "pending" | "hung" | "answered" | "dropped" | "abandoned";

/** One call to the fake speech server, and what it answered. */
export interface FakeSttRequestRecord {
  readonly seq: number;
  readonly kind: "transcription" | "speech";
  readonly path: string;
  /** Whether an `Authorization: Bearer` header came (the key itself is never recorded). */
  readonly authorized: boolean;
  readonly model?: string;
  /** The transcription's `language` field as sent. */
  readonly language?: string;
  readonly responseFormat?: string;
  /** Transcription: the uploaded file's name, type, size in bytes and sha256 (hex). */
  readonly fileName?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly sha256?: string;
  /** Speech: the voice and the text. */
  readonly voice?: string;
  readonly input?: string;
  readonly receivedAt: number;
  readonly outcome: FakeSttOutcome;
  readonly status?: number;
  readonly answeredAt?: number;
  /** OpenAI's error `code` (or `type`) of an error answer. */
  readonly error?: string;
  /** Which transcript answered. */
  readonly match?: TranscriptMatch;
}

type Added = Omit<FakeSttRequestRecord, "seq" | "outcome">;
type Change = Partial<Omit<FakeSttRequestRecord, "seq" | "kind" | "path" | "receivedAt">>;

export interface SttRecords {
  add(record: Added): number;
  update(seq: number, change: Change): void;
  list(): FakeSttRequestRecord[];
  clear(): void;
}

/** A bounded log of requests; the oldest go first past `maxRecords`. */
export function createSttRecords(maxRecords: number): SttRecords {
  const records = new Map<number, FakeSttRequestRecord>();
  let seq = 0;
  return {
    add(record) {
      seq += 1;
      records.set(seq, { seq, outcome: "pending", ...record });
      for (const oldest of records.keys()) {
        if (records.size <= maxRecords) break;
        records.delete(oldest);
      }
      return seq;
    },
    update(at, change) {
      const record = records.get(at);
      if (record !== undefined) records.set(at, { ...record, ...change });
    },
    list: () => [...records.values()],
    clear: () => records.clear(),
  };
}
