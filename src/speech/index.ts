export {
  noOpusEncoderError,
  SpeechError,
  type SpeechErrorCode,
  type SpeechErrorOptions,
  type SpeechProviderRole,
  speechErrorCatalog,
} from "./errors.js";
export { isOggOpus } from "./ogg-opus.js";
export {
  createOpenAiSynthesizer,
  type OpenAiSynthesizerOptions,
  type SpeechProvider,
} from "./openai-synthesizer.js";
export {
  createOpenAiTranscriber,
  type OpenAiTranscriberOptions,
  type TranscriptionProvider,
} from "./openai-transcriber.js";
export {
  type DetectOpusEncoderOptions,
  detectOpusEncoder,
  type OpusEncoder,
  type TranscodeOptions,
  transcodeToOggOpus,
} from "./opus-encoder.js";
export { loadFormEncoder } from "./provider-http.js";
export type { SpeechRequest, SynthesizedSpeech, Synthesizer } from "./synthesizer.js";
export type { Transcriber, Transcript, TranscriptionRequest } from "./transcriber.js";
export { fileNameFor, languageCodeOf, wireLanguage } from "./transcription-wire.js";
