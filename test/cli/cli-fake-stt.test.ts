import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { readVoiceNote, VOICE_NOTES } from "../support/fake-stt.js";

const bin = fileURLToPath(new URL("../../bin/sharpsharp.js", import.meta.url));
const transcripts = fileURLToPath(new URL("../fixtures/media/transcripts.json", import.meta.url));

describe("sharpsharp fake-stt (the built CLI)", () => {
  it("prints one line with its URL, transcribes the fixtures by their transcripts.json, and exits 0 on SIGTERM", async () => {
    let output = "";
    const child = spawn(
      process.execPath,
      [
        bin,
        "fake-stt",
        "--port",
        "0",
        "--transcripts",
        transcripts,
        "--api-key",
        "cli-stt-key",
        "--latency",
        "5-10",
      ],
      { env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      output += String(chunk);
    });
    try {
      await eventually(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 10_000);
      expect(output.trim().split("\n")).toHaveLength(1);
      expect(output).toMatch(
        /api key: required; transcripts: 2; speech: wav; latency: 5-10 ms; errors: off\)/,
      );
      expect(output).not.toContain("cli-stt-key");
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0] as string;
      const form = new FormData();
      form.append("file", new Blob([readVoiceNote("pidgin")], { type: "audio/ogg" }), "voice.ogg");
      form.append("model", "whisper-1");
      const response = await fetch(`${url}/v1/audio/transcriptions`, {
        method: "POST",
        headers: { authorization: "Bearer cli-stt-key" },
        body: form,
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { text: string }).text).toBe(VOICE_NOTES.pidgin.text);
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});
