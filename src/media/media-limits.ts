import type { MediaKind } from "../whatsapp/index.js";

export type { MediaKind } from "../whatsapp/index.js";

export const MEDIA_KINDS: readonly MediaKind[] = Object.freeze([
  "audio",
  "image",
  "document",
  "video",
  "sticker",
]);

const MB = 1024 * 1024;

/**
 * Meta's largest file of each kind, bytes (docs/whatsapp-cloud-api §8):
 * audio 16 MB, image 5 MB, document 100 MB, video 16 MB, sticker 500 KB
 * (animated; a static sticker is at most 100 KB).
 */
export const META_MEDIA_LIMITS: Readonly<Record<MediaKind, number>> = Object.freeze({
  audio: 16 * MB,
  image: 5 * MB,
  document: 100 * MB,
  video: 16 * MB,
  sticker: 500 * 1024,
});

/**
 * Meta's limits, each lowered where `overrides` asks. Throws a TypeError for
 * an unknown kind or a value that is not a positive whole number at most Meta's
 * limit: a larger file than Meta allows can never arrive, so a higher cap is a mistake.
 */
export function mediaLimits(
  overrides: Partial<Record<MediaKind, number>> = {},
): Readonly<Record<MediaKind, number>> {
  const limits = { ...META_MEDIA_LIMITS };
  for (const [kind, value] of Object.entries(overrides)) {
    if (!(MEDIA_KINDS as readonly string[]).includes(kind)) {
      throw new TypeError(`maxBytes: unknown media kind "${kind}" (one of ${MEDIA_KINDS.join(", ")})`);
    }
    const meta = META_MEDIA_LIMITS[kind as MediaKind];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value <= 0 || value > meta) {
      throw new TypeError(
        `maxBytes.${kind} must be a whole number of bytes from 1 to Meta's limit of ${meta}, got ${value}`,
      );
    }
    limits[kind as MediaKind] = value;
  }
  return Object.freeze(limits);
}
