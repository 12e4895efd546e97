import { GraphApiError, TransportError, UnexpectedResponseError } from "../whatsapp/index.js";
import { MediaError, MediaNotFoundError, MediaRefusedError } from "./errors.js";

/** Where a try failed: Meta's lookup of the id, or the download of its URL. */
export type FailedStep = "lookup" | "download";

/** What the downloader does after a failed try. */
export type FailureVerdict =
  | { readonly action: "give_up"; readonly error: MediaError }
  | { readonly action: "refresh" }
  | { readonly action: "retry"; readonly retryAfterMs: number | undefined };

/** Meta's codes for a busy or briefly broken platform (docs/whatsapp-cloud-api §7.2). */
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131057, 133004]);
/** What a stale, expired or unrecognised download URL is answered with. */
const STALE_URL_STATUSES = new Set([401, 403, 404, 410]);

/**
 * The one classifier of download failures: media errors (too large, checksum)
 * and Meta's refusals are permanent; an unknown id is SS_MEDIA_NOT_FOUND; a
 * refused download URL is looked up afresh; the network, 5xx, 429 and Meta's
 * transient codes are retried.
 */
export function failureVerdict(error: unknown, step: FailedStep, mediaId: string): FailureVerdict {
  if (error instanceof MediaError) return { action: "give_up", error };
  if (error instanceof TransportError || error instanceof UnexpectedResponseError) {
    return { action: "retry", retryAfterMs: undefined };
  }
  if (!(error instanceof GraphApiError))
    return { action: "give_up", error: new MediaRefusedError(mediaId, step, error) };
  const transient =
    error.status >= 500 ||
    error.status === 429 ||
    error.isTransient ||
    (error.graphCode !== undefined && TRANSIENT_GRAPH_CODES.has(error.graphCode));
  if (transient) return { action: "retry", retryAfterMs: error.retryAfterMs };
  if (step === "download" && STALE_URL_STATUSES.has(error.status)) return { action: "refresh" };
  if (step === "lookup" && (error.status === 404 || (error.graphCode === 100 && error.graphSubcode === 33))) {
    return { action: "give_up", error: new MediaNotFoundError(mediaId, error) };
  }
  return { action: "give_up", error: new MediaRefusedError(mediaId, step, error) };
}
