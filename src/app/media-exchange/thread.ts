import { parentPort, workerData } from "node:worker_threads";
import { loadPdfReader } from "../../documents/index.js";
import { SharpsharpError } from "../../errors/index.js";
import { createMediaExchanges } from "./exchanges.js";
import type { MediaThreadAnswer, MediaThreadCall, MediaThreadData, RelayedFailure } from "./protocol.js";
import { lowerThreadPriority, MEDIA_THREAD_NICE_STEPS } from "./thread-priority.js";

// The media thread: Meta's media lookups and downloads, the speech calls and PDF text run here, so
// their parsing, hashing and HTTP work never lands between the turns on the main thread.
const port = parentPort;
if (port === null) throw new Error("the media thread runs only as a worker thread");
// Below the event loop's thread, so the turns get a core first when both want one. What it does to text
// p99 beside voice notes was within the run-to-run spread of two-minute pairs (bench/RESULTS.md).
lowerThreadPriority(MEDIA_THREAD_NICE_STEPS);
const { config, graphTimeoutMs, documents } = workerData as MediaThreadData;
const exchanges = createMediaExchanges(config, graphTimeoutMs);
// The calls an abort can stop: transcriptions and PDF readings.
const cancellable = new Map<number, AbortController>();

function relayable(error: unknown): RelayedFailure {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const code = error instanceof SharpsharpError ? { code: error.code } : {};
  return { name: error.name, message: error.message, ...code };
}

/** Moves a buffer that owns its memory; a slice of Node's pool is copied instead. */
function transferable(bytes: Buffer): ArrayBuffer[] {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}

async function answer(call: Exclude<MediaThreadCall, { op: "abort" }>): Promise<void> {
  let reply: MediaThreadAnswer;
  let transfer: ArrayBuffer[] = [];
  try {
    if (call.op === "download") {
      const downloaded = await exchanges.download(call.tenantId, call.request);
      reply = { id: call.id, ok: true, downloaded };
      transfer = transferable(downloaded.bytes);
    } else if (call.op === "pdfText") {
      const controller = new AbortController();
      cancellable.set(call.id, controller);
      reply = { id: call.id, ok: true, pdfText: await exchanges.pdfText(call.bytes, controller.signal) };
    } else {
      const controller = new AbortController();
      cancellable.set(call.id, controller);
      const { audio, mimeType, language, fileName } = call;
      const transcript = await exchanges.transcribe(
        call.tenantId,
        {
          audio: Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength),
          mimeType,
          ...(language === undefined ? {} : { language }),
          ...(fileName === undefined ? {} : { fileName }),
        },
        controller.signal,
      );
      reply = { id: call.id, ok: true, transcript };
    }
  } catch (error) {
    reply = { id: call.id, ok: false, failure: relayable(error) };
  } finally {
    cancellable.delete(call.id);
  }
  port?.postMessage(reply, transfer);
}

port.on("message", (call: MediaThreadCall) => {
  if (call.op === "abort") cancellable.get(call.id)?.abort();
  else void answer(call);
});

const nothingPrepared = { downloads: 0, transcribers: 0 };
// The media thread is ready once every tenant's downloads and speech to text are set up; were that to
// fail, it still serves (each medium sets up its tenant again), it only reports nothing prepared. The
// document thread reads PDFs only: it loads pdf.js instead, so that a reading's time limit, which starts
// at ready, is not spent loading it (a fifth of a second of a core, more for a thread this far down on a
// busy machine). A failure to load shows at the first PDF.
let ready = nothingPrepared;
if (documents === true) await loadPdfReader().catch(() => {});
else ready = await exchanges.prepare().catch(() => nothingPrepared);
port.postMessage({ id: 0, ok: true, ready } satisfies MediaThreadAnswer);
