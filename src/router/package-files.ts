import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/**
 * The installed package's root (the folder holding sharpsharp's package.json),
 * found by walking up from this module, so the same code finds `data/` when
 * run from `src/` (tests) and from `dist/src/` (the CLI).
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name;
      if (name === "sharpsharp") {
        root = dir;
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the sharpsharp package root");
    dir = parent;
  }
}

/** A path inside the package's `data/` folder. */
export function dataPath(...parts: string[]): string {
  return join(packageRoot(), "data", ...parts);
}
