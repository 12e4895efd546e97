import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { LLM_KEY, trackFakeLlms } from "../support/fake-llm.js";
import { trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";
import { startMediaGateway, text, voice } from "../support/media-gateway.js";

const startStt = trackFakeStts(afterEach);
const startLlm = trackFakeLlms(afterEach);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const transcripts = {
  [VOICE_NOTES.pidgin.sha256]: VOICE_NOTES.pidgin.text,
  [VOICE_NOTES.en.sha256]: { text: VOICE_NOTES.en.text, durationSeconds: 30 },
};

/** A sample's value in Prometheus text, 0 when the series is not there yet. */
function sample(metrics: string, name: string, labels: Record<string, string>): number {
  const line = metrics
    .split("\n")
    .find(
      (row) =>
        row.startsWith(`${name}{`) &&
        Object.entries(labels).every(([key, value]) => row.includes(`${key}="${value}"`)),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("voice notes through a turn (embedded)", () => {
  it("speech to text times out, the fallback fails too: the polite line exactly once, the responder not asked", async () => {
    const slow = await startStt({ transcripts, latencyMs: 5_000 });
    const down = await startStt({ faults: { errorRate: 1, errorStatus: 503 } });
    const gateway = await startMediaGateway(cleanups, {
      STT_BASE_URL: `${slow.url}/v1`,
      STT_FALLBACK_BASE_URL: `${down.url}/v1`,
      STT_TIMEOUT_MS: "500",
    });
    const note = voice(gateway, "en");
    await gateway.post([note]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    // Meta delivers the webhook again: a duplicate, so no second line.
    expect(await gateway.post([note])).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(gateway.sent()).toEqual([
      expect.stringMatching(/^Sorry, I no fit open the voice note wey you send\./),
    ]);
    expect(gateway.responder.turns).toHaveLength(0);
    expect(slow.fake.requests().length).toBeGreaterThanOrEqual(1);
    expect(down.fake.requests().length).toBeGreaterThanOrEqual(1);
    expect(await gateway.reading(note.wamid)).toMatchObject({ failure: { code: "SS_SPEECH_UNAVAILABLE" } });
  });

  it("a voice note first in a burst of three (voice, text, text): one turn, the transcript first, one reply", async () => {
    const stt = await startStt({ transcripts, latencyMs: 300 });
    const gateway = await startMediaGateway(cleanups, {
      STT_BASE_URL: `${stt.url}/v1`,
      COALESCE_WINDOW_MS: "400",
      COALESCE_MAX_MS: "3000",
    });
    expect(await gateway.post([voice(gateway, "pidgin")])).toBe(200);
    expect(await gateway.post([text("abeg check am")])).toBe(200);
    expect(await gateway.post([text("na since morning")])).toBe(200);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(gateway.sent()).toEqual([`heard: ${VOICE_NOTES.pidgin.text} | abeg check am | na since morning`]);
    expect(gateway.responder.turns).toHaveLength(1);
    expect(stt.fake.requests()).toHaveLength(1);
  });

  it("the transcript is in the history the agent reads next turn, and the media and speech-cost metrics move", async () => {
    const stt = await startStt({ transcripts });
    const llm = await startLlm({ apiKey: LLM_KEY });
    const gateway = await startMediaGateway(
      cleanups,
      {
        STT_BASE_URL: `${stt.url}/v1`,
        STT_PRICE_PER_MINUTE_USD: "0.006",
        LLM_BASE_URL: `${llm.url}/v1`,
        LLM_API_KEY: LLM_KEY,
        LLM_MODEL: "gpt-4o-mini",
      },
      undefined,
      { ownResponder: true },
    );
    const audio = { tenant: "default", kind: "audio", outcome: "read" };
    const before = await gateway.metrics();
    expect(sample(before, "ss_media_reads_total", audio)).toBe(0);
    expect(sample(before, "ss_stt_cost_usd_total", { tenant: "default" })).toBe(0);

    await gateway.post([voice(gateway, "en")]);
    await eventually(() => gateway.sent().length >= 1, 10_000);
    await gateway.post([text("xyzzy plugh")]);
    await eventually(() => gateway.sent().length >= 2, 10_000);

    const requests = llm.fake.requests();
    const last = requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    const history = last.messages.slice(1, -1);
    expect(history).toContainEqual({
      role: "user",
      content: `(voice note, transcribed) ${VOICE_NOTES.en.text}`,
    });
    expect(last.messages.at(-1)).toEqual({ role: "user", content: "xyzzy plugh" });

    const after = await gateway.metrics();
    expect(sample(after, "ss_media_reads_total", audio)).toBe(1);
    expect(sample(after, "ss_media_read_seconds_count", { kind: "audio" })).toBe(1);
    // 30 seconds at $0.006 a minute.
    expect(sample(after, "ss_stt_cost_usd_total", { tenant: "default" })).toBeCloseTo(0.003, 6);
  });
});
