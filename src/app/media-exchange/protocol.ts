import type { AppConfig } from "../../config/index.js";
import type { PdfText } from "../../documents/index.js";
import type { DownloadedMedia, MediaDownloadRequest } from "../../media/index.js";
import type { Transcript } from "../../speech/index.js";
import type { MediaExchangesPrepared } from "./exchanges.js";

/** What the media thread is started with. */
export interface MediaThreadData {
  readonly config: AppConfig;
  readonly graphTimeoutMs: number;
  /** A thread for PDFs: pdf.js is loaded before it says it is ready. */
  readonly documents?: boolean;
}

/** A call from the turn thread to the media thread; `abort` cancels the transcription or PDF reading `id`. */
export type MediaThreadCall =
  | {
      readonly op: "download";
      readonly id: number;
      readonly tenantId: string;
      readonly request: MediaDownloadRequest;
    }
  | {
      readonly op: "transcribe";
      readonly id: number;
      readonly tenantId: string;
      readonly audio: Uint8Array;
      readonly mimeType: string;
      readonly language?: string;
      readonly fileName?: string;
    }
  | { readonly op: "pdfText"; readonly id: number; readonly bytes: Uint8Array }
  | { readonly op: "abort"; readonly id: number };

/** An error as it crosses the thread: what failureOf and the logs need, no stack, no cause. */
export interface RelayedFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** The media thread's answer to call `id`; id 0 with `ready` once it has loaded and prepared. */
export type MediaThreadAnswer =
  | { readonly id: 0; readonly ok: true; readonly ready: MediaExchangesPrepared }
  | { readonly id: number; readonly ok: true; readonly downloaded: DownloadedMedia }
  | { readonly id: number; readonly ok: true; readonly transcript: Transcript }
  | { readonly id: number; readonly ok: true; readonly pdfText: PdfText }
  | { readonly id: number; readonly ok: false; readonly failure: RelayedFailure };
