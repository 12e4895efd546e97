import type { TenantConfig } from "../config/index.js";
import {
  type ConversationStateStore,
  MEDIA_NOTICE_ENTRY,
  type TurnImage,
  type TurnMediaRead,
  type TurnMediaReader,
  type TurnReply,
} from "../conversation/index.js";
import { describeDocument, flattenForModel, formatByteSize, quoteForModel } from "../documents/index.js";
import type { Logger } from "../observability/index.js";
import { describeImageWithoutVision, imageDataUrl } from "../vision/index.js";
import type { InboundMessage, MediaKind, MediaReading } from "../whatsapp/index.js";
import { META_MEDIA_LIMITS } from "./media-limits.js";
import type { MediaMetrics } from "./media-metrics.js";
import type { MediaSettings } from "./media-settings.js";

/** The bytes of one medium, as the downloader gives them. */
export interface MediaBytes {
  readonly bytes: Buffer;
  readonly mimeType: string;
  readonly size: number;
  readonly sha256: string;
}

/** A medium that could not be read: `code` is stable (SS_MEDIA_TOO_LARGE, SS_SPEECH_UNAVAILABLE, no_transcriber…), `reason` safe to show. */
export interface MediaFailure {
  readonly code: string;
  readonly reason: string;
}

/** What reading needs, per tenant; each is optional where the tenant may go without. */
export interface TurnMediaReaderDeps {
  readonly settings: (tenant: TenantConfig) => MediaSettings;
  /** Downloads one medium within `deadline` (ms since the epoch); throws on failure (see failureOf). */
  readonly download: (
    tenant: TenantConfig,
    request: {
      readonly mediaId: string;
      readonly kind: MediaKind;
      readonly phoneNumberId: string;
      readonly sha256?: string;
      readonly deadline: number;
      readonly maxBytes?: number;
    },
  ) => Promise<MediaBytes>;
  /** The tenant's speech to text; undefined when none is configured. */
  readonly transcriber: (
    tenant: TenantConfig,
  ) =>
    | ((
        audio: MediaBytes,
        options: { readonly language?: string; readonly fileName?: string },
        signal: AbortSignal,
      ) => Promise<NonNullable<MediaReading["transcript"]>>)
    | undefined;
  /** Reads a picture with the tenant's vision model; undefined without an LLM. */
  readonly readImage?: (
    tenant: TenantConfig,
    image: MediaBytes,
    caption: string | undefined,
    signal: AbortSignal,
  ) => Promise<{ readonly receipt?: Readonly<Record<string, unknown>>; readonly description: string }>;
  /** The text of a PDF's first pages, bounded. */
  readonly pdfText?: (bytes: Buffer, signal: AbortSignal) => Promise<string>;
  /**
   * Says a reply as a WhatsApp voice note and uploads it for the business number; answers the
   * uploaded media id. Undefined when no text to speech is configured.
   */
  readonly speak?: (
    tenant: TenantConfig,
    phoneNumberId: string,
    text: string,
    language: string | undefined,
  ) => Promise<string>;
  /** Keeps the bytes when the tenant asks (`media.keep`). */
  readonly keep?: (tenant: TenantConfig, reading: MediaReading, bytes: Buffer) => Promise<void>;
  /** Where each reading goes once made (the message log); must not reject. */
  readonly onRead?: (
    tenant: TenantConfig,
    conversationKey: string,
    wamid: string,
    reading: MediaReading,
  ) => Promise<void>;
  /**
   * The ISO-639-1 language speech to text should expect, from what the customer wrote
   * (Pidgin is heard as English); undefined when unsure.
   */
  readonly languageOf?: (texts: readonly string[]) => string | undefined;
  /** Recent history: the conversation's language, and "please type" at most once an hour. */
  readonly state?: Pick<ConversationStateStore, "recent">;
  /** A failure's stable code and a message safe to show an operator. */
  readonly failureOf: (error: unknown) => MediaFailure;
  readonly metrics?: MediaMetrics;
  readonly logger: Logger;
  /** ms since the epoch. */
  readonly now: () => number;
}

