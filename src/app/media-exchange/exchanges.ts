import type { AppConfig } from "../../config/index.js";
import {
  createMediaDownloader,
  type DownloadedMedia,
  type MediaDownloader,
  type MediaDownloadRequest,
  type MediaSettings,
  resolveMediaSettings,
} from "../../media/index.js";
import { createOpenAiTranscriber, type Transcriber, type Transcript } from "../../speech/index.js";
import { createGraphClients } from "../graph-clients.js";

/** One voice note to transcribe, as the media thread is sent it. */
export interface AudioToTranscribe {
  readonly audio: Buffer;
  readonly mimeType: string;
  readonly language?: string;
  readonly fileName?: string;
}

/** The network exchanges of reading media: Meta's lookup and download, and speech to text. */
export interface MediaExchanges {
  download(tenantId: string, request: MediaDownloadRequest): Promise<DownloadedMedia>;
  /** Rejects with a TypeError when the tenant has no speech to text (hasSpeechToText is false). */
  transcribe(tenantId: string, audio: AudioToTranscribe, signal: AbortSignal): Promise<Transcript>;
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
  return {
    download(tenantId, request) {
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
      return downloader.download(request);
    },
    async transcribe(tenantId, audio, signal) {
      if (!transcribers.has(tenantId))
        transcribers.set(tenantId, transcriberFor(config, resolveMediaSettings(tenantOf(tenantId))));
      const transcriber = transcribers.get(tenantId);
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
    close: () => graph.close(),
  };
}
