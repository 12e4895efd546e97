import { afterEach, describe, expect, it } from "vitest";
import { detectOpusEncoder } from "../../src/speech/index.js";
import { eventually } from "../support/eventually.js";
import { trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";
import { startMediaGateway, text, voice } from "../support/media-gateway.js";
import { skipWithoutPostgres } from "../support/postgres.js";
import { skipWithoutRedis } from "../support/redis.js";

const startStt = trackFakeStts(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const start = (env: Record<string, string>, media?: Record<string, unknown>) =>
  startMediaGateway(cleanups, env, media);

const transcripts = {
  [VOICE_NOTES.pidgin.sha256]: VOICE_NOTES.pidgin.text,
  [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text,
};

describe("voice notes in a turn (embedded)", () => {
  it("a voice note in a burst of three is transcribed before the one coalesced turn, in its place", async () => {
    const stt = await startStt({ transcripts, latencyMs: 300 });
    const gateway = await start({
      STT_BASE_URL: `${stt.url}/v1`,
      COALESCE_WINDOW_MS: "400",
      COALESCE_MAX_MS: "3000",
    });
    const note = voice(gateway, "pidgin");
    expect(await gateway.post([text("Hello")])).toBe(200);
    expect(await gateway.post([note])).toBe(200);
    expect(await gateway.post([text("abeg check am")])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(gateway.sent()).toEqual([`heard: Hello | ${VOICE_NOTES.pidgin.text} | abeg check am`]);
    expect(gateway.responder.turns).toHaveLength(1);
    expect(await gateway.reading(note.wamid)).toMatchObject({
      kind: "audio",
      mimeType: "audio/ogg; codecs=opus",
      transcript: { text: VOICE_NOTES.pidgin.text, provider: "primary" },
    });
    // The conversation's language ("Hello", "abeg check am": Pidgin) is given as English.
    expect(stt.fake.requests().map((request) => request.language)).toEqual(["en"]);
  });

  it("a transcription that times out goes to the fallback provider", async () => {
    const slow = await startStt({ transcripts, latencyMs: 5_000 });
    const spare = await startStt({ transcripts });
    const gateway = await start({
      STT_BASE_URL: `${slow.url}/v1`,
      STT_FALLBACK_BASE_URL: `${spare.url}/v1`,
      STT_TIMEOUT_MS: "500",
    });
    const note = voice(gateway, "en");
    await gateway.post([note]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    expect(gateway.sent()).toEqual([`heard: ${VOICE_NOTES.en.text}`]);
    expect(await gateway.reading(note.wamid)).toMatchObject({ transcript: { provider: "fallback" } });
  });

  it("both providers failing: the polite line once, the note marked, and the responder not asked", async () => {
    const down = await startStt({ faults: { errorRate: 1, errorStatus: 500 } });
    const gateway = await start({ STT_BASE_URL: `${down.url}/v1`, STT_FALLBACK_BASE_URL: `${down.url}/v1` });
    const note = voice(gateway, "en");
    await gateway.post([note]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent()).toHaveLength(1);
    expect(gateway.sent()[0]).toMatch(/voice note/);
    expect(gateway.responder.turns).toHaveLength(0);
    expect(await gateway.reading(note.wamid)).toMatchObject({ failure: { code: "SS_SPEECH_UNAVAILABLE" } });
  });

  it("a download that fails for good: the marker and one line; Meta's retry is still a duplicate", async () => {
    const stt = await startStt({ transcripts });
    const gateway = await start({ STT_BASE_URL: `${stt.url}/v1` });
    const note = voice(gateway, "en", "media-corrupt");
    gateway.fake.fake.setFaults({ mediaFaults: [{ mediaId: "media-corrupt", corrupt: true }] });
    await gateway.post([note]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    expect(await gateway.reading(note.wamid)).toMatchObject({
      failure: { code: "SS_MEDIA_CHECKSUM_MISMATCH" },
    });
    // Meta delivers the same webhook again: acknowledged, and nothing more is sent or transcribed.
    expect(await gateway.post([note])).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(gateway.sent()).toHaveLength(1);
    expect(stt.fake.requests()).toHaveLength(0);
  });

  it("without speech to text: the please-type line once per conversation within the hour, not per note", async () => {
    const gateway = await start({});
    await gateway.post([voice(gateway, "en")]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await gateway.post([voice(gateway, "pidgin")]);
    await gateway.post([text("hello?")]);
    await eventually(() => gateway.sent().length >= 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = gateway.sent();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/voice notes/);
    expect(sent[1]).toBe("heard: hello?");
  });

  it("a voice note that arrives hours late without speech to text: the please-type line alone, no apology on top", async () => {
    const gateway = await start({});
    const late = { ...voice(gateway, "en"), timestamp: Math.floor(Date.now() / 1000) - 3 * 3600 };
    await gateway.post([late]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.sent()).toHaveLength(1);
    expect(gateway.sent()[0]).toMatch(/voice notes/);
    expect(gateway.responder.turns).toHaveLength(0);
  });

  it("answers a voice note in kind when the tenant asks: the text, then the same as a voice note", async (context) => {
    // The fake says replies as WAV: the voice note needs ffmpeg or opusenc (CI installs opus-tools).
    if ((await detectOpusEncoder()) === undefined) {
      if (process.env.CI !== undefined) throw new Error("CI is set but no Opus encoder is installed");
      context.skip();
    }
    const stt = await startStt({ transcripts });
    const gateway = await start(
      { STT_BASE_URL: `${stt.url}/v1`, TTS_BASE_URL: `${stt.url}/v1` },
      { voiceReplies: true },
    );
    await gateway.post([voice(gateway, "pidgin")]);
    await eventually(() => gateway.fake.fake.messages().length >= 2, 15_000);
    const [first, second] = gateway.fake.fake.messages();
    expect(first?.type).toBe("text");
    expect(second?.type).toBe("audio");
    const audio = second?.body.audio as { id: string; voice?: boolean };
    expect(audio.voice).toBe(true);
    // The voice note was uploaded to the number as OGG/Opus and is what the fake serves for its id.
    const uploaded = await gateway.fake.get(`/v25.0/${audio.id}`);
    expect(((await uploaded.json()) as { mime_type: string }).mime_type).toBe("audio/ogg; codecs=opus");
    // A text that is not a voice note is answered in text only.
    await gateway.post([text("thank you")]);
    await eventually(() => gateway.fake.fake.messages().length >= 3, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.fake.fake.messages().map((message) => message.type)).toEqual(["text", "audio", "text"]);
  });
});

describe.skipIf(skipWithoutRedis || skipWithoutPostgres)("voice notes on Redis and PostgreSQL", () => {
  it("an ingress and a worker: the transcript answers the burst once, and the log keeps it", async () => {
    const stt = await startStt({ transcripts, latencyMs: 200 });
    const gateway = await startMediaGateway(
      cleanups,
      { STT_BASE_URL: `${stt.url}/v1`, COALESCE_WINDOW_MS: "400", COALESCE_MAX_MS: "3000" },
      undefined,
      { backend: "redis" },
    );
    const note = voice(gateway, "en");
    expect(await gateway.post([text("good morning")])).toBe(200);
    expect(await gateway.post([note])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(gateway.sent()).toEqual([`heard: good morning | ${VOICE_NOTES.en.text}`]);
    await eventually(async () => (await gateway.reading(note.wamid)) !== undefined, 5_000);
    expect(await gateway.reading(note.wamid)).toMatchObject({ transcript: { text: VOICE_NOTES.en.text } });
  });
});
