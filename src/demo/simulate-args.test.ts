import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_SIMULATE_FROM,
  DEFAULT_SIMULATE_TIMEOUT_MS,
  MAX_SIMULATE_VOICE_BYTES,
  parseSimulateArgs,
  type SimulateArgsParse,
} from "./simulate-args.js";

const VOICE_NOTE = fileURLToPath(new URL("../../test/fixtures/media/voice-note-pidgin.ogg", import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-simulate-args-"));
  dirs.push(dir);
  return dir;
}

function problemsOf(parsed: SimulateArgsParse): readonly string[] {
  expect(parsed.ok).toBe(false);
  return parsed.ok ? [] : parsed.problems;
}

describe("parseSimulateArgs", () => {
  it("takes the text with defaults, joining unquoted words", () => {
    expect(parseSimulateArgs(["abeg", "my", "transfer", "never", "enter"])).toEqual({
      ok: true,
      value: {
        message: { kind: "text", text: "abeg my transfer never enter" },
        from: DEFAULT_SIMULATE_FROM,
        timeoutMs: DEFAULT_SIMULATE_TIMEOUT_MS,
        url: undefined,
      },
    });
  });

  it("takes --from, --timeout-ms and --url", () => {
    const parsed = parseSimulateArgs([
      "hi",
      "--from",
      "2348090000001",
      "--timeout-ms",
      "500",
      "--url",
      "http://h:1/webhook",
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: {
        message: { kind: "text", text: "hi" },
        from: "2348090000001",
        timeoutMs: 500,
        url: "http://h:1/webhook",
      },
    });
  });

  it("reports every problem at once", () => {
    const parsed = parseSimulateArgs(["--from", "+234", "--timeout-ms", "soon", "--url", "ftp://x"]);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems).toHaveLength(4);
  });

  it("refuses unknown flags", () => {
    expect(parseSimulateArgs(["hi", "--form", "1"]).ok).toBe(false);
  });
});

describe("parseSimulateArgs --voice", () => {
  it("reads the OGG file into the message", () => {
    const parsed = parseSimulateArgs(["--voice", VOICE_NOTE, "--from", "2348090000002"]);
    expect(parsed).toEqual({
      ok: true,
      value: {
        message: { kind: "voice", file: VOICE_NOTE, bytes: readFileSync(VOICE_NOTE) },
        from: "2348090000002",
        timeoutMs: DEFAULT_SIMULATE_TIMEOUT_MS,
        url: undefined,
      },
    });
  });

  it("refuses a text and --voice together", () => {
    expect(problemsOf(parseSimulateArgs(["hi", "--voice", VOICE_NOTE]))).toEqual([
      expect.stringContaining("not both"),
    ]);
  });

  it("refuses neither a text nor --voice, naming both ways", () => {
    const [problem, ...rest] = problemsOf(parseSimulateArgs(["--from", "2348090000002"]));
    expect(rest).toEqual([]);
    expect(problem).toContain("the message is missing");
    expect(problem).toContain("--voice <file.ogg>");
  });

  it("refuses --voice without a file name", () => {
    expect(problemsOf(parseSimulateArgs(["--voice"]))[0]).toMatch(/--voice/);
  });

  it("says when the file is missing or is a directory", () => {
    const dir = tempDir();
    const missing = join(dir, "nope.ogg");
    expect(problemsOf(parseSimulateArgs(["--voice", missing]))).toEqual([
      `--voice: cannot read "${missing}" (ENOENT)`,
    ]);
    expect(problemsOf(parseSimulateArgs(["--voice", dir]))).toEqual([`--voice: "${dir}" is not a file`]);
  });

  it("refuses a file that is not OGG (no OggS magic), an empty one included", () => {
    const dir = tempDir();
    const wav = join(dir, "note.ogg");
    writeFileSync(wav, Buffer.from("RIFF\0\0\0\0WAVEfmt "));
    const empty = join(dir, "empty.ogg");
    writeFileSync(empty, "");
    for (const file of [wav, empty]) {
      expect(problemsOf(parseSimulateArgs(["--voice", file]))[0]).toMatch(/is not an OGG file .*"OggS"/);
    }
  });

  it("refuses a file over 16 MB without reading it", () => {
    const big = join(tempDir(), "big.ogg");
    writeFileSync(big, "OggS");
    // Sparse: nothing is written past the magic.
    truncateSync(big, MAX_SIMULATE_VOICE_BYTES + 1);
    expect(problemsOf(parseSimulateArgs(["--voice", big]))[0]).toMatch(/over WhatsApp's 16 MB/);
    truncateSync(big, MAX_SIMULATE_VOICE_BYTES);
    expect(parseSimulateArgs(["--voice", big]).ok).toBe(true);
  });

  it("reports a bad file with the other problems", () => {
    const problems = problemsOf(parseSimulateArgs(["--voice", join(tempDir(), "x.ogg"), "--from", "+1"]));
    expect(problems).toHaveLength(2);
  });
});
