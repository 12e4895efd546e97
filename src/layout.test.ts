import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The adapter rule of docs/architecture.md, checked on the source itself.
const srcDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = sourceFiles(srcDir).map((path) => ({
  path: relative(srcDir, path).split("\\").join("/"),
  text: readFileSync(path, "utf8"),
}));

/** Module specifiers of `import … from "x"` and `export … from "x"`. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"/gs)].map((match) => match[1] as string);
}

/** The mode folder a source path sits in (`outbound/redis/x.ts` → "redis"), if any. */
function modeOf(path: string): "redis" | "embedded" | undefined {
  const match = /^[a-z-]+\/(redis|embedded)\//.exec(path);
  return match?.[1] as "redis" | "embedded" | undefined;
}

describe("the adapter layout", () => {
  it("lets only src/app/ (and adapters of the same mode) import a redis/ or embedded/ folder", () => {
    const offences: string[] = [];
    for (const file of files) {
      if (file.path.startsWith("app/")) continue;
      for (const specifier of importsOf(file.text)) {
        if (!specifier.startsWith(".")) continue;
        const target = relative(srcDir, resolve(srcDir, dirname(file.path), specifier))
          .split("\\")
          .join("/");
        const targetMode = modeOf(target);
        if (targetMode !== undefined && modeOf(file.path) !== targetMode)
          offences.push(`${file.path} → ${target}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it("keeps BullMQ inside redis/ folders", () => {
    const users = files.filter((file) => importsOf(file.text).includes("bullmq")).map((file) => file.path);
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((path) => modeOf(path) !== "redis")).toEqual([]);
  });

  it("keeps capability code free of Redis clients and SQLite handles outside adapters and app/", () => {
    const reaching = files
      .filter((file) => !file.path.startsWith("app/") && modeOf(file.path) === undefined)
      .filter((file) => importsOf(file.text).some((specifier) => specifier === "ioredis"))
      .map((file) => file.path);
    expect(reaching).toEqual([]);
  });

  it("gives every adapter folder an index.ts", () => {
    const folders = new Set(
      files.flatMap((file) => (modeOf(file.path) === undefined ? [] : [dirname(file.path)])),
    );
    const missing = [...folders].filter(
      (folder) => !files.some((file) => file.path === `${folder}/index.ts`),
    );
    expect(missing).toEqual([]);
  });
});
