/** Text to say as a voice reply. */
export interface SpeechRequest {
  readonly text: string;
  /** The provider's voice name (e.g. OpenAI's "alloy"); default the provider's voice for `language`. */
  readonly voice?: string;
  /** ISO-639-1 of the text; picks the provider's voice for that language when `voice` is unset. */
  readonly language?: string;
}

/** A WhatsApp-ready voice note: OGG/Opus. */
export interface SynthesizedSpeech {
  readonly bytes: Buffer;
  readonly mimeType: "audio/ogg; codecs=opus";
  readonly provider: "primary" | "fallback";
  readonly model: string;
  /** True when the provider's audio was not OGG/Opus and was transcoded here. */
  readonly transcoded: boolean;
}

/** The text-to-speech port. Adapters throw SpeechError. */
export interface Synthesizer {
  synthesize(request: SpeechRequest, signal?: AbortSignal): Promise<SynthesizedSpeech>;
}
