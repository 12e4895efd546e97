import type { Logger } from "../../observability/index.js";
import {
  createServiceCore,
  type LatencySetting,
  type ServiceFaultPatch,
  type ServiceHandle,
  serviceContext,
  serviceHandle,
} from "../fake-server/index.js";
import { buildFakeSttApp } from "./build-fake-stt-app.js";
import type { FakeSpeechFormat, FakeSttContext } from "./fake-stt-context.js";
import { createSttRecords, type FakeSttRequestRecord } from "./records.js";
import { type FakeTranscriptRules, transcriptRulesSchema } from "./transcripts.js";

export interface FakeSttDeps {
  readonly logger: Logger;
  /** ms since the epoch: record times. */
  readonly now?: () => number;
  /** [0, 1): rolls errorRate and latency ranges; default a PRNG seeded with `options.seed`. */
  readonly random?: () => number;
}

export interface FakeSttOptions {
  /** When set, calls need `Authorization: Bearer <apiKey>` (else 401); unset: any key, or none. */
  readonly apiKey?: string;
  /** Scripted transcripts by the audio's sha256 (hex) or the uploaded file's name; default none. */
  readonly transcripts?: FakeTranscriptRules;
  /** The text of audio no rule names; default "This is a voice note.". */
  readonly defaultTranscript?: string;
  /** What `/audio/speech` answers; default "wav" (so the client transcodes). */
  readonly speechFormat?: FakeSpeechFormat;
  /** Delay before every answer, ms, or `[min, max]` drawn uniformly; default 0. */
  readonly latencyMs?: LatencySetting;
  /** Faults in force from the start (a `latencyMs` here wins over the option above). */
  readonly faults?: ServiceFaultPatch;
  /** Seed of the default random source; default 1. */
  readonly seed?: number;
  /** Requests kept in the record; default 10,000. */
  readonly maxRecords?: number;
}

/** A running (or ready to run) fake OpenAI-compatible speech server. */
export interface FakeStt extends ServiceHandle<FakeSttRequestRecord> {
  /** Every call, oldest first, with what it was answered. */
  requests(): FakeSttRequestRecord[];
  /** Replaces the scripted transcripts; throws a ZodError, changing nothing. */
  setTranscripts(transcripts: FakeTranscriptRules): void;
  setSpeechFormat(format: FakeSpeechFormat): void;
  /** Back to the starting transcripts, faults, speech format and seed; records forgotten; held requests let go. */
  reset(): void;
}

/**
 * A stand-in for OpenAI's audio API on a real HTTP port:
 * `/v1/audio/transcriptions` (multipart, scripted transcripts) and
 * `/v1/audio/speech` (a WAV tone, or OGG/Opus), with the fake LLM's latency,
 * error and hang faults. For tests and local runs.
 */
export function createFakeStt(deps: FakeSttDeps, options: FakeSttOptions = {}): FakeStt {
  const initialTranscripts = transcriptRulesSchema.parse(options.transcripts ?? {});
  const initialFormat = options.speechFormat ?? "wav";
  let transcripts = initialTranscripts;
  let speechFormat = initialFormat;
  const core = createServiceCore(deps, options);
  const ctx: FakeSttContext = {
    ...serviceContext(core, createSttRecords(options.maxRecords ?? 10_000), () => {
      transcripts = initialTranscripts;
      speechFormat = initialFormat;
    }),
    transcripts: () => transcripts,
    setTranscripts(next) {
      transcripts = transcriptRulesSchema.parse(next);
    },
    defaultTranscript: options.defaultTranscript ?? "This is a voice note.",
    speechFormat: () => speechFormat,
    setSpeechFormat(format) {
      speechFormat = format;
    },
  };
  const app = buildFakeSttApp(ctx, deps.logger);

  return {
    ...serviceHandle(app, core, ctx),
    setTranscripts: (next) => ctx.setTranscripts(next),
    setSpeechFormat: (format) => ctx.setSpeechFormat(format),
  };
}
