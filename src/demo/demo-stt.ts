import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeTranscriptRules } from "../dev/index.js";
import { packageRoot } from "../router/index.js";

/** What the demo's fake speech server hears in any voice note it has no transcript for. */
export const DEMO_DEFAULT_TRANSCRIPT = "(demo transcript) I sent a voice note about my order";

/** The voice-note fixtures' transcripts, by the audio's sha256 (hex), relative to the package root. */
export const DEMO_TRANSCRIPTS_FILE = join("test", "fixtures", "media", "transcripts.json");

/**
 * The demo's scripted transcripts: the voice-note fixtures' (so
 * `simulate --voice test/fixtures/media/voice-note-pidgin.ogg` is heard as
 * its sentence), read from `root` (default the package's root); none when
 * the file is absent (an installed package has no test/) or not a map of
 * strings.
 */
export function demoTranscripts(root: string = packageRoot()): FakeTranscriptRules {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(join(root, DEMO_TRANSCRIPTS_FILE), "utf8"));
  } catch {
    return {};
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return {};
  const rules: Record<string, string> = {};
  for (const [sha256, text] of Object.entries(json)) {
    if (/^[0-9a-f]{64}$/i.test(sha256) && typeof text === "string" && text.trim() !== "")
      rules[sha256] = text;
  }
  return rules;
}
