import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";
import type { MediaKind } from "./media-limits.js";

export const mediaErrorCatalog = {
  invalidSettings: {
    code: "SS_MEDIA_INVALID_SETTINGS",
    meaning:
      "A tenant's `media` settings (`stt`, `vision`, `keep`, `maxBytes`, `readBudgetMs`, `voiceReplies`, `notices`) are malformed, or a `maxBytes` is above Meta's limit for the kind; every problem is listed and the worker does not start.",
  },
  tooLarge: {
    code: "SS_MEDIA_TOO_LARGE",
    meaning:
      "A media file is over the cap for its kind: inbound, by Meta's `file_size` (refused before downloading) or by the bytes read; outbound, over Meta's limit. Permanent.",
  },
  checksumMismatch: {
    code: "SS_MEDIA_CHECKSUM_MISMATCH",
    meaning:
      "The downloaded bytes do not match the sha256 of the webhook or of Meta's media lookup; they are not used. Permanent.",
  },
  notFound: {
    code: "SS_MEDIA_NOT_FOUND",
    meaning: "Meta does not know the media id (wrong id, or an inbound id older than its 7 days). Permanent.",
  },
  hostNotAllowed: {
    code: "SS_MEDIA_HOST_NOT_ALLOWED",
    meaning:
      "Meta's media URL is not on an allowed media host (over https) nor on the Graph API's host; nothing was sent to it. Permanent.",
  },
  refused: {
    code: "SS_MEDIA_REFUSED",
    meaning:
      "Meta refused the media lookup or download for a reason retrying does not fix (a bad or expired token, missing permission, a bad request); the Graph error is the `cause`. Permanent.",
  },
  unavailable: {
    code: "SS_MEDIA_UNAVAILABLE",
    meaning:
      "A media download kept failing on the network, with 5xx or 429, or with expired URLs, until its attempts or its deadline ran out; the last failure is the `cause`. Transient: try again later.",
  },
  unsupportedType: {
    code: "SS_MEDIA_UNSUPPORTED_TYPE",
    meaning:
      "An outbound file's MIME type is not one Meta takes for its kind (audio/ogg must be OPUS; a voice note must be `audio/ogg; codecs=opus`); refused before any Graph API call. Permanent.",
  },
  invalidMessage: {
    code: "SS_MEDIA_INVALID_MESSAGE",
    meaning:
      "An outbound media message is malformed (neither or both of `id` and `link`, a link that is not https, a caption or file name where its kind takes none, a caption over 1,024 characters). Permanent.",
  },
  threadFailed: {
    code: "SS_MEDIA_THREAD_FAILED",
    meaning:
      "The media thread (which downloads media and calls speech to text away from the turns) stopped or could not start while a medium was being read; it starts again on the next medium. Transient.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

/**
 * Base of the media errors. `permanent` says whether trying again can help:
 * false only for SS_MEDIA_UNAVAILABLE. Messages name the media id, its kind
 * and at most a host: never the token or a signed URL.
 */
export class MediaError extends SharpsharpError {
  readonly permanent: boolean;
  readonly mediaId: string | undefined;

  constructor(
    code: string,
    message: string,
    options: { readonly permanent: boolean; readonly mediaId?: string; readonly cause?: unknown },
  ) {
    super(code, message, { cause: options.cause });
    this.permanent = options.permanent;
    this.mediaId = options.mediaId;
  }
}

/** A file over the cap for its kind (`sizeBytes` undefined: it was cut off while reading). */
export class MediaTooLargeError extends MediaError {
  readonly kind: MediaKind;
  readonly limitBytes: number;
  readonly sizeBytes: number | undefined;

  constructor(
    kind: MediaKind,
    limitBytes: number,
    sizeBytes: number | undefined,
    options: { readonly mediaId?: string; readonly cause?: unknown } = {},
  ) {
    const what = options.mediaId === undefined ? `${kind} file` : `${kind} media ${options.mediaId}`;
    const size = sizeBytes === undefined ? "more than that" : `${sizeBytes} bytes`;
    super(mediaErrorCatalog.tooLarge.code, `${what} is larger than ${limitBytes} bytes (${size})`, {
      permanent: true,
      ...options,
    });
    this.kind = kind;
    this.limitBytes = limitBytes;
    this.sizeBytes = sizeBytes;
  }
}

/** The bytes do not hash to the sha256 the webhook (`webhook`) or Meta's lookup (`graph`) gave. */
export class MediaChecksumError extends MediaError {
  readonly against: "webhook" | "graph";

  constructor(mediaId: string, against: "webhook" | "graph") {
    super(
      mediaErrorCatalog.checksumMismatch.code,
      `media ${mediaId}: the downloaded bytes do not match the sha256 of the ${against === "webhook" ? "webhook" : "media lookup"}`,
      { permanent: true, mediaId },
    );
    this.against = against;
  }
}

/** Meta does not know the media id. */
export class MediaNotFoundError extends MediaError {
  constructor(mediaId: string, cause: unknown) {
    super(mediaErrorCatalog.notFound.code, `media ${mediaId} does not exist (or is older than 7 days)`, {
      permanent: true,
      mediaId,
      cause,
    });
  }
}

/** Meta's URL for the media is on a host the token may not go to. */
export class DisallowedMediaHostError extends MediaError {
  readonly host: string;

  constructor(mediaId: string, host: string, cause: unknown) {
    super(
      mediaErrorCatalog.hostNotAllowed.code,
      `media ${mediaId}: its URL is on ${host}, not an allowed media host`,
      {
        permanent: true,
        mediaId,
        cause,
      },
    );
    this.host = host;
  }
}

/** Meta refused the lookup or download for good (the Graph error is the cause). */
export class MediaRefusedError extends MediaError {
  constructor(mediaId: string, step: "lookup" | "download", cause: unknown) {
    const said = cause instanceof Error ? `: ${cause.message}` : "";
    super(mediaErrorCatalog.refused.code, `media ${mediaId}: Meta refused the ${step}${said}`, {
      permanent: true,
      mediaId,
      cause,
    });
  }
}

/** Every attempt failed in a way that may pass, or the deadline came first. */
export class MediaUnavailableError extends MediaError {
  readonly attempts: number;
  readonly reason: "attempts" | "deadline";

  constructor(mediaId: string, attempts: number, reason: "attempts" | "deadline", cause: unknown) {
    const why =
      reason === "attempts"
        ? `${attempts} attempts failed`
        : `the deadline passed after ${attempts} attempts`;
    const last = cause instanceof Error ? ` (last: ${cause.message})` : "";
    super(mediaErrorCatalog.unavailable.code, `media ${mediaId} could not be downloaded: ${why}${last}`, {
      permanent: false,
      mediaId,
      cause,
    });
    this.attempts = attempts;
    this.reason = reason;
  }
}

/** An outbound file's type is not one Meta takes for its kind. */
export class UnsupportedMediaTypeError extends MediaError {
  readonly kind: MediaKind;
  readonly mimeType: string;

  constructor(kind: MediaKind, mimeType: string, detail: string) {
    super(
      mediaErrorCatalog.unsupportedType.code,
      `${kind} cannot be ${JSON.stringify(mimeType)}: ${detail}`,
      {
        permanent: true,
      },
    );
    this.kind = kind;
    this.mimeType = mimeType;
  }
}

/** An outbound media message is malformed. */
export class InvalidMediaMessageError extends MediaError {
  constructor(detail: string) {
    super(mediaErrorCatalog.invalidMessage.code, `invalid media message: ${detail}`, { permanent: true });
  }
}

/** The media thread stopped (or could not start) while a medium was being read. */
export class MediaThreadFailedError extends MediaError {
  constructor(detail: string, cause?: unknown) {
    super(mediaErrorCatalog.threadFailed.code, detail, {
      permanent: false,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}
