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

/**
 * The adapter folder a source path sits in (`outbound/redis/x.ts` → "redis"), if any: a mode's
 * (redis, embedded), or the message store's (postgres, sqlite), which DATABASE_URL picks apart from the mode.
 */
function modeOf(path: string): string | undefined {
  const match = /^[a-z-]+\/(redis|embedded|postgres|sqlite)\//.exec(path);
  return match?.[1];
}

describe("the adapter layout", () => {
  it("lets only src/app/ (and adapters of the same mode) import an adapter folder", () => {
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

  it("keeps the Redis client library inside redis/ folders and app/", () => {
    const reaching = files
      .filter((file) => !file.path.startsWith("app/") && modeOf(file.path) !== "redis")
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
