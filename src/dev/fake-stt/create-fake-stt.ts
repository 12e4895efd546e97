import type { FastifyInstance } from "fastify";
import type { Logger } from "../../observability/index.js";
import {
  createFaults,
  createHeldRequests,
  createSeededRandom,
  type LatencySetting,
  type ServiceFaultPatch,
  type ServiceFaultSettings,
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
export interface FakeStt {
  readonly app: FastifyInstance;
  /** Listens (default 127.0.0.1, port 0) and returns the base URL, without `/v1`. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<string>;
  /** Every call, oldest first, with what it was answered. */
  requests(): FakeSttRequestRecord[];
  faults(): ServiceFaultSettings;
  /** Changes faults; throws a ZodError for an invalid patch, changing nothing. */
  setFaults(patch: ServiceFaultPatch): ServiceFaultSettings;
  /** Replaces the scripted transcripts; throws a ZodError, changing nothing. */
  setTranscripts(transcripts: FakeTranscriptRules): void;
  setSpeechFormat(format: FakeSpeechFormat): void;
  /** Back to the starting transcripts, faults, speech format and seed; records forgotten; held requests let go. */
  reset(): void;
  /** Stops listening; held and delayed requests are dropped or answered 503, no socket left open. */
  close(): Promise<void>;
}

/**
 * A stand-in for OpenAI's audio API on a real HTTP port:
 * `/v1/audio/transcriptions` (multipart, scripted transcripts) and
 * `/v1/audio/speech` (a WAV tone, or OGG/Opus), with the fake LLM's latency,
 * error and hang faults. For tests and local runs.
 */
export function createFakeStt(deps: FakeSttDeps, options: FakeSttOptions = {}): FakeStt {
  const seed = options.seed ?? 1;
  let random = deps.random ?? createSeededRandom(seed);
  const initialTranscripts = transcriptRulesSchema.parse(options.transcripts ?? {});
  const initialFaults: ServiceFaultPatch = {
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    ...options.faults,
  };
  const initialFormat = options.speechFormat ?? "wav";
  let transcripts = initialTranscripts;
  let speechFormat = initialFormat;
  const held = createHeldRequests();
  const faults = createFaults(initialFaults, { random: () => random(), held });
  const records = createSttRecords(options.maxRecords ?? 10_000);
  const closing = new AbortController();

  const ctx: FakeSttContext = {
    apiKey: options.apiKey,
    faults,
    held,
    records,
    transcripts: () => transcripts,
    setTranscripts(next) {
      transcripts = transcriptRulesSchema.parse(next);
    },
    defaultTranscript: options.defaultTranscript ?? "This is a voice note.",
    speechFormat: () => speechFormat,
    setSpeechFormat(format) {
      speechFormat = format;
    },
    now: deps.now ?? Date.now,
    closing: closing.signal,
    reset() {
      records.clear();
      transcripts = initialTranscripts;
      speechFormat = initialFormat;
      if (deps.random === undefined) random = createSeededRandom(seed);
      faults.update({ reset: true, ...initialFaults });
    },
  };
  const app = buildFakeSttApp(ctx, deps.logger);

  return {
    app,
    async listen(listenOptions = {}) {
      const host = listenOptions.host ?? "127.0.0.1";
      await app.listen({ host, port: listenOptions.port ?? 0 });
      const { port } = app.server.address() as { port: number };
      return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    },
    requests: () => records.list(),
    faults: () => faults.settings(),
    setFaults: (patch) => faults.update(patch),
    setTranscripts: (next) => ctx.setTranscripts(next),
    setSpeechFormat: (format) => ctx.setSpeechFormat(format),
    reset: () => ctx.reset(),
    async close() {
      // Held and delayed requests end first; otherwise Fastify's close would wait for them.
      closing.abort();
      await app.close();
    },
  };
}
