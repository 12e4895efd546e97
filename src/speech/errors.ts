import { type ErrorCatalogEntry, SharpsharpError } from "../errors/index.js";

/** Errors of speech to text and text to speech. No message holds an API key. */
export const speechErrorCatalog = {
  unavailable: {
    code: "SS_SPEECH_UNAVAILABLE",
    meaning:
      "A speech provider did not answer in time, could not be reached, or answered 408, 429 or 5xx (after the fallback provider, when one is configured, failed too). Retryable.",
  },
  refused: {
    code: "SS_SPEECH_REFUSED",
    meaning:
      "A speech provider refused the request (400, 401, 403, 404, 413, 415, 422…): a wrong key, model, voice, file format or size. Not retried and not sent to the fallback provider.",
  },
  unexpectedResponse: {
    code: "SS_SPEECH_UNEXPECTED_RESPONSE",
    meaning:
      "A speech provider answered 2xx with something that is not a transcript (or no audio), or a larger answer than allowed. Retryable: the fallback provider is tried.",
  },
  aborted: {
    code: "SS_SPEECH_ABORTED",
    meaning: "The caller gave up on a transcription or synthesis (its deadline passed); nothing is retried.",
  },
  invalidRequest: {
    code: "SS_SPEECH_INVALID_REQUEST",
    meaning: "A transcription with no audio, or a synthesis with no text; nothing was sent.",
  },
  noEncoder: {
    code: "SS_SPEECH_NO_ENCODER",
    meaning:
      "Voice replies are on but neither `ffmpeg` (with libopus) nor `opusenc` (opus-tools) is installed, so speech that is not OGG/Opus cannot become a WhatsApp voice note. Install one (Debian: `apt-get install opus-tools`) or turn voice replies off.",
  },
  transcodeFailed: {
    code: "SS_SPEECH_TRANSCODE_FAILED",
    meaning:
      "`ffmpeg` or `opusenc` could not turn the provider's audio into OGG/Opus (it exited with an error, took too long, or wrote something else); its last words are in the message.",
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type SpeechErrorCode = (typeof speechErrorCatalog)[keyof typeof speechErrorCatalog]["code"];

/** Which provider a speech call went to. */
export type SpeechProviderRole = "primary" | "fallback";

export interface SpeechErrorOptions {
  /** Whether the same call may succeed later (or at the fallback provider). */
  readonly retryable: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly status?: number;
  readonly cause?: unknown;
}

/**
 * A transcription or synthesis failed. `retryable` failures (timeout,
 * network, 408, 429, 5xx, an unusable 2xx) go to the fallback provider; the
 * others (400, 401, 413…) do not. `code` is one of `speechErrorCatalog`.
 */
export class SpeechError extends SharpsharpError {
  override readonly code: SpeechErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;

  constructor(code: SpeechErrorCode, message: string, options: SpeechErrorOptions) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/**
 * The startup error when voice replies are on and no Opus encoder was found
 * (`detectOpusEncoder` returned undefined).
 */
export function noOpusEncoderError(): SpeechError {
  return new SpeechError(
    speechErrorCatalog.noEncoder.code,
    "voice replies are on, but neither ffmpeg nor opusenc is installed: speech that the provider does not " +
      "send as OGG/Opus cannot become a WhatsApp voice note. Install one (Debian/Ubuntu: " +
      "`apt-get install opus-tools` or `apt-get install ffmpeg`; macOS: `brew install opus-tools`) and start " +
      "again, or turn voice replies off.",
    { retryable: false },
  );
}
