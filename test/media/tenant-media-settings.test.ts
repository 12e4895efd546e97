import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/observability/index.js";
import { eventually } from "../support/eventually.js";
import { readVoiceNote, STT_KEY, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";
import { startMediaGateway, voice } from "../support/media-gateway.js";

const startStt = trackFakeStts(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const transcripts = { [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text };

/** Every file under `dir`, with its bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, bytes: readFileSync(path) };
    });
}

describe("a tenant's own media settings (embedded)", () => {
  it("media.stt: the tenant's own provider, key and model transcribe its voice notes, not STT_*", async () => {
    const global = await startStt({ transcripts });
    const own = await startStt({ transcripts, apiKey: STT_KEY });
    const gateway = await startMediaGateway(
      cleanups,
      { STT_BASE_URL: `${global.url}/v1`, STT_MODEL: "whisper-1", ACME_STT_KEY: STT_KEY },
      { stt: { baseUrl: `${own.url}/v1`, apiKey: { env: "ACME_STT_KEY" }, model: "whisper-large-v3" } },
    );
    const note = voice(gateway, "en");
    await gateway.post([note]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    expect(gateway.sent()).toEqual([`heard: ${VOICE_NOTES.en.text}`]);
    // The fake with a key answers 401 to any other: this one was sent the tenant's.
    expect(own.fake.requests()).toEqual([
      expect.objectContaining({ kind: "transcription", model: "whisper-large-v3", status: 200 }),
    ]);
    expect(global.fake.requests()).toEqual([]);
    expect(await gateway.reading(note.wamid)).toMatchObject({ transcript: { model: "whisper-large-v3" } });
  });

  it("media.keep: true keeps the bytes in the data directory after the turn; without it nothing is kept", async () => {
    const stt = await startStt({ transcripts });
    for (const keep of [true, false]) {
      const gateway = await startMediaGateway(cleanups, { STT_BASE_URL: `${stt.url}/v1` }, { keep });
      const note = voice(gateway, "en");
      await gateway.post([note]);
      await eventually(() => gateway.sent().length >= 1, 10_000);
      expect(gateway.sent()).toEqual([`heard: ${VOICE_NOTES.en.text}`]);
      // Downloaded either way (speech to text needs it); kept only when the tenant asks.
      expect(
        gateway.fake.fake.requests().filter((request) => request.kind === "media-download"),
      ).toHaveLength(1);
      const kept = filesUnder(join(gateway.dataDir, "media"));
      if (keep) {
        expect(kept).toHaveLength(1);
        expect(kept[0]?.bytes.equals(readVoiceNote("en"))).toBe(true);
        expect(kept[0]?.path).toMatch(
          new RegExp(`media/acme/\\d{4}-\\d{2}-\\d{2}/${VOICE_NOTES.en.sha256}\\.ogg$`),
        );
      } else {
        expect(kept).toEqual([]);
      }
      // The log keeps what was read about it either way, never the bytes.
      expect(await gateway.reading(note.wamid)).toMatchObject({
        size: readVoiceNote("en").length,
        transcript: { text: VOICE_NOTES.en.text },
      });
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }
  });
});

describe("voice replies at start (embedded)", () => {
  it("a tenant with voice replies and no TTS_BASE_URL stops the start, saying what to set", async () => {
    await expect(startMediaGateway(cleanups, {}, { voiceReplies: true })).rejects.toThrow(
      /media\.voiceReplies\) but TTS_BASE_URL is not set/,
    );
  });

  it("warns at start when neither ffmpeg nor opusenc is found, and starts; says nothing when one is", async () => {
    const tts = await startStt({});
    const bin = mkdtempSync(join(tmpdir(), "ss-bin-"));
    const savedPath = process.env.PATH;
    cleanups.push(async () => {
      process.env.PATH = savedPath;
      rmSync(bin, { recursive: true, force: true });
    });
    const warningsWith = async (path: string) => {
      const lines: string[] = [];
      const logger = createLogger({
        level: "warn",
        destination: { write: (line: string) => lines.push(line) },
      });
      // The encoders are looked for on the PATH, as the worker's own would be.
      process.env.PATH = path;
      try {
        const gateway = await startMediaGateway(
          cleanups,
          { TTS_BASE_URL: `${tts.url}/v1` },
          { voiceReplies: true },
          { logger },
        );
        expect(gateway.running.url).toMatch(/^http:/);
      } finally {
        process.env.PATH = savedPath;
      }
      return lines.filter((line) => line.includes("neither ffmpeg nor opusenc"));
    };
    expect(await warningsWith(bin)).toHaveLength(1);

    // An ffmpeg that lists the libopus encoder, as Debian's does.
    writeFileSync(join(bin, "ffmpeg"), '#!/bin/sh\necho " A..... libopus              libopus Opus"\n');
    chmodSync(join(bin, "ffmpeg"), 0o755);
    expect(await warningsWith(bin)).toEqual([]);
  });
});
