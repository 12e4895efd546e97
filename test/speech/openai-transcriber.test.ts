import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiTranscriber, SpeechError, type TranscriptionProvider } from "../../src/speech/index.js";
import { readVoiceNote, STT_KEY, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";

const fake = trackFakeStts(afterEach);
const voiceNote = { audio: readVoiceNote("en"), mimeType: "audio/ogg; codecs=opus" };

/** A port nothing listens on: the connection is refused. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

async function failure(promise: Promise<unknown>): Promise<SpeechError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpeechError);
  return error as SpeechError;
}

const scripted = {
  [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text,
  [VOICE_NOTES.pidgin.sha256]: VOICE_NOTES.pidgin.text,
};

describe("createOpenAiTranscriber against the fake speech server", () => {
  it("transcribes a real voice note: scripted text by its sha256, duration, language and cost", async () => {
    const f = await fake({ apiKey: STT_KEY, transcripts: scripted });
    const primary: TranscriptionProvider = {
      baseUrl: `${f.url}/v1`,
      apiKey: STT_KEY,
      model: "whisper-1",
      pricePerMinuteUsd: 0.006,
    };
    const transcriber = createOpenAiTranscriber({ primary, timeoutMs: 5000 });
    const transcript = await transcriber.transcribe({ ...voiceNote, language: "en" });
    expect(transcript).toMatchObject({
      text: VOICE_NOTES.en.text,
      language: "en",
      provider: "primary",
      model: "whisper-1",
    });
    expect(transcript.durationSeconds).toBeCloseTo(5.77, 1);
    expect(transcript.costUsd).toBeCloseTo(((transcript.durationSeconds ?? 0) / 60) * 0.006, 10);

    const record = f.fake.requests()[0];
    expect(record).toMatchObject({
      model: "whisper-1",
      language: "en",
      responseFormat: "verbose_json",
      fileName: "audio.ogg",
      mimeType: "audio/ogg; codecs=opus",
      size: voiceNote.audio.length,
      sha256: VOICE_NOTES.en.sha256,
      authorized: true,
    });
  });

  it("passes the language hint through (Pidgin as en), the request's model, and a json-only model's format", async () => {
    const f = await fake({ transcripts: scripted });
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${f.url}/v1`, model: "whisper-1" },
      timeoutMs: 5000,
    });
    const audio = readVoiceNote("pidgin");
    const pidgin = await transcriber.transcribe({ audio, mimeType: "audio/ogg", language: "pcm" });
    expect(pidgin.text).toBe(VOICE_NOTES.pidgin.text);
    await transcriber.transcribe({ audio, mimeType: "audio/ogg", language: "yo", fileName: "note.opus" });
    const mini = await transcriber.transcribe({
      audio,
      mimeType: "audio/ogg",
      model: "gpt-4o-mini-transcribe",
    });
    // json answers carry no language; the duration comes from usage.seconds (whole seconds).
    expect(mini).toMatchObject({ model: "gpt-4o-mini-transcribe", durationSeconds: 9 });
    expect(mini.language).toBeUndefined();
    expect(f.fake.requests().map((r) => [r.language, r.model, r.responseFormat, r.fileName])).toEqual([
      ["en", "whisper-1", "verbose_json", "audio.ogg"],
      ["yo", "whisper-1", "verbose_json", "note.ogg"],
      [undefined, "gpt-4o-mini-transcribe", "json", "audio.ogg"],
    ]);
  });

  it("goes to the fallback provider when the primary times out, with the fallback's own model", async () => {
    const slow = await fake({ latencyMs: 2000 });
    const backup = await fake({ transcripts: scripted });
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${slow.url}/v1`, model: "whisper-1" },
      fallback: { baseUrl: `${backup.url}/v1`, model: "whisper-large-v3-turbo", pricePerMinuteUsd: 0.04 },
      timeoutMs: 200,
    });
    const started = Date.now();
    const transcript = await transcriber.transcribe({ ...voiceNote, model: "primary-only-model" });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(transcript).toMatchObject({
      text: VOICE_NOTES.en.text,
      provider: "fallback",
      model: "whisper-large-v3-turbo",
    });
    expect(transcript.costUsd).toBeGreaterThan(0);
    expect(slow.fake.requests()[0]?.model).toBe("primary-only-model");
  });

  it("goes to the fallback on a 500 or 429 from the primary, and on a refused connection", async () => {
    const primary = await fake({ faults: { failNext: { count: 2, status: 500 } } });
    const backup = await fake({ transcripts: scripted });
    const fallback = { baseUrl: `${backup.url}/v1`, model: "whisper-1" };
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${primary.url}/v1`, model: "whisper-1" },
      fallback,
      timeoutMs: 5000,
    });
    expect((await transcriber.transcribe(voiceNote)).provider).toBe("fallback");
    primary.fake.setFaults({ failNext: { count: 1, status: 429 } });
    expect((await transcriber.transcribe(voiceNote)).provider).toBe("fallback");
    const refused = createOpenAiTranscriber({
      primary: { baseUrl: await deadUrl(), model: "whisper-1" },
      fallback,
      timeoutMs: 5000,
    });
    expect((await refused.transcribe(voiceNote)).provider).toBe("fallback");
  });

  it("does not go to the fallback on a 401: a typed, non-retryable error without the key", async () => {
    const primary = await fake({ apiKey: "sk-the-right-key-000000" });
    const backup = await fake();
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${primary.url}/v1`, apiKey: STT_KEY, model: "whisper-1" },
      fallback: { baseUrl: `${backup.url}/v1`, model: "whisper-1" },
      timeoutMs: 5000,
    });
    const error = await failure(transcriber.transcribe(voiceNote));
    expect(error).toMatchObject({ code: "SS_SPEECH_REFUSED", retryable: false, status: 401 });
    expect(error.message).toMatch(
      /primary speech provider \(transcription\): HTTP 401: Incorrect API key provided/,
    );
    // The fake quotes the wrong key back masked, as OpenAI does; neither the key nor its visible ends remain.
    for (const piece of [STT_KEY, STT_KEY.slice(0, 6), STT_KEY.slice(-4)]) {
      expect(error.message).not.toContain(piece);
      expect(JSON.stringify(error)).not.toContain(piece);
    }
    expect(backup.fake.requests()).toEqual([]);
  });

  it("fails retryably when both providers are down, naming both, never the keys", async () => {
    const primary = await fake({ faults: { failNext: { count: 1, status: 503 } } });
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${primary.url}/v1`, apiKey: STT_KEY, model: "whisper-1" },
      fallback: { baseUrl: await deadUrl(), apiKey: "gsk_fallback_key_123456", model: "whisper-large-v3" },
      timeoutMs: 5000,
    });
    const error = await failure(transcriber.transcribe(voiceNote));
    expect(error).toMatchObject({ code: "SS_SPEECH_UNAVAILABLE", retryable: true });
    expect(error.message).toMatch(
      /both speech providers failed: primary .*HTTP 503.*; fallback .*connection failed \(ECONNREFUSED\)/,
    );
    expect(error.message).not.toContain(STT_KEY);
    expect(error.message).not.toContain("gsk_fallback_key_123456");
  });

  it("a timeout with no fallback is retryable; the caller's abort is not, and skips the fallback", async () => {
    const slow = await fake({ latencyMs: 1000 });
    const alone = createOpenAiTranscriber({
      primary: { baseUrl: `${slow.url}/v1`, model: "whisper-1" },
      timeoutMs: 100,
    });
    const timedOut = await failure(alone.transcribe(voiceNote));
    expect(timedOut).toMatchObject({ code: "SS_SPEECH_UNAVAILABLE", retryable: true });
    expect(timedOut.message).toMatch(/no complete answer within 100 ms/);

    const backup = await fake();
    const withBackup = createOpenAiTranscriber({
      primary: { baseUrl: `${slow.url}/v1`, model: "whisper-1" },
      fallback: { baseUrl: `${backup.url}/v1`, model: "whisper-1" },
      timeoutMs: 5000,
    });
    const aborted = await failure(withBackup.transcribe(voiceNote, AbortSignal.timeout(100)));
    expect(aborted).toMatchObject({ code: "SS_SPEECH_ABORTED", retryable: false });
    expect(backup.fake.requests()).toEqual([]);
  });

  it("refuses what the provider cannot decode (413, 400) without the fallback, and empty audio before sending", async () => {
    const f = await fake();
    const backup = await fake();
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `${f.url}/v1`, model: "whisper-1" },
      fallback: { baseUrl: `${backup.url}/v1`, model: "whisper-1" },
      timeoutMs: 5000,
    });
    const tooShort = await failure(
      transcriber.transcribe({ audio: Buffer.from("OggS"), mimeType: "audio/ogg" }),
    );
    expect(tooShort).toMatchObject({ code: "SS_SPEECH_REFUSED", status: 400, retryable: false });
    const empty = await failure(transcriber.transcribe({ audio: Buffer.alloc(0), mimeType: "audio/ogg" }));
    expect(empty.code).toBe("SS_SPEECH_INVALID_REQUEST");
    expect(f.fake.requests()).toHaveLength(1);
    expect(backup.fake.requests()).toEqual([]);
  });
});
