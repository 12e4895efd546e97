import type { Faults, HeldRequests } from "../fake-server/index.js";
import type { SttRecords } from "./records.js";
import type { FakeTranscriptRules } from "./transcripts.js";

/** What `/audio/speech` answers: a WAV tone (exercises transcoding), or OGG/Opus as OpenAI sends for "opus". */
export type FakeSpeechFormat = "wav" | "ogg";

/** Everything the fake speech server's routes share. */
export interface FakeSttContext {
  /** When set, calls need `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string | undefined;
  readonly faults: Faults;
  readonly held: HeldRequests;
  readonly records: SttRecords;
  transcripts(): FakeTranscriptRules;
  /** Replaces the scripted transcripts; throws a ZodError, changing nothing, when invalid. */
  setTranscripts(rules: unknown): void;
  readonly defaultTranscript: string;
  speechFormat(): FakeSpeechFormat;
  setSpeechFormat(format: FakeSpeechFormat): void;
  readonly now: () => number;
  /** Aborted when the fake closes, so held and delayed requests stop waiting. */
  readonly closing: AbortSignal;
  reset(): void;
}