const MEDIA_KINDS: ReadonlySet<string> = new Set(["audio", "image", "document", "video", "sticker"]);
const NO_SPEECH_NOTICE_EVERY_MS = 3_600_000;
/** The pictures of one turn the agent is sent, all together, bytes: one picture at Meta's cap. */
const AGENT_IMAGE_BYTES = META_MEDIA_LIMITS.image;
/** The failure code of a voice note when no speech to text is configured. */
export const NO_TRANSCRIBER = "no_transcriber";
const THING: Record<MediaKind, string> = {
  audio: "voice note",
  image: "picture",
  document: "file",
  video: "video",
  sticker: "sticker",
};

interface MediaContent {
  readonly id?: unknown;
  readonly mime_type?: unknown;
  readonly sha256?: unknown;
  readonly filename?: unknown;
  readonly caption?: unknown;
}

/** The medium a message carries, if it is one we read. */
function mediaOf(message: InboundMessage): (MediaContent & { kind: MediaKind; id: string }) | undefined {
  if (!MEDIA_KINDS.has(message.type) || message.unanswerable !== undefined) return undefined;
  const content = message.content as MediaContent | undefined;
  if (content === undefined || typeof content.id !== "string" || content.id === "") return undefined;
  return { ...content, kind: message.type as MediaKind, id: content.id };
}

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * What a reader (the agent, an operator) sees in place of media whose contents were not read:
 * kind, type, size when known, file name and caption; never a URL.
 */
export function placeholderOf(
  kind: MediaKind,
  mimeType: string | undefined,
  size: number | undefined,
  fileName?: string,
  caption?: string,
): string {
  const type = mimeType ?? "unknown type";
  const sized = size === undefined ? {} : { size };
  const captioned = caption === undefined ? {} : { caption };
  if (kind === "image") return describeImageWithoutVision({ mimeType: type, ...sized, ...captioned });
  if (kind === "document") {
    return describeDocument({
      mimeType: type,
      ...sized,
      ...captioned,
      ...(fileName === undefined ? {} : { fileName }),
    });
  }
  const said = caption === undefined ? "" : `, caption ${quoteForModel(caption)}`;
  return `[${THING[kind]}: ${flattenForModel(type, 100)}${size === undefined ? "" : `, ${formatByteSize(size)}`}${said}]`;
}

