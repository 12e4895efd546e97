import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_TRANSCRIPTS_FILE, demoTranscripts } from "./demo-stt.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function root(transcripts?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ss-demo-stt-"));
  dirs.push(dir);
  if (transcripts !== undefined) {
    mkdirSync(dirname(join(dir, DEMO_TRANSCRIPTS_FILE)), { recursive: true });
    writeFileSync(join(dir, DEMO_TRANSCRIPTS_FILE), transcripts);
  }
  return dir;
}

describe("the demo's scripted transcripts", () => {
  it("are the voice-note fixtures' from the package root", () => {
    const rules = demoTranscripts();
    expect(rules["3f977de7ffabe3c3cfdd51537951c7ed6c62d8ffd044931cb73a6c3d09f97b77"]).toMatch(
      /my account never credit/,
    );
    expect(Object.keys(rules)).toHaveLength(2);
  });

  it("are none without the file (an installed package has no test/) or when it is not a map of texts", () => {
    expect(demoTranscripts(root())).toEqual({});
    expect(demoTranscripts(root("not json"))).toEqual({});
    expect(demoTranscripts(root("[]"))).toEqual({});
    const sha = "a".repeat(64);
    expect(
      demoTranscripts(root(JSON.stringify({ [sha]: "hello", short: "x", ["b".repeat(64)]: 3 }))),
    ).toEqual({ [sha]: "hello" });
  });
});
