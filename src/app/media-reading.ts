import { join } from "node:path";
import type { Registry } from "prom-client";
import { type LlmClient, resolveAgentSettings } from "../agent/index.js";
import type { AppConfig, TenantConfig } from "../config/index.js";
import type { ConversationStateStore, TurnMediaReader } from "../conversation/index.js";
import { extractPdfText } from "../documents/index.js";
import { SharpsharpError } from "../errors/index.js";
import {
  createMediaDownloader,
  createMediaKeeper,
  createMediaMetrics,
  createTurnMediaReader,
  type MediaDownloader,
  type MediaFailure,
  type MediaSettings,
  resolveMediaSettings,
  uploadOutboundMedia,
} from "../media/index.js";
import type { Logger } from "../observability/index.js";
import { detectLanguage, loadLexicon, normalizeMessage } from "../router/index.js";
import {
  createOpenAiSynthesizer,
  createOpenAiTranscriber,
  detectOpusEncoder,
  noOpusEncoderError,
  type Synthesizer,
  type Transcriber,
} from "../speech/index.js";
import type { MessageStore } from "../store/index.js";
import { readReceipt } from "../vision/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import { StartupError } from "./errors.js";

/** What the media reader is built from in a worker process. */
export interface MediaReadingDeps {
  /** The tenants' model, for reading pictures (`media.vision`); undefined without an LLM. */
  readonly llm: LlmClient | undefined;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  readonly state: ConversationStateStore;
  /** The message log, when there is one: each reading is kept beside its message. */
  readonly store: MessageStore | undefined;
  readonly registry: Registry;
  readonly logger: Logger;
}