/** The turn's pictures for the agent, in message order, until together they would pass the cap. */
function agentImages(
  messages: readonly InboundMessage[],
  pictures: ReadonlyMap<string, MediaBytes>,
): Record<string, TurnImage> | undefined {
  if (pictures.size === 0) return undefined;
  const images: Record<string, TurnImage> = {};
  let left = AGENT_IMAGE_BYTES;
  for (const message of messages) {
    const picture = pictures.get(message.wamid);
    const size = picture?.bytes.byteLength ?? 0;
    // A type that is not an image's would be refused by the model: that picture keeps its reading only.
    if (picture === undefined || size > left || !/^image\//i.test(picture.mimeType)) continue;
    left -= size;
    images[message.wamid] = { dataUrl: imageDataUrl(picture.bytes, picture.mimeType), size };
  }
  return images;
}

/**
 * Reads a turn's media in the worker, never the ingress: voice notes are
 * downloaded and transcribed, pictures read for receipts when the tenant's
 * model can see, PDFs' first pages extracted; everything else is described
 * by kind, name and caption. All messages are read at once, within the
 * tenant's read budget. A medium that cannot be read is marked, and the
 * customer gets one line for the turn; without speech to text a voice note
 * gets the "please type" line at most once an hour per conversation.
 */
export function createTurnMediaReader(deps: TurnMediaReaderDeps): TurnMediaReader {
  const readOne = async (
    tenant: TenantConfig,
    settings: MediaSettings,
    message: InboundMessage,
    medium: MediaContent & { kind: MediaKind; id: string },
    deadline: number,
    signal: AbortSignal,
    language: string | undefined,
    pictures: Map<string, MediaBytes>,
  ): Promise<MediaReading> => {
    const { kind } = medium;
    const caption = str(medium.caption);
    const fileName = str(medium.filename);
    const base: MediaReading = {
      kind,
      mediaId: medium.id,
      ...(str(medium.mime_type) === undefined ? {} : { mimeType: str(medium.mime_type) }),
      ...(fileName === undefined ? {} : { fileName }),
    };
    const transcribe = kind === "audio" ? deps.transcriber(tenant) : undefined;
    if (kind === "audio" && transcribe === undefined) {
      return { ...base, failure: { code: NO_TRANSCRIBER, reason: "no speech to text is configured" } };
    }
    const isPdf =
      kind === "document" &&
      (base.mimeType === "application/pdf" || fileName?.toLowerCase().endsWith(".pdf") === true);
    const readImage = kind === "image" && settings.vision ? deps.readImage : undefined;
    const needsBytes =
      transcribe !== undefined ||
      readImage !== undefined ||
      (isPdf && deps.pdfText !== undefined) ||
      settings.keep;
    if (!needsBytes)
      return { ...base, description: placeholderOf(kind, base.mimeType, undefined, fileName, caption) };

    let bytes: MediaBytes;
    try {
      bytes = await deps.download(tenant, {
        mediaId: medium.id,
        kind,
        phoneNumberId: message.phoneNumberId,
        deadline,
        ...(str(medium.sha256) === undefined ? {} : { sha256: str(medium.sha256) as string }),
        ...(settings.maxBytes[kind] === undefined ? {} : { maxBytes: settings.maxBytes[kind] }),
      });
    } catch (error) {
      // Unopened: no description, so the customer is told and the turn does not answer it as if seen.
      const failure = deps.failureOf(error);
      deps.logger.warn({ kind, code: failure.code }, "could not download a medium");
      return { ...base, failure };
    }
    const downloaded: MediaReading = {
      ...base,
      mimeType: bytes.mimeType,
      size: bytes.size,
      sha256: bytes.sha256,
    };
    if (settings.keep && deps.keep !== undefined) {
      await deps
        .keep(tenant, downloaded, bytes.bytes)
        .catch((error: unknown) => deps.logger.warn({ err: error, kind }, "could not keep a medium's bytes"));
    }
    const described = {
      ...downloaded,
      description: placeholderOf(kind, bytes.mimeType, bytes.size, fileName, caption),
    };
    try {
      if (transcribe !== undefined) {
        const transcript = await transcribe(
          bytes,
          {
            ...(language === undefined ? {} : { language }),
            ...(fileName === undefined ? {} : { fileName }),
          },
          signal,
        );
        if (transcript.costUsd !== undefined) deps.metrics?.sttCost(tenant.id, transcript.costUsd);
        return { ...downloaded, transcript };
      }
      if (readImage !== undefined) {
        const seen = await readImage(tenant, bytes, caption, signal);
        // Only a picture the model could read goes to the agent: one it refused would fail the agent too.
        if (settings.agentImages) pictures.set(message.wamid, bytes);
        return {
          ...downloaded,
          description: seen.description,
          ...(seen.receipt === undefined ? {} : { receipt: seen.receipt }),
        };
      }
      if (isPdf && deps.pdfText !== undefined) {
        return { ...downloaded, extractedText: await deps.pdfText(bytes.bytes, signal) };
      }
    } catch (error) {
      // A picture or a PDF still reaches the agent as its description; a voice note has nothing else.
      const failure = deps.failureOf(error);
      deps.logger.warn({ kind, code: failure.code }, "could not read a medium");
      return kind === "audio" ? { ...downloaded, failure } : { ...described, failure };
    }
    return described;
  };

  const noticeFor = async (
    settings: MediaSettings,
    conversationKey: string,
    readings: readonly MediaReading[],
  ): Promise<TurnReply | undefined> => {
    // Opened but not understood (a picture the model could not read, a locked PDF) still reaches the
    // responder as its description; only what could not be opened at all gets the line.
    const unopened = readings.find(
      (reading) =>
        reading.failure !== undefined &&
        reading.description === undefined &&
        reading.failure.code !== NO_TRANSCRIBER,
    );
    if (unopened !== undefined) {
      return { text: settings.unreadableText.replaceAll("{thing}", THING[unopened.kind]) };
    }
    if (!readings.some((reading) => reading.failure?.code === NO_TRANSCRIBER)) return undefined;
    const since = deps.now() - NO_SPEECH_NOTICE_EVERY_MS;
    const recent = (await deps.state?.recent(conversationKey)) ?? [];
    const saidLately = recent.some(
      (entry) =>
        entry.type === MEDIA_NOTICE_ENTRY && entry.text === settings.noSpeechText && entry.at >= since,
    );
    return saidLately ? undefined : { text: settings.noSpeechText };
  };

  const conversationLanguage = async (conversationKey: string, messages: readonly InboundMessage[]) => {
    if (deps.languageOf === undefined) return undefined;
    const history = (await deps.state?.recent(conversationKey).catch(() => [])) ?? [];
    const texts = [
      ...history.filter((entry) => entry.from === "customer").map((entry) => entry.text),
      ...messages.filter((message) => message.type !== "audio").map((message) => message.text),
    ].filter((text): text is string => text !== undefined && text.trim() !== "");
    return texts.length === 0 ? undefined : deps.languageOf(texts.slice(-10));
  };

  const answerInKind: TurnMediaReader["answerInKind"] = async ({
    tenant,
    phoneNumberId,
    messages,
    replies,
  }) => {
    const { speak } = deps;
    const heard = messages.find((message) => message.reading?.transcript !== undefined);
    if (speak === undefined || heard === undefined || !deps.settings(tenant).voiceReplies) return replies;
    const language = heard.reading?.transcript?.language;
    const out: TurnReply[] = [];
    for (const reply of replies) {
      out.push(reply);
      const plain = reply.buttons === undefined && reply.list === undefined && reply.media === undefined;
      if (!plain || reply.text.trim() === "" || reply.handoff === true) continue;
      try {
        const id = await speak(tenant, phoneNumberId, reply.text, language);
        out.push({ text: reply.text, media: { kind: "audio", id, voice: true } });
      } catch (error) {
        // The text has gone out already: a voice note that could not be made is not worth a failed turn.
        deps.logger.warn({ err: error }, "could not answer a voice note in kind; the text reply stands");
      }
    }
    return out;
  };

  return {
    answerInKind,
    wants: (messages) => messages.some((message) => mediaOf(message) !== undefined),
    async read({ tenant, conversationKey, messages }): Promise<TurnMediaRead> {
      const settings = deps.settings(tenant);
      const started = deps.now();
      const deadline = started + settings.readBudgetMs;
      const budget = AbortSignal.timeout(settings.readBudgetMs);
      const media = messages.flatMap((message) => {
        const medium = mediaOf(message);
        return medium === undefined ? [] : [{ message, medium }];
      });
      const language = media.some(({ medium }) => medium.kind === "audio")
        ? await conversationLanguage(conversationKey, messages)
        : undefined;
      const pictures = new Map<string, MediaBytes>();
      const readings = await Promise.all(
        media.map(async ({ message, medium }) => {
          const reading = await readOne(
            tenant,
            settings,
            message,
            medium,
            deadline,
            budget,
            language,
            pictures,
          );
          deps.metrics?.read(
            tenant.id,
            reading.kind,
            reading.failure?.code ?? "read",
            (deps.now() - started) / 1000,
          );
          await deps.onRead?.(tenant, conversationKey, message.wamid, reading);
          return [message.wamid, reading] as const;
        }),
      );
      const notice = await noticeFor(
        settings,
        conversationKey,
        readings.map(([, reading]) => reading),
      );
      const images = agentImages(messages, pictures);
      return {
        readings: Object.fromEntries(readings),
        ...(notice === undefined ? {} : { notice }),
        ...(images === undefined ? {} : { images }),
      };
    },
  };
}
