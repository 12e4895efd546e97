import { createServer as createHttpServer } from "node:http";
import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiTranscriber, SpeechError } from "../../src/speech/index.js";
import { readVoiceNote, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";

const voiceNote = { audio: readVoiceNote("en"), mimeType: "audio/ogg; codecs=opus" };

// A listener whose thread blocks right after listen(), so it never accepts: once its backlog is full,
// the kernel drops new connection attempts and a client's connect hangs, as with a host that is down.
const UNACCEPTING = `
const { createServer } = require("node:net");
const { parentPort } = require("node:worker_threads");
const server = createServer();
server.listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});
`;

const fake = trackFakeStts(afterEach);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hangingUrl(): Promise<string> {
  const worker = new Worker(UNACCEPTING, { eval: true });
  cleanups.push(() => worker.terminate());
  const port = await new Promise<number>((resolve) => worker.once("message", resolve));
  // Fill the accept queue: these complete their handshake and wait there; later ones cannot.
  const fillers: Socket[] = [];
  for (let i = 0; i < 4; i += 1) fillers.push(connect(port, "127.0.0.1").on("error", () => {}));
  cleanups.push(() => {
    for (const socket of fillers) socket.destroy();
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  return `http://127.0.0.1:${port}/v1`;
}

describe("a speech provider that does not answer the connection", () => {
  it("fails at the call's timeout, not at the HTTP client's own 10 s connect timeout", async () => {
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: await hangingUrl(), model: "whisper-1" },
      timeoutMs: 300,
    });
    const started = Date.now();
    const error = await transcriber.transcribe(voiceNote).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: "SS_SPEECH_UNAVAILABLE", retryable: true });
    expect((error as Error).message).toMatch(/no complete answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("gives up at once when the caller aborts during the connect", async () => {
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: await hangingUrl(), model: "whisper-1" },
      timeoutMs: 30_000,
    });
    const started = Date.now();
    const error = await transcriber
      .transcribe(voiceNote, AbortSignal.timeout(200))
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SS_SPEECH_ABORTED", retryable: false });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("a speech provider behind a proxy that redirects", () => {
  it("follows a 308 to the provider and sends the voice note again there, as fetch did", async () => {
    const stt = await fake({ transcripts: { [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text } });
    const proxy = createHttpServer((request, response) => {
      request.resume();
      response.writeHead(308, { location: `${stt.url}${request.url ?? "/"}` }).end();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
    const { port } = proxy.address() as { port: number };
    const transcriber = createOpenAiTranscriber({
      primary: { baseUrl: `http://127.0.0.1:${port}/v1`, model: "whisper-1" },
      timeoutMs: 5000,
    });
    const transcript = await transcriber.transcribe(voiceNote);
    expect(transcript.text).toBe(VOICE_NOTES.en.text);
    expect(stt.fake.requests()).toHaveLength(1);
  });
});
