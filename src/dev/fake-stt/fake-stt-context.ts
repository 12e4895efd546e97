import type { ServiceContext } from "../fake-server/index.js";
import type { SttRecords } from "./records.js";
import type { FakeTranscriptRules } from "./transcripts.js";

/** What `/audio/speech` answers: a WAV tone (exercises transcoding), or OGG/Opus as OpenAI sends for "opus". */
export type FakeSpeechFormat = "wav" | "ogg";

/** Everything the fake speech server's routes share. */
export interface FakeSttContext extends ServiceContext<SttRecords> {
  transcripts(): FakeTranscriptRules;
  /** Replaces the scripted transcripts; throws a ZodError, changing nothing, when invalid. */
  setTranscripts(rules: unknown): void;
  readonly defaultTranscript: string;
  speechFormat(): FakeSpeechFormat;
  setSpeechFormat(format: FakeSpeechFormat): void;
}
