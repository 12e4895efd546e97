import { setTimeout as delay } from "node:timers/promises";
import {
  checkMediaHostSuffixes,
  type GraphApiClient,
  MediaHostNotAllowedError,
  type MediaInfo,
  ResponseTooLargeError,
} from "../whatsapp/index.js";
import {
  DisallowedMediaHostError,
  MediaChecksumError,
  MediaTooLargeError,
  MediaUnavailableError,
} from "./errors.js";
import { type FailedStep, failureVerdict } from "./media-failure.js";
import { type MediaKind, mediaLimits } from "./media-limits.js";
import { sha256Base64, sha256Matches } from "./sha256.js";

export type { MediaKind } from "./media-limits.js";

/** One inbound media file to fetch, as its webhook names it. */
export interface MediaDownloadRequest {
  readonly mediaId: string;
  readonly kind: MediaKind;
  /** The business number the media came to; passed to Meta's lookup as `phone_number_id`. */
  readonly phoneNumberId?: string;
  /** base64 sha256 from the webhook, checked when given */
  readonly sha256?: string;
  /** overall deadline, ms since epoch */
  readonly deadline?: number;
}

/** A downloaded and checked media file. */
export interface DownloadedMedia {
  readonly bytes: Buffer;
  /** Meta's `mime_type`, e.g. `audio/ogg; codecs=opus`. */
  readonly mimeType: string;
  /** bytes */
  readonly size: number;
  /** base64, as Meta writes it */
  readonly sha256: string;
}

export interface MediaDownloaderOptions {
  /** Cap per kind, bytes; each at most (and by default) META_MEDIA_LIMITS; higher is a TypeError. */
  readonly maxBytes?: Partial<Record<MediaKind, number>>;
  /** Tries in all (lookups and downloads together), at least 1; default 4. */
  readonly attempts?: number;
  /** Hosts the token may go to; default the Graph API client's (DEFAULT_MEDIA_HOST_SUFFIXES). */
  readonly allowedHostSuffixes?: readonly string[];
  /** Longest one download may take, ms; default 60,000 (and never past the request's deadline). */
  readonly timeoutMs?: number;
}

export interface MediaDownloaderDeps {
  readonly graph: GraphApiClient;
  /** Waits between tries; default node's timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** ms since the epoch; default Date.now. */
  readonly now?: () => number;
  /** [0, 1), the backoff's jitter; default Math.random. */
  readonly random?: () => number;
}

export interface MediaDownloader {
  /** The media's bytes, checked; rejects with a MediaError (`permanent` says whether to try again later). */
  download(request: MediaDownloadRequest): Promise<DownloadedMedia>;
}

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8_000;
/** A URL older than this is looked up again before a retry: Meta's last about 5 minutes. */
const URL_FRESH_MS = 4 * 60_000;

/**
 * Fetches inbound media for the turn worker (never the ingress): Meta's URL
 * for the id, then its bytes with the tenant's token, within the cap of the
 * kind, checked against the sha256 of the webhook and of Meta's lookup. An
 * expired or refused URL (401, 403, 404, 410) is looked up afresh; network
 * failures, 5xx and 429 are retried with jittered exponential backoff (Meta's
 * Retry-After when longer); both within `attempts` and the request's deadline.
 */
export function createMediaDownloader(
  deps: MediaDownloaderDeps,
  options: MediaDownloaderOptions = {},
): MediaDownloader {
  const limits = mediaLimits(options.maxBytes);
  const attempts = options.attempts ?? 4;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new TypeError(`attempts must be a whole number ≥ 1, got ${attempts}`);
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be positive, got ${timeoutMs}`);
  const hosts =
    options.allowedHostSuffixes === undefined
      ? undefined
      : checkMediaHostSuffixes(options.allowedHostSuffixes);
  const sleep = deps.sleep ?? ((ms: number) => delay(ms));
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;

  const backoff = (attempt: number, retryAfterMs: number | undefined) => {
    const exponential = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempt - 1));
    return Math.max(Math.round(exponential * (0.5 + random() / 2)), retryAfterMs ?? 0);
  };

  const fetchOnce = async (
    request: MediaDownloadRequest,
    info: MediaInfo,
    cap: number,
  ): Promise<DownloadedMedia> => {
    const left = request.deadline === undefined ? timeoutMs : Math.min(timeoutMs, request.deadline - now());
    const bytes = await deps.graph.downloadMedia(info.url, {
      maxBytes: cap,
      timeoutMs: Math.max(1, left),
      ...(hosts === undefined ? {} : { allowedHostSuffixes: hosts }),
    });
    const sha256 = sha256Base64(bytes);
    if (request.sha256 !== undefined && !sha256Matches(request.sha256, sha256)) {
      throw new MediaChecksumError(request.mediaId, "webhook");
    }
    if (info.sha256 !== "" && !sha256Matches(info.sha256, sha256))
      throw new MediaChecksumError(request.mediaId, "graph");
    return { bytes, mimeType: info.mimeType, size: bytes.length, sha256 };
  };

  return {
    async download(request) {
      const { mediaId, kind } = request;
      const cap = limits[kind];
      if (cap === undefined) throw new TypeError(`unknown media kind "${kind}"`);
      let info: { readonly value: MediaInfo; readonly at: number } | undefined;
      let lastError: unknown;
      for (let attempt = 1; ; attempt += 1) {
        if (request.deadline !== undefined && now() >= request.deadline) {
          throw new MediaUnavailableError(mediaId, attempt - 1, "deadline", lastError);
        }
        let step: FailedStep = "lookup";
        try {
          if (info === undefined) {
            const lookupOptions =
              request.phoneNumberId === undefined ? {} : { phoneNumberId: request.phoneNumberId };
            info = { value: await deps.graph.getMediaUrl(mediaId, lookupOptions), at: now() };
          }
          if (info.value.fileSize > cap)
            throw new MediaTooLargeError(kind, cap, info.value.fileSize, { mediaId });
          step = "download";
          return await fetchOnce(request, info.value, cap);
        } catch (error) {
          if (error instanceof ResponseTooLargeError && step === "download")
            throw new MediaTooLargeError(kind, cap, undefined, { mediaId, cause: error });
          if (error instanceof MediaHostNotAllowedError)
            throw new DisallowedMediaHostError(mediaId, error.host, error);
          const verdict = failureVerdict(error, step, mediaId);
          if (verdict.action === "give_up") throw verdict.error;
          lastError = error;
          if (attempt >= attempts) throw new MediaUnavailableError(mediaId, attempt, "attempts", error);
          if (verdict.action === "refresh") {
            info = undefined;
            continue;
          }
          const wait = backoff(attempt, verdict.retryAfterMs);
          if (request.deadline !== undefined && now() + wait >= request.deadline) {
            throw new MediaUnavailableError(mediaId, attempt, "deadline", error);
          }
          await sleep(wait);
          if (info !== undefined && now() - info.at > URL_FRESH_MS) info = undefined;
        }
      }
    },
  };
}
