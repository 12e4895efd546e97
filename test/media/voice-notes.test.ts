import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmbedded, startEmbedded } from "../../src/app/index.js";
import type { Responder, TurnInput } from "../../src/conversation/index.js";
import { type InboundSpecOf, mixedWebhook } from "../../src/dev/index.js";
import { signatureFor } from "../../src/ingress/index.js";
import { createLogger } from "../../src/observability/index.js";
import { createSqliteMessageStore } from "../../src/store/sqlite/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { eventually } from "../support/eventually.js";
import { GRAPH_TOKEN, type RunningFake, startFake } from "../support/fake-graph.js";
import { readVoiceNote, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";
import { APP_SECRET } from "../support/ingress-harness.js";

const CUSTOMER = "2348012345678";
const startStt = trackFakeStts(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Answers each turn with what it read, in order, and keeps the turns it was given. */
function echoResponder(): Responder & { readonly turns: TurnInput[] } {
  const turns: TurnInput[] = [];
  return {
    turns,
    async respond(turn) {
      turns.push(turn);
      return [{ text: `heard: ${turn.messages.map((m) => m.text ?? "(nothing)").join(" | ")}` }];
    },
    async respondToStale(turn) {
      turns.push(turn);
      return [{ text: "stale" }];
    },
  };
}

interface Gateway {
  readonly fake: RunningFake;
  readonly running: RunningEmbedded;
  readonly responder: ReturnType<typeof echoResponder>;
  post(messages: readonly InboundSpecOf[]): Promise<number>;
  /** The texts the customer was sent, oldest first. */
  sent(): string[];
  reading(wamid: string): Promise<unknown>;
}

async function start(env: Record<string, string>, media?: Record<string, unknown>): Promise<Gateway> {
  const fake = await startFake();
  const dataDir = mkdtempSync(join(tmpdir(), "ss-voice-"));
  const responder = echoResponder();
  // A tenants file when the tenant has media settings: the `default` tenant of the variables has none.
  if (media !== undefined) {
    writeFileSync(
      join(dataDir, "tenants.json"),
      JSON.stringify({
        tenants: [
          {
            id: "acme",
            appSecretEnv: "ACME_SECRET",
            verifyTokenEnv: "ACME_VERIFY",
            graphTokenEnv: "ACME_TOKEN",
            phoneNumberIds: ["106540352242922"],
            coalesce: { windowMs: 0, maxMs: 0 },
            media,
          },
        ],
      }),
    );
  }
  const tenantEnv: Record<string, string> =
    media === undefined
      ? {}
      : {
          SHARPSHARP_CONFIG: join(dataDir, "tenants.json"),
          ACME_SECRET: APP_SECRET,
          ACME_VERIFY: "v",
          ACME_TOKEN: GRAPH_TOKEN,
        };
  const tenant = media === undefined ? "default" : "acme";
  const running = await startEmbedded(embeddedEnvConfig(fake.url, dataDir, { ...env, ...tenantEnv }), {
    logger: createLogger({ level: (process.env.TEST_LOG_LEVEL ?? "silent") as "silent" }),
    responder,
  });
  await new Promise((resolve) => setImmediate(resolve));
  const db = new Database(running.databasePath, { fileMustExist: true });
  const store = createSqliteMessageStore(db);
  cleanups.push(async () => {
    db.close();
    await running.close();
    await fake.fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    fake,
    running,
    responder,
    async post(messages) {
      const body = mixedWebhook(messages);
      const url = `${running.url}/webhook${tenant === "default" ? "" : `/${tenant}`}`;
      const response = await fetch(url, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signatureFor(body, APP_SECRET),
        },
      });
      return response.status;
    },
    sent: () =>
      fake.fake
        .messages()
        .filter((message) => message.to?.replace(/^\+/, "") === CUSTOMER)
        .map((message) => String((message.body.text as { body?: string } | undefined)?.body)),
    async reading(wamid) {
      const page = await store.messagesOf(`${tenant}:106540352242922:${CUSTOMER}`, { limit: 100 });
      return page.items.find((item) => item.wamid === wamid)?.reading;
    },
  };
}

let sequence = 0;
function voice(
  gateway: Gateway,
  name: keyof typeof VOICE_NOTES,
  mediaId = `media-${++sequence}`,
): InboundSpecOf {
  const bytes = readVoiceNote(name);
  gateway.fake.fake.addMedia(mediaId, { bytes, mimeType: "audio/ogg; codecs=opus" });
  return {
    kind: "audio",
    wamid: `wamid.voice.${process.pid}.${++sequence}`,
    from: CUSTOMER,
    timestamp: Math.floor(Date.now() / 1000),
    mediaId,
    mimeType: "audio/ogg; codecs=opus",
    sha256: createHash("sha256").update(bytes).digest("base64"),
  };
}

function text(body: string): InboundSpecOf {
  return {
    wamid: `wamid.text.${process.pid}.${++sequence}`,
    from: CUSTOMER,
    timestamp: Math.floor(Date.now() / 1000),
    text: body,
  };
}

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

  it("answers a voice note in kind when the tenant asks: the text, then the same as a voice note", async () => {
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
