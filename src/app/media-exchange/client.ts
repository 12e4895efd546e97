import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AppConfig } from "../../config/index.js";
import { PDF_TEXT_DEFAULTS, type PdfText, pdfTimedOut, pdfTooLarge } from "../../documents/index.js";
import { SharpsharpError } from "../../errors/index.js";
import {
  type DownloadedMedia,
  type MediaDownloadRequest,
  MediaThreadFailedError,
} from "../../media/index.js";
import type { Logger } from "../../observability/index.js";
import type { Transcript } from "../../speech/index.js";
import type { AudioToTranscribe, MediaExchangesPrepared } from "./exchanges.js";
import type { MediaThreadAnswer, MediaThreadCall, MediaThreadData, RelayedFailure } from "./protocol.js";

/** The media exchanges, run by a worker thread of their own (started by start() or on first use, again after a crash). */
export interface MediaThread {
  /**
   * Starts the thread now and resolves, with what it set up, once its modules have loaded and each
   * tenant's exchanges are ready, so the first medium does not wait for them (nor do the text turns
   * beside it: loading takes a core for about half a second); rejects with SS_MEDIA_THREAD_FAILED
   * when the thread fails to come up. The next medium tries again.
   */
  start(): Promise<MediaExchangesPrepared>;
  download(tenantId: string, request: MediaDownloadRequest): Promise<DownloadedMedia>;
  transcribe(tenantId: string, audio: AudioToTranscribe, signal: AbortSignal): Promise<Transcript>;
  /**
   * The text of a PDF's first pages, read in the thread (the caller's bytes are copied there, and stay
   * its own). An abort rejects at once with the signal's reason, and `pdfTimeoutMs` with
   * SS_DOCUMENTS_PDF_TIMEOUT; a thread that has not answered by then is stopped, failing its other
   * calls with SS_MEDIA_THREAD_FAILED, and the next call starts another. So give PDFs a thread of
   * their own.
   */
  pdfText(bytes: Uint8Array, signal: AbortSignal): Promise<PdfText>;
  /** Stops the thread; calls still waiting reject with SS_MEDIA_THREAD_FAILED. */
  close(): Promise<void>;
}

export interface MediaThreadOptions {
  readonly graphTimeoutMs: number;
  readonly logger: Logger;
  /** A PDF's reading is given up after this long, ms; default PDF_TEXT_DEFAULTS.timeoutMs (5 s). */
  readonly pdfTimeoutMs?: number;
  /**
   * The thread's old-generation heap limit, MiB; default none (V8's own). A thread past it is stopped
   * by Node, not the process: its calls fail with SS_MEDIA_THREAD_FAILED and the next call starts another.
   */
  readonly maxHeapMb?: number;
  /** A thread for PDFs: it loads pdf.js before it is ready (a reading's time limit starts then). */
  readonly documents?: boolean;
  /** The thread's module; default the built `thread.js` beside this one. */
  readonly module?: URL;
}

/** A failure of the media thread's, with the code and message it had there. */
class RelayedMediaError extends SharpsharpError {
  constructor(code: string, failure: RelayedFailure) {
    super(code, failure.message);
    this.name = failure.name;
  }
}

