/** One voice note (or any audio) to transcribe. */
export interface TranscriptionRequest {
  readonly audio: Buffer;
  /** As WhatsApp gives it, e.g. `audio/ogg; codecs=opus`. */
  readonly mimeType: string;
  /** Providers pick the decoder by the name's extension; default `audio.<ext of mimeType>`. */
  readonly fileName?: string;
  /** ISO-639-1 hint, e.g. "en", "yo", "ha", "ig"; Pidgin → "en" ("pcm" is sent as "en"). */
  readonly language?: string;
  /** Overrides the primary provider's model (the fallback keeps its own). */
  readonly model?: string;
}

/** What was said. */
export interface Transcript {
  /** Trimmed text. */
  readonly text: string;
  /** ISO-639-1 when the provider reported a language it could be mapped from ("english" → "en"). */
  readonly language?: string;
  /** Length of the audio, s, when the provider reports it. */
  readonly durationSeconds?: number;
  readonly provider: "primary" | "fallback";
  readonly model: string;
  /** USD, when the provider reports duration and a per-minute price is configured */
  readonly costUsd?: number;
}

/** The speech-to-text port. Adapters throw SpeechError. */
export interface Transcriber {
  transcribe(request: TranscriptionRequest, signal?: AbortSignal): Promise<Transcript>;
}
