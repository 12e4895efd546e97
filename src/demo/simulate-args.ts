import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";

/** The customer `simulate` writes as, unless --from says otherwise. */
export const DEFAULT_SIMULATE_FROM = "2348012345678";
export const DEFAULT_SIMULATE_TIMEOUT_MS = 15_000;
/** The largest voice note `simulate --voice` sends: WhatsApp's limit for audio, 16 MB. */
export const MAX_SIMULATE_VOICE_BYTES = 16 * 1024 * 1024;

export const SIMULATE_USAGE = `Usage: sharpsharp simulate "<text>" [options]
       sharpsharp simulate --voice <file.ogg> [options]

Sends one customer message to the running demo (or your gateway), signed as
Meta would, and prints what the bot answers: a text, or a voice note (an
OGG/Opus file, as WhatsApp records them; the demo's fake speech server
transcribes it).

Options:
  --voice <file.ogg>    send this file as a voice note instead of a text (at most 16 MB)
  --from <wa_id>        the customer's WhatsApp number, digits only (default ${DEFAULT_SIMULATE_FROM})
  --timeout-ms <ms>     how long to wait for a reply (default ${DEFAULT_SIMULATE_TIMEOUT_MS})
  --url <webhook url>   post here instead (default: the demo's, from demo.json in SHARPSHARP_DATA_DIR;
                        with WHATSAPP_APP_SECRET set: http://127.0.0.1:$PORT/webhook)

Exits 0 with the reply, 1 when the gateway refuses or no reply comes in time.
Examples: npx sharpsharp simulate "abeg my transfer never enter"
          npx sharpsharp simulate --voice test/fixtures/media/voice-note-pidgin.ogg`;

/** What the customer sends: a text, or a voice note read from a file. */
export type SimulateMessage =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "voice"; readonly file: string; readonly bytes: Buffer };

export interface SimulateArgs {
  readonly message: SimulateMessage;
  readonly from: string;
  readonly timeoutMs: number;
  readonly url: string | undefined;
}

export type SimulateArgsParse =
  | { readonly ok: true; readonly value: SimulateArgs }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Parses `sharpsharp simulate`'s words and flags; words without quotes are
 * joined into one text. `--voice` reads its file (relative to the current
 * directory) here, so a missing, oversized or non-OGG file is a problem
 * reported with the others.
 */
export function parseSimulateArgs(args: readonly string[]): SimulateArgsParse {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        voice: { type: "string" },
        from: { type: "string" },
        "timeout-ms": { type: "string" },
        url: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  const { values, positionals } = parsed;
  const problems: string[] = [];
  const text = positionals.join(" ").trim();
  const voiceFile = values.voice as string | undefined;
  let message: SimulateMessage | undefined;
  if (voiceFile !== undefined && text !== "") {
    problems.push("give a text or --voice <file.ogg>, not both: a WhatsApp message is one or the other");
  } else if (voiceFile !== undefined) {
    const voice = readVoiceNote(voiceFile);
    if (voice.ok) message = { kind: "voice", file: voiceFile, bytes: voice.bytes };
    else problems.push(voice.problem);
  } else if (text === "") {
    problems.push(
      'the message is missing: a text (sharpsharp simulate "hi") or a voice note (--voice <file.ogg>)',
    );
  } else {
    message = { kind: "text", text };
  }
  const from = (values.from as string | undefined) ?? DEFAULT_SIMULATE_FROM;
  if (!/^\d{6,15}$/.test(from)) problems.push(`--from: "${from}" is not a wa_id (6-15 digits, no "+")`);
  const rawTimeout = values["timeout-ms"] as string | undefined;
  const timeoutMs = rawTimeout === undefined ? DEFAULT_SIMULATE_TIMEOUT_MS : Number(rawTimeout);
  if (rawTimeout !== undefined && (!/^\d{1,7}$/.test(rawTimeout) || timeoutMs < 100)) {
    problems.push(`--timeout-ms: "${rawTimeout}" is not valid (a whole number of ms, at least 100)`);
  }
  const url = values.url as string | undefined;
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url))
    problems.push(`--url: "${url}" is not an http(s) URL`);
  if (problems.length > 0 || message === undefined) return { ok: false, problems };
  return { ok: true, value: { message, from, timeoutMs, url } };
}

/** An OGG file's first four bytes. */
const OGG_MAGIC = Buffer.from("OggS", "latin1");

/** The voice note's bytes, or why `--voice` cannot send it: unreadable, empty, over 16 MB, or not OGG. */
function readVoiceNote(
  file: string,
): { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly problem: string } {
  const cannot = (error: unknown) => ({
    ok: false as const,
    problem: `--voice: cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
  });
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return { ok: false, problem: `--voice: "${file}" is not a file` };
    size = stats.size;
  } catch (error) {
    return cannot(error);
  }
  // Checked before reading: a large file is refused without loading it.
  if (size > MAX_SIMULATE_VOICE_BYTES) {
    return {
      ok: false,
      problem: `--voice: "${file}" is ${size} bytes, over WhatsApp's 16 MB for audio (${MAX_SIMULATE_VOICE_BYTES} bytes)`,
    };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return cannot(error);
  }
  if (bytes.length < OGG_MAGIC.length || !bytes.subarray(0, OGG_MAGIC.length).equals(OGG_MAGIC)) {
    return {
      ok: false,
      problem:
        `--voice: "${file}" is not an OGG file (it does not start with "OggS"): ` +
        "WhatsApp voice notes are OGG/Opus, e.g. opusenc in.wav out.ogg",
    };
  }
  return { ok: true, bytes };
}
