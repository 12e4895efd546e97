import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { isOggOpus } from "../../src/speech/index.js";
import { readVoiceNote, STT_KEY, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";

const fake = trackFakeStts(afterEach);

function upload(audio: Buffer, fields: Record<string, string> = {}, fileName = "voice.ogg"): FormData {
  const form = new FormData();
  form.append("file", new Blob([audio], { type: "audio/ogg" }), fileName);
  for (const [name, value] of Object.entries({ model: "whisper-1", ...fields })) form.append(name, value);
  return form;
}

async function transcribe(url: string, form: FormData, key: string | null = STT_KEY) {
  const response = await fetch(`${url}/v1/audio/transcriptions`, {
    method: "POST",
    body: form,
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    body: type.includes("json") ? await response.json() : await response.text(),
  };
}

describe("fake speech server: transcriptions", () => {
  it("answers scripted transcripts by sha256, then by file name, else the default, in verbose_json", async () => {
    const f = await fake({
      transcripts: {
        [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text,
        "named.ogg": { text: "by name", language: "yoruba", durationSeconds: 2.5 },
      },
      defaultTranscript: "nothing scripted",
    });
    const en = await transcribe(
      f.url,
      upload(readVoiceNote("en"), { response_format: "verbose_json", language: "en" }),
    );
    expect(en.status).toBe(200);
    expect(en.body).toMatchObject({ task: "transcribe", language: "english", text: VOICE_NOTES.en.text });
    // The duration is measured from the Ogg stream: opusinfo says 5.772 s.
    expect((en.body as { duration: number }).duration).toBeCloseTo(5.77, 1);

    const named = await transcribe(
      f.url,
      upload(readVoiceNote("pidgin"), { response_format: "verbose_json" }, "named.ogg"),
    );
    expect(named.body).toMatchObject({ text: "by name", language: "yoruba", duration: 2.5 });
    const other = await transcribe(f.url, upload(readVoiceNote("pidgin")));
    expect(other.body).toEqual({ text: "nothing scripted", usage: { type: "duration", seconds: 9 } });
    const text = await transcribe(f.url, upload(readVoiceNote("en"), { response_format: "text" }));
    expect(text.body).toBe(`${VOICE_NOTES.en.text}\n`);

    expect(f.fake.requests().map((r) => [r.model, r.language, r.size, r.sha256, r.match])).toEqual([
      ["whisper-1", "en", readVoiceNote("en").length, VOICE_NOTES.en.sha256, "sha256"],
      ["whisper-1", undefined, readVoiceNote("pidgin").length, VOICE_NOTES.pidgin.sha256, "fileName"],
      ["whisper-1", undefined, readVoiceNote("pidgin").length, VOICE_NOTES.pidgin.sha256, "default"],
      ["whisper-1", undefined, readVoiceNote("en").length, VOICE_NOTES.en.sha256, "sha256"],
    ]);
  });

  it("refuses as OpenAI does: no model, unknown extension, bad language, a wrong key (masked)", async () => {
    const f = await fake({ apiKey: STT_KEY });
    const audio = readVoiceNote("en");
    const noModel = new FormData();
    noModel.append("file", new Blob([audio]), "a.ogg");
    expect((await transcribe(f.url, noModel)).status).toBe(400);
    const badName = await transcribe(f.url, upload(audio, {}, "voice.opus"));
    expect(badName.status).toBe(400);
    expect(JSON.stringify(badName.body)).toMatch(/Invalid file format/);
    expect((await transcribe(f.url, upload(audio, { language: "pcm" }))).status).toBe(400);
    const wrong = await transcribe(f.url, upload(audio), "sk-wrong-key-abcdef123456");
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).toMatch(/Incorrect API key provided: sk-wro\*+3456/);
    expect((await transcribe(f.url, upload(audio), null)).status).toBe(401);
    expect(f.fake.requests().every((r) => !JSON.stringify(r).includes(STT_KEY))).toBe(true);
  });

  it("injects faults: the next N fail, latency ranges, hangs released on close; scripts change at run time", async () => {
    const f = await fake({ latencyMs: [20, 40] });
    const audio = readVoiceNote("en");
    f.fake.setFaults({ failNext: { count: 2, status: 429 } });
    const limited = await transcribe(f.url, upload(audio));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await transcribe(f.url, upload(audio))).status).toBe(429);
    const started = Date.now();
    expect((await transcribe(f.url, upload(audio))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(19);

    const put = await fetch(`${f.url}/_fake/transcripts`, {
      method: "PUT",
      body: JSON.stringify({ [VOICE_NOTES.en.sha256]: "changed" }),
    });
    expect(await put.json()).toEqual({ transcripts: 1 });
    expect((await transcribe(f.url, upload(audio))).body).toMatchObject({ text: "changed" });
    expect((await fetch(`${f.url}/_fake/transcripts`, { method: "PUT", body: '{"x": 1}' })).status).toBe(400);

    await fetch(`${f.url}/_fake/faults`, { method: "POST", body: JSON.stringify({ hang: true }) });
    const hung = fetch(`${f.url}/v1/audio/transcriptions`, { method: "POST", body: upload(audio) }).then(
      (r) => r.status,
      () => "dropped",
    );
    for (let i = 0; i < 50 && f.fake.faults().held === 0; i += 1) await sleep(10);
    expect(f.fake.faults().held).toBe(1);
    await f.fake.close();
    expect(await hung).toBe("dropped");
    expect(f.fake.requests().at(-1)?.outcome).toBe("dropped");
  });
});

describe("fake speech server: speech", () => {
  it("answers a WAV tone whatever was asked, or OGG/Opus when set to, and records the call", async () => {
    const f = await fake();
    const speak = () =>
      fetch(`${f.url}/v1/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "tts-1",
          input: "Your order is on its way.",
          voice: "alloy",
          response_format: "opus",
        }),
      });
    const wav = await speak();
    expect(wav.headers.get("content-type")).toBe("audio/wav");
    const wavBytes = Buffer.from(await wav.arrayBuffer());
    expect(wavBytes.toString("latin1", 0, 4)).toBe("RIFF");
    expect(wavBytes.toString("latin1", 8, 12)).toBe("WAVE");

    await fetch(`${f.url}/_fake/speech-format`, { method: "PUT", body: JSON.stringify({ format: "ogg" }) });
    const ogg = Buffer.from(await (await speak()).arrayBuffer());
    expect(isOggOpus(ogg)).toBe(true);
    expect(f.fake.requests().map((r) => [r.kind, r.model, r.voice, r.responseFormat, r.status])).toEqual([
      ["speech", "tts-1", "alloy", "opus", 200],
      ["speech", "tts-1", "alloy", "opus", 200],
    ]);
    const noVoice = await fetch(`${f.url}/v1/audio/speech`, {
      method: "POST",
      body: JSON.stringify({ model: "tts-1", input: "hi" }),
    });
    expect(noVoice.status).toBe(400);
  });
});
