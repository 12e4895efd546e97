import type { GraphApiClient } from "../whatsapp/index.js";
import { MediaTooLargeError, UnsupportedMediaTypeError } from "./errors.js";
import { META_MEDIA_LIMITS, type MediaKind } from "./media-limits.js";

const DOCUMENT_TYPES = [
  "text/plain",
  "application/pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
] as const;

/**
 * The MIME types Meta takes for each kind (docs/whatsapp-cloud-api §8). `audio/ogg`
 * is OPUS only (`audio/ogg; codecs=opus`); video is H.264 + AAC; images 8-bit RGB(A).
 */
export const OUTBOUND_MIME_TYPES: Readonly<Record<MediaKind, readonly string[]>> = Object.freeze({
  audio: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
  image: ["image/jpeg", "image/png"],
  document: DOCUMENT_TYPES,
  video: ["video/mp4", "video/3gpp"],
  sticker: ["image/webp"],
});

/** A static sticker's limit; an animated one may reach META_MEDIA_LIMITS.sticker (500 KB). */
export const STATIC_STICKER_MAX_BYTES = 100 * 1024;

/** A file about to be sent. */
export interface OutboundMediaFile {
  readonly kind: MediaKind;
  readonly mimeType: string;
  /** bytes */
  readonly size: number;
  /** A voice note (audio only): must be `audio/ogg; codecs=opus`. */
  readonly voice?: boolean;
  /** An animated sticker (stickers only): 500 KB instead of 100 KB. */
  readonly animated?: boolean;
}

function parseMime(mimeType: string): { essence: string; codecs: string | undefined } {
  const [essence = "", ...params] = mimeType
    .toLowerCase()
    .split(";")
    .map((part) => part.trim());
  const codecs = params
    .find((param) => param.startsWith("codecs="))
    ?.slice("codecs=".length)
    .replace(/"/g, "");
  return { essence, codecs };
}

/**
 * Checks a file against Meta's rules before anything is sent: a MIME type
 * its kind takes (UnsupportedMediaTypeError) and its size limit
 * (MediaTooLargeError). Voice notes must be `audio/ogg; codecs=opus` (Meta
 * shows the play icon only up to 512 KB, which is not enforced here).
 */
export function checkOutboundMedia(file: OutboundMediaFile): void {
  const { essence, codecs } = parseMime(file.mimeType);
  if (!OUTBOUND_MIME_TYPES[file.kind].includes(essence)) {
    throw new UnsupportedMediaTypeError(
      file.kind,
      file.mimeType,
      `Meta takes ${OUTBOUND_MIME_TYPES[file.kind].join(", ")}`,
    );
  }
  if (file.voice === true && (file.kind !== "audio" || essence !== "audio/ogg")) {
    throw new UnsupportedMediaTypeError(
      file.kind,
      file.mimeType,
      "a voice note must be audio/ogg; codecs=opus",
    );
  }
  if (essence === "audio/ogg" && codecs !== "opus") {
    throw new UnsupportedMediaTypeError(
      file.kind,
      file.mimeType,
      "Meta takes OGG audio only as OPUS: audio/ogg; codecs=opus",
    );
  }
  const limit =
    file.kind === "sticker" && file.animated !== true
      ? STATIC_STICKER_MAX_BYTES
      : META_MEDIA_LIMITS[file.kind];
  if (file.size > limit) throw new MediaTooLargeError(file.kind, limit, file.size);
}

/** A file to upload for sending. */
export interface OutboundUpload {
  readonly kind: MediaKind;
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  readonly fileName: string;
  readonly voice?: boolean;
  readonly animated?: boolean;
}

/**
 * Checks `file` with checkOutboundMedia (throwing before any HTTP call) and
 * uploads it; the id it returns is good for sends for 30 days. Meta's own
 * refusal (131053) surfaces as the client's GraphApiError.
 */
export async function uploadOutboundMedia(
  graph: GraphApiClient,
  phoneNumberId: string,
  file: OutboundUpload,
): Promise<{ readonly id: string }> {
  checkOutboundMedia({
    kind: file.kind,
    mimeType: file.mimeType,
    size: file.bytes.byteLength,
    ...(file.voice === undefined ? {} : { voice: file.voice }),
    ...(file.animated === undefined ? {} : { animated: file.animated }),
  });
  return graph.uploadMedia(phoneNumberId, {
    bytes: file.bytes,
    mimeType: file.mimeType,
    fileName: file.fileName,
  });
}