/** The readable part of any failure: a stable code and a message with no secret in it. */
function failureOf(error: unknown): MediaFailure {
  if (error instanceof SharpsharpError) return { code: error.code, reason: error.message.slice(0, 300) };
  return { code: "SS_MEDIA_READ_FAILED", reason: error instanceof Error ? error.name : "unknown error" };
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
 * The turn's media reader for this configuration: downloads with each
 * tenant's token and caps, speech to text from the tenant's `media.stt` or
 * STT_*, kept bytes under `<dataDir>/media` with the log's retention, and each
 * reading written to the message log. Checks every tenant's media settings
 * now, so a mistake stops the worker at start rather than a turn later.
 */
export async function createMediaReading(
  config: AppConfig,
  deps: MediaReadingDeps,
): Promise<TurnMediaReader> {
  const settings = new Map<string, MediaSettings>(
    config.tenants.map((tenant) => [tenant.id, resolveMediaSettings(tenant)]),
  );
  const synthesizer = await voiceRepliesOf(config, [...settings.values()], deps.logger);
  const settingsOf = (tenant: TenantConfig) => settings.get(tenant.id) ?? resolveMediaSettings(tenant);
  const downloaders = new Map<string, MediaDownloader>();
  const transcribers = new Map<string, Transcriber | undefined>();
  const keeper = createMediaKeeper(join(config.dataDir, "media"));
  const lexicon = loadLexicon();
  const { store, logger } = deps;
  return createTurnMediaReader({
    settings: settingsOf,
    download(tenant, request) {
      let downloader = downloaders.get(tenant.id);
      if (downloader === undefined) {
        downloader = createMediaDownloader(
          { graph: deps.graphClientFor(tenant.id) },
          {
            maxBytes: settingsOf(tenant).maxBytes,
            ...(config.mediaHosts === undefined ? {} : { allowedHostSuffixes: config.mediaHosts }),
          },
        );
        downloaders.set(tenant.id, downloader);
      }
      return downloader.download(request);
    },
    transcriber(tenant) {
      if (!transcribers.has(tenant.id))
        transcribers.set(tenant.id, transcriberFor(config, settingsOf(tenant)));
      const transcriber = transcribers.get(tenant.id);
      if (transcriber === undefined) return undefined;
      return async (audio, options, signal) => {
        const heard = await transcriber.transcribe(
          {
            audio: audio.bytes,
            mimeType: audio.mimeType,
            ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
            ...(options.language === undefined ? {} : { language: options.language }),
          },
          signal,
        );
        return {
          text: heard.text,
          provider: heard.provider,
          model: heard.model,
          ...(heard.language === undefined ? {} : { language: heard.language }),
          ...(heard.costUsd === undefined ? {} : { costUsd: heard.costUsd }),
        };
      };
    },
    ...(synthesizer === undefined
      ? {}
      : {
          speak: async (tenant, phoneNumberId, text, language) => {
            const speech = await synthesizer.synthesize({
              text,
              ...(language === undefined ? {} : { language }),
            });
            const uploaded = await uploadOutboundMedia(deps.graphClientFor(tenant.id), phoneNumberId, {
              kind: "audio",
              bytes: speech.bytes,
              mimeType: speech.mimeType,
              fileName: "reply.ogg",
              voice: true,
            });
            return uploaded.id;
          },
        }),
    ...(deps.llm === undefined
      ? {}
      : {
          readImage: async (tenant, image, caption, signal) => {
            const model = resolveAgentSettings(tenant).model;
            const seen = await readReceipt(
              deps.llm as LlmClient,
              {
                bytes: image.bytes,
                mimeType: image.mimeType,
                ...(caption === undefined ? {} : { caption }),
                ...(model === undefined ? {} : { model }),
              },
              signal,
            );
            return {
              description: seen.description,
              ...(seen.isReceipt ? { receipt: { ...seen.slots } } : {}),
            };
          },
        }),
    pdfText: async (bytes, signal) => (await extractPdfText(bytes, { signal })).text,
    keep: async (tenant, reading, bytes) => {
      await keeper.keep(tenant.id, reading, bytes);
    },
    ...(store === undefined
      ? {}
      : {
          onRead: async (tenant, conversationKey, wamid, reading) => {
            try {
              await store.recordMediaReading(tenant.id, conversationKey, wamid, reading);
            } catch (error) {
              logger.warn({ err: error }, "could not keep a media reading in the message log");
            }
          },
        }),
    languageOf(texts) {
      const language = detectLanguage(normalizeMessage(texts.join("\n"), lexicon));
      // Speech models know no Pidgin: it is heard best as English. A mix gives no hint.
      if (language === "mix") return undefined;
      return language === "pcm" ? "en" : language;
    },
    state: deps.state,
    failureOf,
    metrics: createMediaMetrics(deps.registry),
    logger,
    now: Date.now,
  });
}

/**
 * Text to speech for the tenants that answer voice notes in kind: TTS_* must be set then, and an
 * Opus encoder is looked for now, so a missing one is said at start rather than at the first reply.
 */
async function voiceRepliesOf(
  config: AppConfig,
  settings: readonly MediaSettings[],
  logger: Logger,
): Promise<Synthesizer | undefined> {
  if (!settings.some((tenant) => tenant.voiceReplies)) return undefined;
  const tts = config.tts;
  if (tts === undefined) {
    throw new StartupError(
      "a tenant answers voice notes in kind (media.voiceReplies) but TTS_BASE_URL is not set: set it to an OpenAI-compatible /audio/speech provider, or turn voiceReplies off",
    );
  }
  const encoder = await detectOpusEncoder();
  if (encoder === undefined) logger.warn(noOpusEncoderError().message);
  return createOpenAiSynthesizer({
    primary: {
      baseUrl: tts.baseUrl,
      model: tts.model ?? "tts-1",
      ...(tts.apiKey === undefined ? {} : { apiKey: tts.apiKey }),
      ...(tts.voice === undefined ? {} : { voice: tts.voice }),
    },
    timeoutMs: 20_000,
    encoder,
  });
}

/** Deletes kept media past each tenant's retention; answers the days deleted. */
export async function purgeKeptMedia(config: AppConfig, retentionDaysOf: (tenant: TenantConfig) => number) {
  const keeper = createMediaKeeper(join(config.dataDir, "media"));
  let deleted = 0;
  for (const tenant of config.tenants) {
    deleted += await keeper.purgeOlderThan(tenant.id, Date.now() - retentionDaysOf(tenant) * 86_400_000);
  }
  return deleted;
}
