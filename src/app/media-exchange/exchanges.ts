import type { AppConfig } from "../../config/index.js";
import { extractPdfText, type PdfText } from "../../documents/index.js";
import {
  createMediaDownloader,
  type DownloadedMedia,
  type MediaDownloader,
  type MediaDownloadRequest,
  type MediaSettings,
  resolveMediaSettings,
} from "../../media/index.js";
import {
  createOpenAiTranscriber,
  loadFormEncoder,
  type Transcriber,
  type Transcript,
} from "../../speech/index.js";
import { createGraphClients } from "../graph-clients.js";

/** One voice note to transcribe, as the media thread is sent it. */
export interface AudioToTranscribe {
  readonly audio: Buffer;
  readonly mimeType: string;
  readonly language?: string;
  readonly fileName?: string;
}

/** What prepare() made ready before the first medium. */
export interface MediaExchangesPrepared {
  /** Tenants whose downloads are set up (their settings resolved, their Graph client made). */
  readonly downloads: number;
  /** Tenants whose speech to text is set up. */
  readonly transcribers: number;
}

/**
 * The work of reading media that the turns must not wait behind: Meta's lookup and download, speech
 * to text, and a PDF's text (pdf.js keeps a core busy for up to its 5 s limit on a large page).
 */
export interface MediaExchanges {
  /**
   * Sets up every tenant's downloads and speech to text, and loads the form encoder a transcription
   * uses, so that work is not done at the first voice note while text turns wait beside it. A tenant
   * that cannot be set up now (no Graph token) is left to fail at its first medium, as without this.
   */
  prepare(): Promise<MediaExchangesPrepared>;
  download(tenantId: string, request: MediaDownloadRequest): Promise<DownloadedMedia>;
  /** Rejects with a TypeError when the tenant has no speech to text (hasSpeechToText is false). */
  transcribe(tenantId: string, audio: AudioToTranscribe, signal: AbortSignal): Promise<Transcript>;
  /** The text of a PDF's first pages (extractPdfText with its defaults); rejects with PdfTextError. */
  pdfText(bytes: Uint8Array, signal: AbortSignal): Promise<PdfText>;
  close(): Promise<void>;
}

/** Whether a tenant's voice notes can be transcribed: its own `media.stt`, else STT_*. */
export function hasSpeechToText(config: AppConfig, settings: MediaSettings): boolean {
  return settings.stt !== undefined || config.stt !== undefined;
}

/** The transcriber a tenant uses: its own `media.stt`, else STT_*; none when neither is set. */
function transcriberFor(config: AppConfig, settings: MediaSettings): Transcriber | undefined {
  const own = settings.stt;
  if (own !== undefined) {
    const provider = (named: NonNullable<MediaSettings["stt"]>["fallback"] & object) => ({
      baseUrl: named.baseUrl,
      model: named.model ?? "whisper-1",
      ...(named.apiKey === undefined ? {} : { apiKey: named.apiKey }),
      ...(named.pricePerMinuteUsd === undefined ? {} : { pricePerMinuteUsd: named.pricePerMinuteUsd }),
    });
    return createOpenAiTranscriber({
      primary: provider(own),
      ...(own.fallback === undefined ? {} : { fallback: provider(own.fallback) }),
      timeoutMs: config.sttTimeoutMs,
    });
  }
  const stt = config.stt;
  if (stt === undefined) return undefined;
  const provider = (named: { baseUrl: string; apiKey: string | undefined; model: string | undefined }) => ({
    baseUrl: named.baseUrl,
    model: named.model ?? "whisper-1",
    ...(named.apiKey === undefined ? {} : { apiKey: named.apiKey }),
  });
  return createOpenAiTranscriber({
    primary: {
      ...provider(stt),
      ...(stt.pricePerMinuteUsd === undefined ? {} : { pricePerMinuteUsd: stt.pricePerMinuteUsd }),
    },
    ...(stt.fallback === undefined ? {} : { fallback: provider(stt.fallback) }),
    timeoutMs: stt.timeoutMs,
  });
}

/**
 * The media exchanges for this configuration: downloads with each tenant's
 * token and caps (Meta's media hosts only), speech to text from the tenant's
 * `media.stt` or STT_*. Run by the media thread, away from the turns.
 */
export function createMediaExchanges(config: AppConfig, graphTimeoutMs: number): MediaExchanges {
  const graph = createGraphClients(config, graphTimeoutMs);
  const downloaders = new Map<string, MediaDownloader>();
  const transcribers = new Map<string, Transcriber | undefined>();
  const tenantOf = (tenantId: string) => {
    const tenant = config.tenants.find((candidate) => candidate.id === tenantId);
    if (tenant === undefined) throw new TypeError(`no tenant "${tenantId}" in this configuration`);
    return tenant;
  };
  const downloaderFor = (tenantId: string): MediaDownloader => {
    let downloader = downloaders.get(tenantId);
    if (downloader === undefined) {
      downloader = createMediaDownloader(
        { graph: graph.clientFor(tenantId) },
        {
          maxBytes: resolveMediaSettings(tenantOf(tenantId)).maxBytes,
          ...(config.mediaHosts === undefined ? {} : { allowedHostSuffixes: config.mediaHosts }),
        },
      );
      downloaders.set(tenantId, downloader);
    }
    return downloader;
  };
  const tenantTranscriber = (tenantId: string): Transcriber | undefined => {
    if (!transcribers.has(tenantId))
      transcribers.set(tenantId, transcriberFor(config, resolveMediaSettings(tenantOf(tenantId))));
    return transcribers.get(tenantId);
  };
  return {
    async prepare() {
      let downloads = 0;
      let speaking = 0;
      // Each tenant on its own: one whose settings cannot be read fails at its first medium, where it is
      // reported, and takes nothing from the others.
      for (const tenant of config.tenants) {
        try {
          downloaderFor(tenant.id);
          downloads += 1;
        } catch {}
        try {
          if (tenantTranscriber(tenant.id) !== undefined) speaking += 1;
        } catch {}
      }
      if (speaking > 0) await loadFormEncoder();
      return { downloads, transcribers: speaking };
    },
    async download(tenantId, request) {
      return downloaderFor(tenantId).download(request);
    },
    async transcribe(tenantId, audio, signal) {
      const transcriber = tenantTranscriber(tenantId);
      if (transcriber === undefined) throw new TypeError(`tenant "${tenantId}" has no speech to text`);
      return transcriber.transcribe(
        {
          audio: audio.audio,
          mimeType: audio.mimeType,
          ...(audio.fileName === undefined ? {} : { fileName: audio.fileName }),
          ...(audio.language === undefined ? {} : { language: audio.language }),
        },
        signal,
      );
    },
    pdfText: (bytes, signal) => extractPdfText(bytes, { signal }),
    close: () => graph.close(),
  };
}
