import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A tmpfs of a given size mounted for one test: a disk that can be filled or made read-only. */
export interface SmallDisk {
  readonly dir: string;
  /** Writes a filler file until the disk has no space left; answers the bytes written. */
  fill(): number;
  /** Deletes the filler file. */
  free(): void;
  remountReadOnly(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeKb`, or answers undefined where this process may not mount (not root). */
export function mountSmallDisk(sizeKb: number): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), "ss-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill() {
      const fd = openSync(filler, "a");
      const chunk = Buffer.alloc(64 * 1024, 1);
      let written = 0;
      try {
        for (;;) written += writeSync(fd, chunk);
      } catch {
        // ENOSPC: full. Smaller writes take the last few pages too.
        try {
          for (;;) written += writeSync(fd, chunk.subarray(0, 512));
        } catch {}
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free() {
      rmSync(filler, { force: true });
    },
    remountReadOnly() {
      execFileSync("mount", ["-o", "remount,ro", dir], { stdio: "ignore" });
    },
    unmount() {
      execFileSync("umount", ["-l", dir], { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True when this process can mount a tmpfs (checked once with a throwaway mount). */
export const canMount = (() => {
  const disk = mountSmallDisk(64);
  disk?.unmount();
  return disk !== undefined;
})();
