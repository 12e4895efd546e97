import { describe, expect, it } from "vitest";
import { parseFakeSttArgs } from "./cli-options.js";

const files: Record<string, string> = {
  "good.json": JSON.stringify({ "voice.ogg": "hello", abc: { text: "hi", language: "yoruba" } }),
  "bad.json": JSON.stringify({ "voice.ogg": 7 }),
};
const deps = {
  readText: (path: string) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
    return text;
  },
};

describe("sharpsharp fake-stt flags", () => {
  it("defaults to 127.0.0.1:4300, WAV speech, no faults, any key", () => {
    expect(parseFakeSttArgs([], deps)).toEqual({
      ok: true,
      value: { host: "127.0.0.1", port: 4300, stt: { faults: {} } },
    });
  });

  it("reads every flag, the transcripts from a file", () => {
    const parsed = parseFakeSttArgs(
      [
        "--port",
        "0",
        "--latency",
        "100-300",
        "--error-rate",
        "0.1",
        "--error-status",
        "429",
        "--transcripts",
        "good.json",
      ].concat(["--default-transcript", "hmm", "--speech-format", "ogg", "--api-key", "k", "--seed", "3"]),
      deps,
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        host: "127.0.0.1",
        port: 0,
        stt: {
          apiKey: "k",
          transcripts: { "voice.ogg": "hello", abc: { text: "hi", language: "yoruba" } },
          defaultTranscript: "hmm",
          speechFormat: "ogg",
          latencyMs: [100, 300],
          seed: 3,
          faults: { errorRate: 0.1, errorStatus: 429 },
        },
      },
    });
  });

  it("reports every problem at once", () => {
    const parsed = parseFakeSttArgs(
      [
        "--port",
        "x",
        "--latency",
        "9-1",
        "--error-status",
        "418",
        "--transcripts",
        "bad.json",
        "--speech-format",
        "mp3",
      ],
      deps,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toHaveLength(5);
    expect(parseFakeSttArgs(["--transcripts", "nope.json"], deps)).toEqual({
      ok: false,
      problems: ['--transcripts: cannot read "nope.json" (ENOENT)'],
    });
  });
});
