import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createOpenAiSynthesizer,
  detectOpusEncoder,
  isOggOpus,
  noOpusEncoderError,
  type OpusEncoder,
  SpeechError,
  transcodeToOggOpus,
} from "../../src/speech/index.js";
import { STT_KEY, trackFakeStts } from "../support/fake-stt.js";

const run = promisify(execFile);
const fake = trackFakeStts(afterEach);
const encoders: Partial<Record<OpusEncoder["kind"], OpusEncoder>> = {};

beforeAll(async () => {
  for (const kind of ["ffmpeg", "opusenc"] as const) {
    const found = await detectOpusEncoder({ prefer: kind });
    if (found?.kind === kind) encoders[kind] = found;
  }
});

/** What ffprobe (or opusinfo) makes of the bytes, when installed: the codec and channels it reads. */
async function probe(bytes: Buffer): Promise<{ codec: string; channels: number } | "no prober"> {
  const dir = await mkdtemp(join(tmpdir(), "ss-speech-"));
  const file = join(dir, "reply.ogg");
  try {
    await writeFile(file, bytes);
    try {
      const { stdout } = await run("ffprobe", [
        "-v",
        "error",
        "-show_entries",
        "stream=codec_name,channels",
        "-of",
        "json",
        file,
      ]);
      const stream = (JSON.parse(stdout) as { streams: { codec_name: string; channels: number }[] })
        .streams[0];
      return { codec: stream?.codec_name ?? "", channels: stream?.channels ?? 0 };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    try {
      const { stdout } = await run("opusinfo", [file]);
      return { codec: "opus", channels: Number(/Channels: (\d+)/.exec(stdout)?.[1] ?? 0) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return "no prober";
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("Opus encoder detection", () => {
  it("finds ffmpeg or opusenc (in CI one must be installed: .ci/run installs opus-tools)", async () => {
    const found = await detectOpusEncoder();
    if (process.env.CI !== undefined && found === undefined) {
      throw new Error(
        "CI is set but neither ffmpeg nor opusenc is installed: the transcoding tests cannot run",
      );
    }
    if (found !== undefined) expect(["ffmpeg", "opusenc"]).toContain(found.kind);
  });

  it("finds nothing where nothing is installed, and the startup error says what to do", async () => {
    const empty = await mkdtemp(join(tmpdir(), "ss-no-encoder-"));
    try {
      expect(await detectOpusEncoder({ searchPath: empty })).toBeUndefined();
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const error = noOpusEncoderError();
    expect(error).toBeInstanceOf(SpeechError);
    expect(error.code).toBe("SS_SPEECH_NO_ENCODER");
    expect(error.message).toMatch(/neither ffmpeg nor opusenc is installed/);
    expect(error.message).toMatch(/apt-get install opus-tools/);
  });
});

describe("createOpenAiSynthesizer against the fake speech server", () => {
  for (const kind of ["ffmpeg", "opusenc"] as const) {
    it(`transcodes the fake's WAV into a real OGG/Opus voice note with ${kind}`, async (context) => {
      const encoder = encoders[kind];
      if (encoder === undefined) {
        if (process.env.CI !== undefined && Object.keys(encoders).length === 0)
          throw new Error("CI is set but no Opus encoder is installed");
        context.skip();
        return;
      }
      const f = await fake({ apiKey: STT_KEY });
      const synthesizer = createOpenAiSynthesizer({
        primary: { baseUrl: `${f.url}/v1`, apiKey: STT_KEY, model: "tts-1", voices: { yo: "nova" } },
        timeoutMs: 5000,
        encoder,
      });
      const speech = await synthesizer.synthesize({
        text: "Your transfer is on its way. Abeg exercise patience.",
        language: "yo",
      });
      expect(speech).toMatchObject({
        mimeType: "audio/ogg; codecs=opus",
        provider: "primary",
        model: "tts-1",
        transcoded: true,
      });
      expect(speech.bytes.toString("latin1", 0, 4)).toBe("OggS");
      expect(isOggOpus(speech.bytes)).toBe(true);
      const probed = await probe(speech.bytes);
      if (probed !== "no prober") expect(probed).toEqual({ codec: "opus", channels: 1 });
      expect(f.fake.requests()[0]).toMatchObject({
        model: "tts-1",
        voice: "nova",
        responseFormat: "opus",
        input: "Your transfer is on its way. Abeg exercise patience.",
      });
    });
  }

  it("passes OGG/Opus from the provider through untouched, with no encoder needed", async () => {
    const f = await fake({ speechFormat: "ogg" });
    const synthesizer = createOpenAiSynthesizer({
      primary: { baseUrl: `${f.url}/v1`, model: "gpt-4o-mini-tts" },
      timeoutMs: 5000,
      encoder: undefined,
    });
    const speech = await synthesizer.synthesize({ text: "Hello", voice: "coral" });
    expect(speech.transcoded).toBe(false);
    expect(isOggOpus(speech.bytes)).toBe(true);
    expect(f.fake.requests()[0]?.voice).toBe("coral");
    const probed = await probe(speech.bytes);
    if (probed !== "no prober") expect(probed).toEqual({ codec: "opus", channels: 1 });
  });

  it("fails with the clear error when the provider sends WAV and no encoder is installed", async () => {
    const f = await fake();
    const synthesizer = createOpenAiSynthesizer({
      primary: { baseUrl: `${f.url}/v1`, model: "tts-1" },
      timeoutMs: 5000,
      encoder: undefined,
    });
    await expect(synthesizer.synthesize({ text: "Hello" })).rejects.toMatchObject({
      code: "SS_SPEECH_NO_ENCODER",
      retryable: false,
    });
  });

  it("goes to the fallback provider on a 500, and refuses empty text before sending", async () => {
    const primary = await fake({ speechFormat: "ogg", faults: { failNext: { count: 1, status: 500 } } });
    const backup = await fake({ speechFormat: "ogg" });
    const synthesizer = createOpenAiSynthesizer({
      primary: { baseUrl: `${primary.url}/v1`, model: "tts-1" },
      fallback: { baseUrl: `${backup.url}/v1`, model: "kokoro", voice: "af_heart" },
      timeoutMs: 5000,
      encoder: undefined,
    });
    const speech = await synthesizer.synthesize({ text: "Hello" });
    expect(speech).toMatchObject({ provider: "fallback", model: "kokoro" });
    expect(backup.fake.requests()[0]?.voice).toBe("af_heart");
    await expect(synthesizer.synthesize({ text: "  " })).rejects.toMatchObject({
      code: "SS_SPEECH_INVALID_REQUEST",
    });
  });

  it("reports an encoder that cannot read the audio as SS_SPEECH_TRANSCODE_FAILED", async (context) => {
    const encoder = encoders.opusenc ?? encoders.ffmpeg;
    if (encoder === undefined) {
      context.skip();
      return;
    }
    const error = await transcodeToOggOpus(Buffer.from("this is not audio at all, just text"), encoder).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: "SS_SPEECH_TRANSCODE_FAILED", retryable: false });
    expect((error as Error).message).toMatch(new RegExp(`^${encoder.kind} `));
  });
});
