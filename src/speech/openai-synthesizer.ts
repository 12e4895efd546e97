import { noOpusEncoderError, SpeechError, type SpeechProviderRole, speechErrorCatalog } from "./errors.js";
import { isOggOpus } from "./ogg-opus.js";
import { type OpusEncoder, type TranscodeOptions, transcodeToOggOpus } from "./opus-encoder.js";
import { callProvider, withFallbackProvider } from "./provider-http.js";
import type { SpeechRequest, SynthesizedSpeech, Synthesizer } from "./synthesizer.js";

/** One OpenAI-compatible text-to-speech endpoint (OpenAI, a Kokoro or Piper server with that API). */
export interface SpeechProvider {
  /** With its `/v1`, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** e.g. `gpt-4o-mini-tts`, `tts-1`, `kokoro`. */
  readonly model: string;
  /** The voice when the request names none and `voices` has none for its language; default "alloy". */
  readonly voice?: string;
  /** A voice per ISO-639-1 language, e.g. `{ yo: "…" }`. */
  readonly voices?: Readonly<Record<string, string>>;
}

export interface OpenAiSynthesizerOptions {
  readonly primary: SpeechProvider;
  /** Answers when the primary fails retryably (timeout, network, 408, 429, 5xx, no audio). */
  readonly fallback?: SpeechProvider;
  /** One provider call's limit, ms. */
  readonly timeoutMs: number;
  /** From `detectOpusEncoder()`; undefined: audio that is not OGG/Opus fails with SS_SPEECH_NO_ENCODER. */
  readonly encoder: OpusEncoder | undefined;
  readonly transcode?: TranscodeOptions;
  /** Largest audio answer read, bytes; default 16 MiB. */
  readonly maxResponseBytes?: number;
}

function voiceFor(provider: SpeechProvider, request: SpeechRequest): string {
  if (request.voice !== undefined) return request.voice;
  const byLanguage = request.language === undefined ? undefined : provider.voices?.[request.language];
  return byLanguage ?? provider.voice ?? "alloy";
}

function speakWith(provider: SpeechProvider, role: SpeechProviderRole, options: OpenAiSynthesizerOptions) {
  return async (request: SpeechRequest, signal?: AbortSignal) => {
    const answer = await callProvider(
      {
        operation: "speech",
        role,
        baseUrl: provider.baseUrl,
        path: "/audio/speech",
        apiKey: provider.apiKey,
        body: {
          json: {
            model: provider.model,
            input: request.text,
            voice: voiceFor(provider, request),
            response_format: "opus",
          },
        },
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxResponseBytes ?? 16 * 1024 * 1024,
      },
      signal,
    );
    if (
      answer.body.length === 0 ||
      answer.contentType.includes("json") ||
      answer.contentType.startsWith("text/")
    ) {
      throw new SpeechError(
        speechErrorCatalog.unexpectedResponse.code,
        `${role} speech provider (speech): the answer is ${answer.body.length} bytes of ${answer.contentType || "untyped data"}, not audio`,
        { retryable: true },
      );
    }
    return { bytes: answer.body, provider: role, model: provider.model };
  };
}

/**
 * The text-to-speech port over OpenAI-compatible `POST {baseUrl}/audio/speech`
 * (`{ model, input, voice, response_format: "opus" }`), with a fallback
 * provider for retryable failures. Audio that does not open with `OggS` +
 * `OpusHead` (a server that sends WAV or MP3 whatever was asked) is
 * transcoded with `options.encoder`, so the result is always a voice note.
 */
export function createOpenAiSynthesizer(options: OpenAiSynthesizerOptions): Synthesizer {
  const primary = speakWith(options.primary, "primary", options);
  const fallback =
    options.fallback === undefined ? undefined : speakWith(options.fallback, "fallback", options);
  return {
    async synthesize(request, signal): Promise<SynthesizedSpeech> {
      if (request.text.trim() === "")
        throw new SpeechError(speechErrorCatalog.invalidRequest.code, "no text to say", { retryable: false });
      const spoken = await withFallbackProvider(
        () => primary(request, signal),
        fallback === undefined ? undefined : () => fallback(request, signal),
        signal,
      );
      const base = {
        mimeType: "audio/ogg; codecs=opus" as const,
        provider: spoken.provider,
        model: spoken.model,
      };
      if (isOggOpus(spoken.bytes)) return { ...base, bytes: spoken.bytes, transcoded: false };
      if (options.encoder === undefined) throw noOpusEncoderError();
      const bytes = await transcodeToOggOpus(spoken.bytes, options.encoder, options.transcode, signal);
      return { ...base, bytes, transcoded: true };
    },
  };
}
