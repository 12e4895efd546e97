import { z } from "zod";
import type { TenantConfig } from "../config/index.js";
import { SharpsharpError } from "../errors/index.js";
import type { MediaKind } from "../whatsapp/index.js";
import { mediaErrorCatalog } from "./errors.js";
import { mediaLimits } from "./media-limits.js";

const secretRef = z.object({ env: z.string().min(1) }).strict();
const sttProvider = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/ }),
    apiKey: secretRef.optional(),
    model: z.string().min(1).optional(),
    /** US dollars per minute of audio, for the cost figures. */
    pricePerMinuteUsd: z.number().nonnegative().optional(),
  })
  .strict();
const notice = z.string().min(1).max(1024);
const byteCap = z.number().int().min(1);

const mediaSettingsSchema = z.looseObject({
  media: z
    .object({
      /** This tenant's own speech-to-text provider (and fallback), instead of the STT_* variables. */
      stt: sttProvider.extend({ fallback: sttProvider.optional() }).strict().optional(),
      /** The tenant's model accepts images: receipts are read into slots and images go to the agent. */
      vision: z.boolean().optional(),
      /** With `vision`: the agent's turn carries the picture itself too (false: its reading only). */
      agentImages: z.boolean().optional(),
      /** Keep the downloaded bytes in the data directory (purged with the message log's retention). */
      keep: z.boolean().optional(),
      /** Largest download per kind, bytes; at most Meta's own limit for the kind. */
      maxBytes: z
        .object({
          audio: byteCap.optional(),
          image: byteCap.optional(),
          document: byteCap.optional(),
          video: byteCap.optional(),
          sticker: byteCap.optional(),
        })
        .strict()
        .optional(),
      /** How long a turn may spend reading its media, ms, before the rest is marked unread. */
      readBudgetMs: z.number().int().min(1_000).max(300_000).optional(),
      /** Answer a voice note with a voice note (needs TTS_BASE_URL and an Opus encoder). */
      voiceReplies: z.boolean().optional(),
      notices: z
        .object({
          /** Said once when a voice note, picture or file could not be opened; `{thing}` names it. */
          unreadable: notice.optional(),
          /** Said at most once an hour per conversation when no speech to text is configured. */
          noSpeech: notice.optional(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .optional(),
});

/** One speech-to-text provider as a tenant names it, its key resolved. */
export interface TenantSttProvider {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string | undefined;
  readonly pricePerMinuteUsd: number | undefined;
}

/** A tenant's media settings, with defaults applied. */
export interface MediaSettings {
  readonly stt: (TenantSttProvider & { readonly fallback: TenantSttProvider | undefined }) | undefined;
  readonly vision: boolean;
  /** The agent is sent this turn's pictures as image input (needs `vision`). */
  readonly agentImages: boolean;
  readonly keep: boolean;
  readonly maxBytes: Readonly<Partial<Record<MediaKind, number>>>;
  readonly readBudgetMs: number;
  readonly voiceReplies: boolean;
  readonly unreadableText: string;
  readonly noSpeechText: string;
}

export const MEDIA_DEFAULTS = {
  readBudgetMs: 45_000,
  unreadableText: "Sorry, I no fit open the {thing} wey you send. Abeg type am for here or send am again. 🙏",
  noSpeechText: "I no fit listen to voice notes for now. Abeg type your message for here. 🙏",
} as const;

/** A tenant's media settings cannot be used; says which tenant and field. */
export class MediaSettingsError extends SharpsharpError {
  constructor(
    readonly tenantId: string,
    readonly problems: readonly string[],
  ) {
    super(
      mediaErrorCatalog.invalidSettings.code,
      `tenant "${tenantId}": invalid media settings: ${problems.join("; ")}`,
    );
  }
}

/** Reads a tenant's `media` settings, with defaults; throws MediaSettingsError when malformed. */
export function resolveMediaSettings(tenant: TenantConfig): MediaSettings {
  const parsed = mediaSettingsSchema.safeParse(tenant.settings);
  if (!parsed.success) {
    throw new MediaSettingsError(
      tenant.id,
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  const own = parsed.data.media ?? {};
  if (own.agentImages === true && own.vision !== true) {
    throw new MediaSettingsError(tenant.id, [
      "media.agentImages: needs media.vision: true (a model that accepts images)",
    ]);
  }
  try {
    mediaLimits(own.maxBytes);
  } catch (error) {
    throw new MediaSettingsError(tenant.id, [`media.maxBytes: ${(error as Error).message}`]);
  }
  const provider = (named: z.infer<typeof sttProvider>): TenantSttProvider => ({
    baseUrl: named.baseUrl,
    apiKey: named.apiKey === undefined ? undefined : tenant.secrets?.[named.apiKey.env],
    model: named.model,
    pricePerMinuteUsd: named.pricePerMinuteUsd,
  });
  return {
    stt:
      own.stt === undefined
        ? undefined
        : {
            ...provider(own.stt),
            fallback: own.stt.fallback === undefined ? undefined : provider(own.stt.fallback),
          },
    vision: own.vision ?? false,
    // The agent's model is the one that read the picture: it sees pictures unless the tenant saves the tokens.
    agentImages: (own.vision ?? false) && (own.agentImages ?? true),
    keep: own.keep ?? false,
    maxBytes: own.maxBytes ?? {},
    readBudgetMs: own.readBudgetMs ?? MEDIA_DEFAULTS.readBudgetMs,
    voiceReplies: own.voiceReplies ?? false,
    unreadableText: own.notices?.unreadable ?? MEDIA_DEFAULTS.unreadableText,
    noSpeechText: own.notices?.noSpeech ?? MEDIA_DEFAULTS.noSpeechText,
  };
}