/** As it was thrown in the thread: a sharpsharp error keeps its code; anything else is a plain Error. */
function rebuilt(failure: RelayedFailure): Error {
  if (failure.code !== undefined) return new RelayedMediaError(failure.code, failure);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/**
 * The thread's module. Run from TypeScript source (the test runner) there is no `thread.js` beside
 * this file: the build's copy (`npm run build`) is used then.
 */
function threadModule(): URL {
  const beside = new URL("./thread.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const at = beside.href.lastIndexOf("/src/");
  const built = new URL(`${beside.href.slice(0, at)}/dist${beside.href.slice(at)}`);
  if (at >= 0 && existsSync(fileURLToPath(built))) return built;
  throw new MediaThreadFailedError(
    `the media thread's module is missing (${fileURLToPath(beside)}): build first`,
  );
}

/**
 * The document thread's heap limit, MiB. Reading the first page of `heavyPdf(20_000)` took 57 MiB of a
 * thread's heap, and of `heavyPdf(200_000)` 284 MiB over 7.6 s (past the 5 s limit anyway); invoices and
 * statements take far less. Several heavy PDFs at once stop the thread here rather than the process.
 */
export const DOCUMENT_THREAD_HEAP_MB = 256;

interface Waiting {
  readonly resolve: (answer: MediaThreadAnswer & { ok: true }) => void;
  readonly reject: (error: Error) => void;
  /** The thread the call was posted to. */
  readonly thread: Worker;
}

/**
 * Runs the media exchanges (Meta's lookup and download, speech to text, a
 * PDF's text) on a worker thread, so a medium's HTTP, hashing and parsing
 * work does not delay the text turns sharing the main thread. Bytes come
 * back moved, not copied, when they own their memory.
 */
export function startMediaThread(config: AppConfig, options: MediaThreadOptions): MediaThread {
  const data: MediaThreadData = {
    config,
    graphTimeoutMs: options.graphTimeoutMs,
    ...(options.documents === true ? { documents: true } : {}),
  };
  const waiting = new Map<number, Waiting>();
  let worker: Worker | undefined;
  // Settled by the thread's first message, or by its exit before that.
  let ready: Promise<MediaExchangesPrepared> | undefined;
  let closed = false;
  // Threads stopped on purpose (a PDF reading that would not stop): their exit is expected.
  const stopping = new WeakSet<Worker>();
  let nextId = 1;
  const pdfTimeoutMs = options.pdfTimeoutMs ?? PDF_TEXT_DEFAULTS.timeoutMs;

  /** Fails the calls posted to `thread`. */
  const failAll = (error: Error, thread: Worker) => {
    for (const [id, call] of waiting) {
      if (call.thread !== thread) continue;
      waiting.delete(id);
      call.reject(error);
    }
  };
  const pendingOn = (thread: Worker) => {
    let pending = 0;
    for (const call of waiting.values()) if (call.thread === thread) pending += 1;
    return pending;
  };

  const start = (): Worker => {
    const thread = new Worker(options.module ?? threadModule(), {
      workerData: data,
      ...(options.maxHeapMb === undefined
        ? {}
        : { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } }),
    });
    thread.unref();
    let failure: Error | undefined;
    let loaded: (prepared: MediaExchangesPrepared) => void = () => {};
    let notLoaded: (error: Error) => void = () => {};
    ready = new Promise<MediaExchangesPrepared>((resolve, reject) => {
      loaded = resolve;
      notLoaded = reject;
    });
    // Nobody may be waiting for it; a failure to start also fails the calls that are.
    ready.catch(() => {});
    thread.on("message", (answer: MediaThreadAnswer) => {
      if ("ready" in answer) return loaded(answer.ready);
      const call = waiting.get(answer.id);
      if (call === undefined) return;
      waiting.delete(answer.id);
      if (pendingOn(thread) === 0) thread.unref();
      if (answer.ok) call.resolve(answer);
      else call.reject(rebuilt(answer.failure));
    });
    thread.on("error", (error) => {
      failure = error;
    });
    thread.on("exit", (exitCode) => {
      if (worker === thread) worker = undefined;
      if (closed) {
        const stopped = new MediaThreadFailedError("the media thread was stopped");
        notLoaded(stopped);
        return failAll(stopped, thread);
      }
      if (stopping.has(thread)) {
        const stopped = new MediaThreadFailedError(
          "the media thread was stopped in the middle of a PDF reading",
        );
        notLoaded(stopped);
        return failAll(stopped, thread);
      }
      const why = failure === undefined ? `exit code ${exitCode}` : failure.message;
      options.logger.error(
        { exitCode, err: failure },
        "the media thread stopped; it starts again on the next medium",
      );
      const stopped = new MediaThreadFailedError(`the media thread stopped (${why})`, failure);
      notLoaded(stopped);
      failAll(stopped, thread);
    });
    return thread;
  };

  /** The thread, started if it is not running; throws once closed or when its module is missing. */
  const running = (): Worker => {
    if (closed) throw new MediaThreadFailedError("the media thread was stopped");
    worker ??= start();
    return worker;
  };

  const call = (message: MediaThreadCall): Promise<MediaThreadAnswer & { ok: true }> => {
    let thread: Worker;
    try {
      thread = running();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      if (pendingOn(thread) === 0) thread.ref();
      waiting.set(message.id, { resolve, reject, thread });
      thread.postMessage(message);
    });
  };

  /** A call that `signal` cancels in the thread; an abort before it was posted is passed on too. */
  const cancellable = async (
    message: Extract<MediaThreadCall, { op: "transcribe" | "pdfText" }>,
    signal: AbortSignal,
  ): Promise<MediaThreadAnswer & { ok: true }> => {
    const cancel = () => worker?.postMessage({ op: "abort", id: message.id } satisfies MediaThreadCall);
    const answered = call(message);
    if (signal.aborted) cancel();
    else signal.addEventListener("abort", cancel, { once: true });
    try {
      return await answered;
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  };

  /** One PDF reading on the thread (see pdfText); the caller holds the PDF turn. */
  const readPdf = (bytes: Uint8Array, signal: AbortSignal): Promise<PdfText> => {
    // pdf.js parses a page in one go, and the thread hears no abort and no deadline of its own until
    // the page is done: the wait ends here, and a thread still busy then is stopped.
    const deadline = new AbortController();
    const stop = AbortSignal.any([signal, deadline.signal]);
    const why = () => (signal.aborted ? signal.reason : pdfTimedOut());
    const id = nextId++;
    const answered = cancellable({ op: "pdfText", id, bytes }, stop);
    // The thread the call went to (undefined when it could not be started: the call fails).
    const thread = worker;
    // The time limit is the reading's: it starts once the thread is up (with pdf.js loaded, for a
    // thread started with `documents`), not while it loads.
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const arm = () => {
      if (!settled) timer = setTimeout(() => deadline.abort(), pdfTimeoutMs).unref();
    };
    void (ready ?? Promise.resolve()).then(arm, arm);
    return new Promise<PdfText>((resolve, reject) => {
      const onStop = () => {
        reject(why());
        if (!waiting.has(id) || thread === undefined) return;
        // Still parsing, deaf to the abort: stopped now, and the next call starts a thread of its own.
        options.logger.warn("a PDF reading was stopped mid-page: its thread is stopped");
        stopping.add(thread);
        if (worker === thread) worker = undefined;
        void thread.terminate();
      };
      stop.addEventListener("abort", onStop, { once: true });
      answered
        .then((answer) => {
          if (!("pdfText" in answer)) throw new TypeError("the media thread answered a PDF with no text");
          resolve(answer.pdfText);
        })
        .catch((error: unknown) => reject(stop.aborted ? why() : error))
        .finally(() => {
          settled = true;
          clearTimeout(timer);
          stop.removeEventListener("abort", onStop);
        });
    });
  };

  // One PDF at a time: pdf.js parses a page in one step, so a second reading would only wait inside the
  // thread with its time limit running, and reaching it would stop the thread under the first.
  let pdfLine: Promise<void> = Promise.resolve();
  /** Resolves, with the function that passes the turn on, once the earlier readings have ended. */
  const pdfTurn = async (signal: AbortSignal): Promise<() => void> => {
    const earlier = pdfLine;
    let passOn: () => void = () => {};
    pdfLine = new Promise<void>((resolve) => {
      passOn = resolve;
    });
    let onAbort: () => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([earlier, aborted]);
      return passOn;
    } catch (error) {
      // Gone while waiting: the turn still passes on in order, once the earlier readings end.
      void earlier.then(passOn);
      throw error;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  };

  return {
    start() {
      try {
        running();
      } catch (error) {
        return Promise.reject(error);
      }
      return ready ?? Promise.reject(new MediaThreadFailedError("the media thread did not start"));
    },
    async download(tenantId, request) {
      const answer = await call({ op: "download", id: nextId++, tenantId, request });
      if (!("downloaded" in answer))
        throw new TypeError("the media thread answered a download with no bytes");
      const { bytes } = answer.downloaded;
      return { ...answer.downloaded, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
    async transcribe(tenantId, audio, signal) {
      const id = nextId++;
      const answer = await cancellable(
        {
          op: "transcribe",
          id,
          tenantId,
          audio: audio.audio,
          mimeType: audio.mimeType,
          ...(audio.language === undefined ? {} : { language: audio.language }),
          ...(audio.fileName === undefined ? {} : { fileName: audio.fileName }),
        },
        signal,
      );
      if (!("transcript" in answer))
        throw new TypeError("the media thread answered a transcription with no text");
      return answer.transcript;
    },
    async pdfText(bytes, signal) {
      // Refused here rather than copied to the thread to be refused there (a document may be 100 MB).
      if (bytes.byteLength > PDF_TEXT_DEFAULTS.maxBytes) throw pdfTooLarge(bytes.byteLength);
      signal.throwIfAborted();
      const passOn = await pdfTurn(signal);
      try {
        return await readPdf(bytes, signal);
      } finally {
        passOn();
      }
    },
    async close() {
      closed = true;
      await worker?.terminate();
    },
  };
}
