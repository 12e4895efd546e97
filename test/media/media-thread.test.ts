import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MediaThread, startMediaThread } from "../../src/app/media-exchange/client.js";
import { createMediaExchanges } from "../../src/app/media-exchange/exchanges.js";
import { MEDIA_THREAD_NICE_STEPS } from "../../src/app/media-exchange/thread-priority.js";
import { heavyPdf } from "../../src/dev/index.js";
import { extractPdfText, PDF_TEXT_DEFAULTS } from "../../src/documents/index.js";
import { createLogger } from "../../src/observability/index.js";
import { embeddedEnvConfig } from "../support/embedded-config.js";
import { trackFakes } from "../support/fake-graph.js";
import { readVoiceNote, STT_KEY, trackFakeStts, VOICE_NOTES } from "../support/fake-stt.js";

const startGraph = trackFakes(afterEach);
const startStt = trackFakeStts(afterEach);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const logger = createLogger({ level: "silent" });
// The thread runs ten nice steps down: beside a busy suite it gets a tenth of a core, and a heavy PDF
// (and the thread's start) takes ten times as long as on a quiet machine.
const HEAVY_PDF_TEST_MS = 60_000;
const VOICE = readVoiceNote("en");
const VOICE_SHA256 = createHash("sha256").update(VOICE).digest("base64");

/** The media thread of an embedded gateway on the fake Graph API and fake speech to text. */
async function threadFor(
  stt: { url: string } | undefined,
  extra: Record<string, string> = {},
  limits: { pdfTimeoutMs?: number; maxHeapMb?: number; documents?: boolean } = {},
): Promise<MediaThread> {
  const graph = await startGraph();
  graph.fake.addMedia("voice-1", { bytes: VOICE, mimeType: "audio/ogg; codecs=opus" });
  const dataDir = mkdtempSync(join(tmpdir(), "ss-media-thread-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = embeddedEnvConfig(graph.url, dataDir, {
    ...(stt === undefined ? {} : { STT_BASE_URL: `${stt.url}/v1`, STT_API_KEY: STT_KEY }),
    ...extra,
  });
  const thread = startMediaThread(config, {
    graphTimeoutMs: 5_000,
    logger,
    ...limits,
  });
  cleanups.push(() => thread.close());
  return thread;
}

