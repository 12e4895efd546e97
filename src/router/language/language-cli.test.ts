import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { evalLanguageCommand } from "./language-cli.js";

describe("sharpsharp router eval-language", () => {
  it("prints the confusion matrix and per-language accuracy on our test split, the old guess beside it", () => {
    const stdout = new PassThrough();
    let printed = "";
    stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
    });
    expect(evalLanguageCommand(["--json"], { stdout })).toBe(0);
    const [set] = JSON.parse(printed) as {
      title: string;
      report: { perLanguage: Record<string, { messages: number; accuracy: number }> };
      lexiconHits: { accuracy: number };
    }[];
    expect(set?.title).toBe("our test split");
    for (const lang of ["en", "pcm", "yo", "ha", "ig"])
      expect(set?.report.perLanguage[lang]?.accuracy, lang).toBeGreaterThan(0.9);
    expect(set?.lexiconHits.accuracy).toBeLessThan(0.8);
  });
});
