import { describe, expect, it } from "vitest";
import { detectOptChange, type OptChange } from "./opt-out-keywords.js";
import { optChangeLine } from "./opt-out-lines.js";

const LANGUAGES: readonly OptChange["language"][] = ["en", "pcm", "yo", "ha", "ig"];
const KINDS: readonly OptChange["kind"][] = ["opt_out", "opt_in"];
const changes = KINDS.flatMap((kind) => LANGUAGES.map((language) => ({ kind, language, keyword: "x" })));

describe("optChangeLine", () => {
  it("gives the English line the brief asked for", () => {
    expect(optChangeLine({ kind: "opt_out", language: "en", keyword: "stop" })).toBe(
      "You will no longer get promotions from us. Reply START to get them again.",
    );
  });

  it("tells the customer how to undo it, with the keyword every language accepts", () => {
    for (const change of changes) {
      const line = optChangeLine(change);
      const undo = change.kind === "opt_out" ? "START" : "STOP";
      expect(line, `${change.kind} ${change.language}`).toContain(undo);
      expect(detectOptChange(undo)?.kind).not.toBe(change.kind);
    }
  });

  it("has its own line for every language and kind", () => {
    expect(new Set(changes.map(optChangeLine)).size).toBe(changes.length);
  });

  it("writes Yoruba and Igbo with their tone marks and subdots", () => {
    expect(optChangeLine({ kind: "opt_out", language: "yo", keyword: "dekun" })).toMatch(/[ẹọṣ]/u);
    expect(optChangeLine({ kind: "opt_out", language: "ig", keyword: "kwusi" })).toMatch(/[ịọụ]/u);
  });

  it("is never itself read as an opt-out or opt-in if it comes back as a message", () => {
    for (const change of changes) expect(detectOptChange(optChangeLine(change))).toBeUndefined();
  });
});
