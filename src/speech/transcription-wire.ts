import type { TranscriptionRequest } from "./transcriber.js";

/** Extensions OpenAI's transcription endpoint decodes (it picks the decoder by the file name). */
const KNOWN_EXTENSIONS = new Set(["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"]);

const EXTENSION_OF_MIME: Readonly<Record<string, string>> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mp4": "m4a",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/webm": "webm",
  "audio/flac": "flac",
  "video/mp4": "mp4",
};

/**
 * The name the audio is uploaded under: the request's when its extension is
 * one the provider knows, else `audio.<ext>` from the MIME type (WhatsApp's
 * `audio/ogg; codecs=opus` → `audio.ogg`; an unknown type → `.ogg`, what voice notes are).
 */
export function fileNameFor(request: Pick<TranscriptionRequest, "fileName" | "mimeType">): string {
  const given = request.fileName;
  const extension = given?.split(".").pop()?.toLowerCase();
  if (given !== undefined && extension !== undefined && KNOWN_EXTENSIONS.has(extension)) return given;
  const mime = request.mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  const stem = given === undefined || given.trim() === "" ? "audio" : given.replace(/\.[^.]*$/, "");
  return `${stem}.${EXTENSION_OF_MIME[mime] ?? "ogg"}`;
}

/**
 * The language hint as sent: ISO-639-1 lower case; Nigerian Pidgin (`pcm`) as
 * `en`, which Whisper knows; anything else that is not two letters is left
 * out, since providers refuse unknown codes with a 400.
 */
export function wireLanguage(hint: string | undefined): string | undefined {
  if (hint === undefined) return undefined;
  const code = hint.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  if (code === "pcm") return "en";
  return /^[a-z]{2}$/.test(code) ? code : undefined;
}

const CODE_OF_NAME: Readonly<Record<string, string>> = {
  english: "en",
  yoruba: "yo",
  hausa: "ha",
  igbo: "ig",
  french: "fr",
  arabic: "ar",
  swahili: "sw",
  portuguese: "pt",
  spanish: "es",
  german: "de",
  chinese: "zh",
};

/** The language a provider reported, as ISO-639-1: `verbose_json` names it ("english"), others send a code. */
export function languageCodeOf(reported: string): string | undefined {
  const value = reported.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(value)) return value;
  return CODE_OF_NAME[value];
}
