import { getResolvedPDFJS } from "unpdf";
import { PdfTextError } from "./errors.js";

export interface PdfTextOptions {
  /** Pages read, from the first; default 3. A page past it is never parsed. */
  readonly maxPages?: number;
  /** Characters of text returned (code points); default 4,000. */
  readonly maxChars?: number;
  /** Larger input is refused before parsing, bytes; default 10 MiB. */
  readonly maxBytes?: number;
  /** The whole reading's limit, ms (opening the document and every page); default 5,000. */
  readonly timeoutMs?: number;
  /** The caller's abort: reading stops and the signal's reason is thrown. */
  readonly signal?: AbortSignal;
}

export interface PdfText {
  /** The pages' text, lines kept, pages separated by a blank line; at most `maxChars`. */
  readonly text: string;
  /** Pages in the document. */
  readonly pages: number;
  /** Pages whose text was read (at most `maxPages`; fewer once `maxChars` was reached). */
  readonly pagesRead: number;
  /** Some text was left out: pages not read, or text cut at `maxChars`. */
  readonly truncated: boolean;
}

export const PDF_TEXT_DEFAULTS = {
  maxPages: 3,
  maxChars: 4_000,
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 5_000,
} as const;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** The refusal of a PDF over `maxBytes`, before any parsing (also before handing it to another thread). */
export function pdfTooLarge(size: number, maxBytes: number = PDF_TEXT_DEFAULTS.maxBytes): PdfTextError {
  return new PdfTextError("pdfTooLarge", `the PDF is ${size} bytes, over the ${maxBytes} read`);
}

/** Loads pdf.js now, so that the first reading does not pay for it (a thread that reads PDFs, at start). */
export async function loadPdfReader(): Promise<void> {
  await getResolvedPDFJS();
}

/** A reading stopped at its time limit. */
export function pdfTimedOut(cause?: unknown): PdfTextError {
  return new PdfTextError("pdfTimeout", "reading the PDF took too long", cause);
}

/** Rejects with the signal's reason once it aborts, whatever `promise` does. */
function bounded<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A page's text items as lines: pdf.js marks a line's end with `hasEOL`. */
function pageText(items: readonly unknown[]): string {
  let text = "";
  for (const item of items) {
    if (typeof item !== "object" || item === null || !("str" in item)) continue;
    text += String(item.str);
    if ("hasEOL" in item && item.hasEOL === true) text += "\n";
  }
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line, index, lines) => line !== "" || (index > 0 && lines[index - 1] !== ""))
    .join("\n")
    .trim();
}

function classify(error: unknown, deadline: AbortSignal, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted === true) return signal.reason;
  if (deadline.aborted) return pdfTimedOut(error);
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException")
    return new PdfTextError("pdfEncrypted", "the PDF needs a password to open", error);
  const detail = error instanceof Error ? error.message : String(error);
  return new PdfTextError("pdfUnreadable", `the PDF cannot be read: ${detail}`, error);
}

/**
 * The text of a PDF's first pages, for the agent: pdf.js (through unpdf's
 * build for servers) in this thread, with no network, no fonts loaded and no
 * code evaluated from the document. Only `maxPages` pages are parsed, and the
 * whole reading is bounded by `timeoutMs`; on timeout the document is
 * released. pdf.js parses a page's text in one go, during which this thread
 * sees no timer and no abort: a heavy page holds it for as long as it takes
 * (~0.8 s for 20,000 text runs here), so run this away from the turns, on a
 * thread that can be stopped (the gateway's document thread does). A scanned PDF has no text: the result is then "" with `pages`.
 * Throws PdfTextError: encrypted (a user password), unreadable, too large,
 * timeout; RangeError for invalid options.
 */
export async function extractPdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const maxPages = positiveInteger("maxPages", options.maxPages ?? PDF_TEXT_DEFAULTS.maxPages);
  const maxChars = positiveInteger("maxChars", options.maxChars ?? PDF_TEXT_DEFAULTS.maxChars);
  const maxBytes = positiveInteger("maxBytes", options.maxBytes ?? PDF_TEXT_DEFAULTS.maxBytes);
  const timeoutMs = positiveInteger("timeoutMs", options.timeoutMs ?? PDF_TEXT_DEFAULTS.timeoutMs);
  if (bytes.byteLength > maxBytes) throw pdfTooLarge(bytes.byteLength, maxBytes);
  options.signal?.throwIfAborted();
  const { getDocument } = await getResolvedPDFJS();
  const deadline = AbortSignal.timeout(timeoutMs);
  const stop = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  // pdf.js may take over the buffer it is given: it gets a copy, the caller's bytes stay intact.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    verbosity: 0,
  });
  try {
    const document = await bounded(task.promise, stop);
    const pages = document.numPages;
    const texts: string[] = [];
    let chars = 0;
    while (texts.length < Math.min(pages, maxPages) && chars <= maxChars) {
      const page = await bounded(document.getPage(texts.length + 1), stop);
      const content = await bounded(page.getTextContent(), stop);
      const text = pageText(content.items);
      page.cleanup();
      texts.push(text);
      chars += [...text].length + 2;
    }
    const all = [...texts.filter((text) => text !== "").join("\n\n")];
    const cut = all.length > maxChars;
    return {
      text: cut ? all.slice(0, maxChars).join("") : all.join(""),
      pages,
      pagesRead: texts.length,
      truncated: cut || texts.length < pages,
    };
  } catch (error) {
    throw classify(error, deadline, options.signal);
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
