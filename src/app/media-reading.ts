import { join } from "node:path";
import type { Registry } from "prom-client";
import { type LlmClient, resolveAgentSettings } from "../agent/index.js";
import type { AppConfig, TenantConfig } from "../config/index.js";
import type { ConversationStateStore, TurnMediaReader } from "../conversation/index.js";
import { SharpsharpError } from "../errors/index.js";
import {
  createMediaKeeper,
  createMediaMetrics,
  createTurnMediaReader,
  type MediaFailure,
  type MediaSettings,
  resolveMediaSettings,
  uploadOutboundMedia,
} from "../media/index.js";
import type { Logger } from "../observability/index.js";
import { detectLanguage, loadLexicon, normalizeMessage } from "../router/index.js";
import {
  createOpenAiSynthesizer,
  detectOpusEncoder,
  noOpusEncoderError,
  type Synthesizer,
} from "../speech/index.js";
import type { MessageStore } from "../store/index.js";
import { readReceipt } from "../vision/index.js";
import type { GraphApiClient } from "../whatsapp/index.js";
import { StartupError } from "./errors.js";
import { hasSpeechToText, type MediaExchanges } from "./media-exchange/exchanges.js";

/** What the media reader is built from in a worker process. */
export interface MediaReadingDeps {
  /** The tenants' model, for reading pictures (`media.vision`); undefined without an LLM. */
  readonly llm: LlmClient | undefined;
  readonly graphClientFor: (tenantId: string) => GraphApiClient;
  /** Meta's media lookups and downloads and speech to text (the media thread), PDF text (the document thread). */
  readonly exchanges: Pick<MediaExchanges, "download" | "transcribe" | "pdfText">;
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

/**
 * The turn's media reader for this configuration: downloads and speech to
 * text through `exchanges` (the media thread), kept bytes under `<dataDir>/media` with the log's retention, and each
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
  const keeper = createMediaKeeper(join(config.dataDir, "media"));
  const lexicon = loadLexicon();
  const { store, logger, exchanges } = deps;
  return createTurnMediaReader({
    settings: settingsOf,
    download: (tenant, request) => exchanges.download(tenant.id, request),
    transcriber(tenant) {
      if (!hasSpeechToText(config, settingsOf(tenant))) return undefined;
      return async (audio, options, signal) => {
        const heard = await exchanges.transcribe(
          tenant.id,
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
    pdfText: async (bytes, signal) => (await exchanges.pdfText(bytes, signal)).text,
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
