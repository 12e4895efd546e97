import { spawn } from "node:child_process";
import { join } from "node:path";
import { SpeechError, speechErrorCatalog } from "./errors.js";
import { isOggOpus } from "./ogg-opus.js";

/** A program that turns audio into OGG/Opus. */
export interface OpusEncoder {
  readonly kind: "ffmpeg" | "opusenc";
  /** An absolute path, or a bare command name resolved on the PATH when run. */
  readonly path: string;
}

export interface DetectOpusEncoderOptions {
  /**
   * Directories to look in, PATH-style (`/usr/bin:/usr/local/bin`); default: the bare command names,
   * resolved on the process's PATH by the operating system.
   */
  readonly searchPath?: string;
  /** Which to take when both work; default ffmpeg, which also reads MP3 and AAC (opusenc: WAV, FLAC, AIFF). */
  readonly prefer?: OpusEncoder["kind"];
}

interface RunResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly failure?: string;
}

interface RunOptions {
  readonly input?: Buffer;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

/** Runs a program with `input` on stdin; never rejects (a spawn error is `failure`). */
function run(path: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(path, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = "";
    let failure: string | undefined;
    const stop = (why: string) => {
      failure ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop(`no result within ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > options.maxBytes) stop(`more than ${options.maxBytes} bytes of output`);
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      // The last words are the ones that explain a failure.
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    // A program that exits before reading all its input closes the pipe; its exit code tells why.
    child.stdin.on("error", () => undefined);
    child.on("error", (error: NodeJS.ErrnoException) => {
      failure ??= error.code ?? error.message;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ code, stdout: Buffer.concat(out), stderr, ...(failure === undefined ? {} : { failure }) });
    });
    child.stdin.end(options.input);
  });
}

const PROBES: Readonly<
  Record<OpusEncoder["kind"], { args: readonly string[]; works: (r: RunResult) => boolean }>
> = {
  // Debian's ffmpeg has libopus; a build without it cannot write Opus.
  ffmpeg: {
    args: ["-hide_banner", "-encoders"],
    works: (r) => r.code === 0 && /\blibopus\b/.test(r.stdout.toString()),
  },
  opusenc: { args: ["--version"], works: (r) => r.code === 0 },
};

async function probe(
  kind: OpusEncoder["kind"],
  searchPath: string | undefined,
): Promise<OpusEncoder | undefined> {
  const candidates =
    searchPath === undefined
      ? [kind]
      : searchPath
          .split(":")
          .filter((dir) => dir !== "")
          .map((dir) => join(dir, kind));
  for (const path of candidates) {
    const result = await run(path, PROBES[kind].args, { timeoutMs: 5000, maxBytes: 1024 * 1024 });
    if (result.failure === undefined && PROBES[kind].works(result)) return { kind, path };
  }
  return undefined;
}

/**
 * Finds a working Opus encoder (runs each candidate once): ffmpeg with
 * libopus, or opus-tools' opusenc. Undefined when neither works; with voice
 * replies on, stop with `noOpusEncoderError()`.
 */
export async function detectOpusEncoder(
  options: DetectOpusEncoderOptions = {},
): Promise<OpusEncoder | undefined> {
  const order: OpusEncoder["kind"][] =
    options.prefer === "opusenc" ? ["opusenc", "ffmpeg"] : ["ffmpeg", "opusenc"];
  for (const kind of order) {
    const found = await probe(kind, options.searchPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

export interface TranscodeOptions {
  /** Opus bitrate, kbit/s; default 24 (speech, mono). */
  readonly bitrateKbps?: number;
  /** default 15,000 ms. */
  readonly timeoutMs?: number;
  /** Largest output, bytes; default 16 MiB (WhatsApp's audio limit). */
  readonly maxBytes?: number;
}

function encoderArgs(encoder: OpusEncoder, kbps: number): string[] {
  if (encoder.kind === "opusenc") return ["--quiet", "--bitrate", String(kbps), "--downmix-mono", "-", "-"];
  return [
    ...["-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-vn", "-ac", "1", "-ar", "48000"],
    ...["-c:a", "libopus", "-b:a", `${kbps}k`, "-application", "voip", "-f", "ogg", "pipe:1"],
  ];
}

/**
 * Transcodes audio (WAV, and with ffmpeg MP3, AAC, FLAC…) to mono OGG/Opus
 * through the encoder's stdin and stdout. Throws SpeechError
 * `SS_SPEECH_TRANSCODE_FAILED` (or `SS_SPEECH_ABORTED`).
 */
export async function transcodeToOggOpus(
  audio: Buffer,
  encoder: OpusEncoder,
  options: TranscodeOptions = {},
  signal?: AbortSignal,
): Promise<Buffer> {
  const result = await run(encoder.path, encoderArgs(encoder, options.bitrateKbps ?? 24), {
    input: audio,
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
  if (result.failure === "aborted")
    throw new SpeechError(speechErrorCatalog.aborted.code, `${encoder.kind}: aborted`, { retryable: false });
  const said = result.stderr.trim().replace(/\s+/g, " ");
  const why =
    result.failure ??
    (result.code !== 0
      ? `exited with ${result.code ?? "a signal"}`
      : isOggOpus(result.stdout)
        ? undefined
        : "its output is not OGG/Opus");
  if (why === undefined) return result.stdout;
  throw new SpeechError(
    speechErrorCatalog.transcodeFailed.code,
    `${encoder.kind} (${encoder.path}) could not make OGG/Opus of ${audio.length} bytes: ${why}${said === "" ? "" : ` — ${said.slice(-300)}`}`,
    { retryable: false },
  );
}
