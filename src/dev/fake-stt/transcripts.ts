import { z } from "zod";

/** A scripted transcript: the text, and optionally what the fake reports beside it. */
export const fakeTranscriptSchema = z.union([
  z.string(),
  z.strictObject({
    text: z.string(),
    /** As verbose_json names it ("english"), or a code; default: from the request's hint, else "english". */
    language: z.string().min(1).optional(),
    /** default: measured from OGG/Opus or WAV audio, else 1 s per 16 KB. */
    durationSeconds: z.number().min(0).optional(),
  }),
]);
export type FakeTranscript = z.infer<typeof fakeTranscriptSchema>;

/** Scripted transcripts keyed by the audio's sha256 (hex) or by the uploaded file's name. */
export const transcriptRulesSchema = z.record(z.string().min(1), fakeTranscriptSchema);
export type FakeTranscriptRules = z.infer<typeof transcriptRulesSchema>;

/** Which rule answered: the sha256 key, the file-name key, or the default transcript. */
export type TranscriptMatch = "sha256" | "fileName" | "default";

/** The scripted transcript for this audio: by sha256 first, then by file name. */
export function findTranscript(
  rules: FakeTranscriptRules,
  sha256: string,
  fileName: string,
): { transcript: FakeTranscript | undefined; match: TranscriptMatch } {
  const byHash = rules[sha256] ?? rules[sha256.toUpperCase()];
  if (byHash !== undefined) return { transcript: byHash, match: "sha256" };
  const byName = rules[fileName];
  if (byName !== undefined) return { transcript: byName, match: "fileName" };
  return { transcript: undefined, match: "default" };
}

const NAME_OF_CODE: Readonly<Record<string, string>> = {
  en: "english",
  yo: "yoruba",
  ha: "hausa",
  ig: "igbo",
  fr: "french",
};

/** The language name verbose_json reports for a code ("en" → "english"). */
export function languageName(code: string): string {
  return NAME_OF_CODE[code] ?? code;
}
