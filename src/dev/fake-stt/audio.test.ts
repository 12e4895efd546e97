import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { isOggOpus } from "../../speech/index.js";
import { audioSeconds, silentOggOpus, sineWav } from "./audio.js";

describe("the fake speech server's audio", () => {
  it("makes WAV and OGG/Opus it can measure again", () => {
    const wav = sineWav(0.5);
    expect(wav.length).toBe(44 + 16_000);
    expect(audioSeconds(wav)).toBeCloseTo(0.5, 5);
    const ogg = silentOggOpus(2.3);
    expect(isOggOpus(ogg)).toBe(true);
    expect(audioSeconds(ogg)).toBeCloseTo(2.3 - 312 / 48_000, 5);
    expect(audioSeconds(Buffer.from("ID3 not measured"))).toBeUndefined();
  });

  it("makes OGG/Opus that opusinfo accepts (page CRCs, headers, granules), when opusinfo is installed", async (context) => {
    const dir = await mkdtemp(join(tmpdir(), "ss-fake-ogg-"));
    try {
      const file = join(dir, "silent.ogg");
      await writeFile(file, silentOggOpus(2.3));
      const result = await promisify(execFile)("opusinfo", [file]).catch(
        (error: NodeJS.ErrnoException) => error,
      );
      if (result instanceof Error && result.code === "ENOENT") {
        context.skip();
        return;
      }
      expect(result).not.toBeInstanceOf(Error);
      const { stdout } = result as { stdout: string };
      expect(stdout).toMatch(/Channels: 1/);
      expect(stdout).toMatch(/Playback length: 0m:02\.2\d\ds/);
      expect(stdout).not.toMatch(/WARNING|CRC/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