/** A thread answering from a stand-in module in test/fixtures/media-thread/. */
function crashingThread(file = "crashing-thread.mjs"): MediaThread {
  const graph = "http://127.0.0.1:9";
  const dataDir = mkdtempSync(join(tmpdir(), "ss-media-thread-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = embeddedEnvConfig(graph, dataDir);
  const thread = startMediaThread(config, {
    graphTimeoutMs: 1_000,
    logger,
    module: new URL(`../fixtures/media-thread/${file}`, import.meta.url),
  });
  cleanups.push(() => thread.close());
  return thread;
}

describe("the media thread", () => {
  it("downloads and transcribes away from the main thread: the bytes arrive whole and checked, the words come back", async () => {
    const stt = await startStt({
      apiKey: STT_KEY,
      transcripts: { [VOICE_NOTES.en.sha256]: VOICE_NOTES.en.text },
    });
    const thread = await threadFor(stt);
    const downloaded = await thread.download("default", {
      mediaId: "voice-1",
      kind: "audio",
      sha256: VOICE_SHA256,
    });
    expect(Buffer.isBuffer(downloaded.bytes)).toBe(true);
    expect(downloaded.bytes.equals(VOICE)).toBe(true);
    expect(downloaded).toMatchObject({
      size: VOICE.length,
      sha256: VOICE_SHA256,
      mimeType: "audio/ogg; codecs=opus",
    });
    const transcript = await thread.transcribe(
      "default",
      { audio: downloaded.bytes, mimeType: downloaded.mimeType, language: "en" },
      new AbortController().signal,
    );
    expect(transcript).toMatchObject({ text: VOICE_NOTES.en.text, provider: "primary" });
  });

  it(
    "reads a PDF's text in the thread: the main thread's event loop stays free while pdf.js works",
    async () => {
      const thread = await threadFor(undefined, {}, { documents: true });
      await thread.start();
      const pdf = heavyPdf(10_000);
      // The same reading on this thread, for contrast: pdf.js keeps its event loop busy the whole time.
      const inline = performance.eventLoopUtilization();
      const here = await extractPdfText(pdf);
      expect(performance.eventLoopUtilization(inline).utilization).toBeGreaterThan(0.8);

      const before = performance.eventLoopUtilization();
      const read = await thread.pdfText(pdf, new AbortController().signal);
      expect(performance.eventLoopUtilization(before).utilization).toBeLessThan(0.5);
      expect(read).toEqual(here);
      expect(read.text).toMatch(/^Transfer 0 NGN 0\.00 ref TRX0/);
      expect(pdf.equals(heavyPdf(10_000))).toBe(true);
    },
    HEAVY_PDF_TEST_MS,
  );

  it(
    "an abort ends a PDF reading's wait at once with the caller's reason, though pdf.js cannot hear it mid-page; the next PDF is read",
    async () => {
      const thread = await threadFor(undefined, {}, { documents: true });
      await thread.start();
      const turn = new AbortController();
      const reason = new Error("the turn was cancelled");
      const started = Date.now();
      // Several seconds of one page: the thread hears nothing until it is done, so it is stopped.
      const reading = thread.pdfText(heavyPdf(80_000), turn.signal);
      setTimeout(() => turn.abort(reason), 200);
      await expect(reading).rejects.toBe(reason);
      expect(Date.now() - started).toBeLessThan(1_500);
      const next = await thread.pdfText(heavyPdf(10), new AbortController().signal);
      expect(next).toMatchObject({ pages: 1, pagesRead: 1, truncated: false });
      expect(next.text).toContain("Transfer 9 NGN 333.00 ref TRX9");
    },
    HEAVY_PDF_TEST_MS,
  );

  it(
    "a PDF reading past its time limit fails with SS_DOCUMENTS_PDF_TIMEOUT and stops its thread; the next PDF is read",
    async () => {
      const thread = await threadFor(undefined, {}, { documents: true, pdfTimeoutMs: 1_500 });
      await thread.start();
      const started = Date.now();
      await expect(thread.pdfText(heavyPdf(150_000), new AbortController().signal)).rejects.toMatchObject({
        code: "SS_DOCUMENTS_PDF_TIMEOUT",
      });
      expect(Date.now() - started).toBeLessThan(3_000);
      await expect(thread.pdfText(heavyPdf(10), new AbortController().signal)).resolves.toMatchObject({
        pagesRead: 1,
      });
    },
    HEAVY_PDF_TEST_MS,
  );

  it(
    "PDFs are read one at a time: one waiting behind a reading that runs out of time is read in full, on the next thread",
    async () => {
      const thread = await threadFor(undefined, {}, { documents: true, pdfTimeoutMs: 1_500 });
      await thread.start();
      const first = thread.pdfText(heavyPdf(150_000), new AbortController().signal);
      first.catch(() => {});
      // Sent once the first is deep in its page, which the thread does in one step.
      await new Promise((resolve) => setTimeout(resolve, 700));
      const second = thread.pdfText(heavyPdf(10), new AbortController().signal);
      await expect(first).rejects.toMatchObject({ code: "SS_DOCUMENTS_PDF_TIMEOUT" });
      // Posted beside the first, it would have waited in the same thread and gone down with it.
      await expect(second).resolves.toMatchObject({ pagesRead: 1, truncated: false });
    },
    HEAVY_PDF_TEST_MS,
  );

  it("a PDF whose turn ends while it waits for the one before leaves the line at once, and the next one is read", async () => {
    const thread = await threadFor(undefined, {}, { documents: true });
    await thread.start();
    const first = thread.pdfText(heavyPdf(2_000), new AbortController().signal);
    const gone = new AbortController();
    const waiting = thread.pdfText(heavyPdf(10), gone.signal);
    const third = thread.pdfText(heavyPdf(10), new AbortController().signal);
    gone.abort(new Error("the turn ended"));
    await expect(waiting).rejects.toThrow("the turn ended");
    await expect(first).resolves.toMatchObject({ pagesRead: 1 });
    await expect(third).resolves.toMatchObject({ pagesRead: 1 });
  });

  it(
    "a PDF whose reading outgrows the thread's heap stops that thread, not the process: SS_MEDIA_THREAD_FAILED, and the next PDF is read",
    async () => {
      // No time limit in reach: on a busy machine the niced thread would hit it first.
      const thread = await threadFor(undefined, {}, { documents: true, maxHeapMb: 40, pdfTimeoutMs: 60_000 });
      await thread.start();
      // 100,000 text runs on one page take pdf.js well over 100 MiB of heap.
      await expect(thread.pdfText(heavyPdf(100_000), new AbortController().signal)).rejects.toMatchObject({
        code: "SS_MEDIA_THREAD_FAILED",
        message: expect.stringMatching(/memory/i),
      });
      await expect(thread.pdfText(heavyPdf(10), new AbortController().signal)).resolves.toMatchObject({
        pagesRead: 1,
      });
    },
    HEAVY_PDF_TEST_MS,
  );

  it("the document thread sets up no downloads nor speech to text, only pdf.js, and reads a PDF", async () => {
    const stt = await startStt();
    const thread = await threadFor(stt, {}, { documents: true });
    await expect(thread.start()).resolves.toEqual({ downloads: 0, transcribers: 0 });
    const invoice = readFileSync(new URL("../fixtures/media/order-invoice.pdf", import.meta.url));
    const read = await thread.pdfText(invoice, new AbortController().signal);
    expect(read.pagesRead).toBeGreaterThan(0);
    expect(read.text.length).toBeGreaterThan(0);
  });

  it("a PDF over the reader's limit is refused before it is copied to the thread; a locked one keeps its code from there", async () => {
    const thread = await threadFor(undefined, {}, { documents: true });
    const oversized = Buffer.alloc(PDF_TEXT_DEFAULTS.maxBytes + 1);
    await expect(thread.pdfText(oversized, new AbortController().signal)).rejects.toMatchObject({
      code: "SS_DOCUMENTS_PDF_TOO_LARGE",
    });
    const locked = readFileSync(new URL("../fixtures/media/order-invoice-locked.pdf", import.meta.url));
    await expect(thread.pdfText(locked, new AbortController().signal)).rejects.toMatchObject({
      code: "SS_DOCUMENTS_PDF_ENCRYPTED",
    });
  });

  it("a failure in the thread keeps its code and message: a checksum mismatch is SS_MEDIA_CHECKSUM_MISMATCH", async () => {
    const stt = await startStt();
    const thread = await threadFor(stt);
    const failed = thread.download("default", {
      mediaId: "voice-1",
      kind: "audio",
      sha256: createHash("sha256").update("something else").digest("base64"),
    });
    await expect(failed).rejects.toMatchObject({
      code: "SS_MEDIA_CHECKSUM_MISMATCH",
      message: expect.stringContaining("voice-1"),
    });
  });

  it("an abort reaches the speech call in the thread: it stops at once, not at the provider's timeout", async () => {
    const stt = await startStt({ latencyMs: 10_000 });
    const thread = await threadFor(stt, { STT_TIMEOUT_MS: "20000" });
    const turn = new AbortController();
    const started = Date.now();
    const heard = thread.transcribe(
      "default",
      { audio: VOICE, mimeType: "audio/ogg; codecs=opus" },
      turn.signal,
    );
    setTimeout(() => turn.abort(), 300);
    await expect(heard).rejects.toMatchObject({ code: "SS_SPEECH_ABORTED" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a thread that dies mid-call fails that call with SS_MEDIA_THREAD_FAILED, and the next medium starts a new one", async () => {
    const thread = crashingThread();
    await expect(thread.download("default", { mediaId: "crash", kind: "audio" })).rejects.toMatchObject({
      code: "SS_MEDIA_THREAD_FAILED",
      message: expect.stringContaining("exit code 3"),
    });
    const next = await thread.download("default", { mediaId: "voice-2", kind: "audio" });
    expect([...next.bytes]).toEqual([1, 2, 3, 4]);
  });

  it("start() brings the thread up before any medium, with each tenant's exchanges set up, and the first download then runs on it", async () => {
    const stt = await startStt();
    const thread = await threadFor(stt);
    await expect(thread.start()).resolves.toEqual({ downloads: 1, transcribers: 1 });
    // A second start() is the same thread, already up.
    await expect(thread.start()).resolves.toEqual({ downloads: 1, transcribers: 1 });
    const downloaded = await thread.download("default", {
      mediaId: "voice-1",
      kind: "audio",
      sha256: VOICE_SHA256,
    });
    expect(downloaded.bytes.equals(VOICE)).toBe(true);
  });

  it("a tenant whose media settings cannot be read is left out of prepare(), and the others are set up", async () => {
    const graph = await startGraph();
    const stt = await startStt();
    const dataDir = mkdtempSync(join(tmpdir(), "ss-media-thread-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = embeddedEnvConfig(graph.url, dataDir, {
      STT_BASE_URL: `${stt.url}/v1`,
      STT_API_KEY: STT_KEY,
    });
    const [own] = config.tenants;
    if (own === undefined) throw new Error("the config has no tenant");
    // Pictures for the agent without a model that sees them: refused when the settings are read.
    const broken = { ...own, id: "broken", settings: { ...own.settings, media: { agentImages: true } } };
    const exchanges = createMediaExchanges({ ...config, tenants: [broken, own] }, 5_000);
    cleanups.push(() => exchanges.close());
    await expect(exchanges.prepare()).resolves.toEqual({ downloads: 1, transcribers: 1 });
    await expect(exchanges.download("broken", { mediaId: "voice-1", kind: "audio" })).rejects.toThrow(
      /agentImages/,
    );
  });

  it.runIf(process.platform === "linux")(
    "the thread is scheduled below the main thread (nice +10), and the main thread keeps its priority",
    async () => {
      const niceOf = (tid: string) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
      const before = new Set(readdirSync("/proc/self/task"));
      const mainNice = getPriority(0);
      const thread = await threadFor(undefined);
      await thread.start();
      const started = readdirSync("/proc/self/task").filter((tid) => !before.has(tid));
      expect(started.map(niceOf)).toContain(Math.min(19, mainNice + MEDIA_THREAD_NICE_STEPS));
      expect(niceOf(String(process.pid))).toBe(mainNice);
      expect(getPriority(0)).toBe(mainNice);
    },
  );

  it("without speech to text, start() sets up the downloads only", async () => {
    const thread = await threadFor(undefined);
    await expect(thread.start()).resolves.toEqual({ downloads: 1, transcribers: 0 });
  });

  it("a thread that cannot load fails start() with SS_MEDIA_THREAD_FAILED, and start() tries again", async () => {
    const thread = crashingThread("unloadable-thread.mjs");
    await expect(thread.start()).rejects.toMatchObject({
      code: "SS_MEDIA_THREAD_FAILED",
      message: expect.stringContaining("cannot load"),
    });
    await expect(thread.start()).rejects.toMatchObject({ code: "SS_MEDIA_THREAD_FAILED" });
  });

  it("close() fails the calls still waiting and refuses new ones, with SS_MEDIA_THREAD_FAILED", async () => {
    const stt = await startStt({ latencyMs: 10_000 });
    const thread = await threadFor(stt);
    const waiting = thread.transcribe(
      "default",
      { audio: VOICE, mimeType: "audio/ogg; codecs=opus" },
      new AbortController().signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await thread.close();
    await expect(waiting).rejects.toMatchObject({ code: "SS_MEDIA_THREAD_FAILED" });
    await expect(thread.download("default", { mediaId: "voice-1", kind: "audio" })).rejects.toMatchObject({
      code: "SS_MEDIA_THREAD_FAILED",
    });
  });
});
