import { SpeechError, type SpeechProviderRole, speechErrorCatalog } from "./errors.js";
import { callProvider, withFallbackProvider } from "./provider-http.js";
import type { Transcriber, Transcript, TranscriptionRequest } from "./transcriber.js";
import { fileNameFor, languageCodeOf, wireLanguage } from "./transcription-wire.js";

/** One OpenAI-compatible transcription endpoint (OpenAI, Groq, a faster-whisper or whisper.cpp server). */
export interface TranscriptionProvider {
  /** With its `/v1`: `https://api.openai.com/v1`, `https://api.groq.com/openai/v1`, `http://127.0.0.1:8000/v1`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer`; unset for local servers that need none. */
  readonly apiKey?: string;
  /** e.g. `whisper-1`, `gpt-4o-mini-transcribe`, `whisper-large-v3-turbo` (Groq). */
  readonly model: string;
  /** USD per minute of audio; with a reported duration it gives `Transcript.costUsd`. */
  readonly pricePerMinuteUsd?: number;
  /**
   * `verbose_json` reports the duration and language; OpenAI's `gpt-4o-*` transcribe models accept only
   * `json` (duration then comes from `usage.seconds` when sent). Default: `json` for models named
   * `gpt-4o…`, else `verbose_json`.
   */
  readonly responseFormat?: "verbose_json" | "json";
}

export interface OpenAiTranscriberOptions {
  readonly primary: TranscriptionProvider;
  /** Answers when the primary fails retryably (timeout, network, 408, 429, 5xx). */
  readonly fallback?: TranscriptionProvider;
  /** One provider call's limit, ms (upload, transcription and answer); past it the call is retryable. */
  readonly timeoutMs: number;
  /** Largest answer read, bytes; default 1 MiB. */
  readonly maxResponseBytes?: number;
}

interface WireTranscript {
  readonly text?: unknown;
  readonly language?: unknown;
  readonly duration?: unknown;
  readonly usage?: { readonly type?: unknown; readonly seconds?: unknown };
}

function parseAnswer(contentType: string, body: Buffer, where: string): WireTranscript {
  const text = body.toString("utf8");
  if (!contentType.includes("json")) {
    if (contentType.startsWith("text/plain")) return { text };
    throw new SpeechError(
      speechErrorCatalog.unexpectedResponse.code,
      `${where}: the answer is ${contentType || "untyped"}, not a transcript`,
      { retryable: true },
    );
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as WireTranscript).text === "string")
      return parsed as WireTranscript;
  } catch {
    // Reported below, with the other unusable answers.
  }
  throw new SpeechError(
    speechErrorCatalog.unexpectedResponse.code,
    `${where}: the answer is not a transcript ({ "text": … })`,
    { retryable: true },
  );
}

function durationOf(wire: WireTranscript): number | undefined {
  if (typeof wire.duration === "number" && Number.isFinite(wire.duration) && wire.duration >= 0)
    return wire.duration;
  const seconds = wire.usage?.seconds;
  if (wire.usage?.type === "duration" && typeof seconds === "number" && Number.isFinite(seconds))
    return seconds;
  return undefined;
}

function transcribeWith(
  provider: TranscriptionProvider,
  role: SpeechProviderRole,
  options: OpenAiTranscriberOptions,
) {
  return async (request: TranscriptionRequest, model: string, signal?: AbortSignal): Promise<Transcript> => {
    const form = new FormData();
    form.append("file", new Blob([request.audio], { type: request.mimeType }), fileNameFor(request));
    form.append("model", model);
    const language = wireLanguage(request.language);
    if (language !== undefined) form.append("language", language);
    const responseFormat = provider.responseFormat ?? (model.startsWith("gpt-4o") ? "json" : "verbose_json");
    form.append("response_format", responseFormat);
    const answer = await callProvider(
      {
        operation: "transcription",
        role,
        baseUrl: provider.baseUrl,
        path: "/audio/transcriptions",
        apiKey: provider.apiKey,
        body: form,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxResponseBytes ?? 1024 * 1024,
      },
      signal,
    );
    const wire = parseAnswer(answer.contentType, answer.body, `${role} speech provider (transcription)`);
    const durationSeconds = durationOf(wire);
    const reported = typeof wire.language === "string" ? languageCodeOf(wire.language) : undefined;
    return {
      text: String(wire.text).trim(),
      provider: role,
      model,
      ...(reported === undefined ? {} : { language: reported }),
      ...(durationSeconds === undefined ? {} : { durationSeconds }),
      ...(durationSeconds === undefined || provider.pricePerMinuteUsd === undefined
        ? {}
        : { costUsd: (durationSeconds / 60) * provider.pricePerMinuteUsd }),
    };
  };
}

/**
 * The transcription port over OpenAI-compatible `POST {baseUrl}/audio/transcriptions`
 * (multipart: file, model, language, response_format), over HTTP (undici).
 * Each provider call has `timeoutMs`; a retryable failure of the primary is
 * answered by the fallback with its own model; non-retryable ones (400, 401,
 * 413…) are thrown as they are. No key appears in an error.
 */
export function createOpenAiTranscriber(options: OpenAiTranscriberOptions): Transcriber {
  const primary = transcribeWith(options.primary, "primary", options);
  const fallbackProvider = options.fallback;
  const fallback =
    fallbackProvider === undefined ? undefined : transcribeWith(fallbackProvider, "fallback", options);
  return {
    async transcribe(request, signal) {
      if (request.audio.length === 0)
        throw new SpeechError(speechErrorCatalog.invalidRequest.code, "no audio to transcribe (0 bytes)", {
          retryable: false,
        });
      return withFallbackProvider(
        () => primary(request, request.model ?? options.primary.model, signal),
        fallback === undefined || fallbackProvider === undefined
          ? undefined
          : () => fallback(request, fallbackProvider.model, signal),
        signal,
      );
    },
  };
}
