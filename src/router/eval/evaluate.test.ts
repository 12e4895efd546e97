import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEvalFile, mixedTrafficSample, parseInjongoLabelMap } from "./eval-sets.js";
import { type EvalExample, evaluateRouter } from "./evaluate.js";

const example = (id: string, gold: string[], lang = "en"): EvalExample => ({ id, text: id, gold, lang });

describe("evaluateRouter", () => {
  it("scores local answers: coverage, precision, false resolutions, per intent and language", () => {
    const answers: Record<string, { intent: string; resolved: boolean }> = {
      a: { intent: "greeting", resolved: true },
      b: { intent: "greeting", resolved: true },
      c: { intent: "check_balance", resolved: false },
      d: { intent: "check_balance", resolved: true },
    };
    const report = evaluateRouter(
      [
        example("a", ["greeting"]),
        example("b", ["thanks_goodbye"], "pcm"),
        example("c", ["check_balance"]),
        example("d", ["needs_agent"]),
      ],
      (text) => answers[text] as { intent: string; resolved: boolean },
    );
    expect(report.coverage).toBe(0.75);
    expect(report.resolvedPrecision).toBeCloseTo(1 / 3);
    expect(report.falseResolutionRate).toBe(1);
    expect(report.perIntent.greeting).toMatchObject({ support: 1, resolved: 2, precision: 0.5, recall: 1 });
    expect(report.perLanguage.pcm).toMatchObject({ messages: 1, coverage: 1, resolvedPrecision: 0 });
    expect(report.wrongAnswers).toEqual({
      thanks_goodbye: { greeting: 1 },
      needs_agent: { check_balance: 1 },
    });
    expect(report.confusion.check_balance).toEqual({ agent: 1 });
  });
});

describe("evaluation files", () => {
  it("reads INJONGO with its label map (alternatives accepted) and AfriSenti as chatter", () => {
    const dir = mkdtempSync(join(tmpdir(), "eval-sets-"));
    writeFileSync(
      join(dir, "label_map.tsv"),
      "injongo_domain\tinjongo_intent\trouter_intent\tconfidence\nbanking\tpay_bill\tbill_payment (or airtime_data / payment_checkout)\tmedium\nbanking\tpin_change\tcard_issues\thigh\n",
    );
    writeFileSync(
      join(dir, "hau.tsv"),
      "lang\tdomain\tintent\ttext\nhau\tbanking\tpay_bill\tbiya DSTV\nhau\tbanking\tpin_change\tcanza PIN\n",
    );
    expect(loadEvalFile(join(dir, "hau.tsv"))).toEqual([
      {
        id: "hau-0",
        text: "biya DSTV",
        gold: ["bill_payment", "airtime_data", "checkout_payment"],
        lang: "hau",
      },
      { id: "hau-1", text: "canza PIN", gold: ["card_issue"], lang: "hau" },
    ]);
    writeFileSync(join(dir, "pcm_test.tsv"), "tweet\tlabel\nomo this match sweet\tpositive\n");
    expect(loadEvalFile(join(dir, "pcm_test.tsv"))[0]).toMatchObject({ gold: ["out_of_scope"], lang: "pcm" });
    writeFileSync(join(dir, "odd.tsv"), "a\tb\n");
    expect(() => loadEvalFile(join(dir, "odd.tsv"))).toThrow(/unknown format/);
    expect(parseInjongoLabelMap("h\nbanking\tweather\tout_of_scope\thigh\n").get("weather")).toEqual([
      "out_of_scope",
    ]);
  });

  it("builds the mixed-traffic sample in the stated proportions", () => {
    const test = [
      ...Array.from({ length: 60 }, (_, index) => example(`r${index}`, ["greeting"])),
      ...Array.from({ length: 25 }, (_, index) => example(`n${index}`, ["needs_agent"])),
    ];
    const chatter = Array.from({ length: 40 }, (_, index) => example(`c${index}`, ["out_of_scope"]));
    const sample = mixedTrafficSample(test, chatter);
    expect(sample).toHaveLength(100);
    expect(sample.filter((item) => item.gold[0] === "needs_agent")).toHaveLength(25);
    expect(sample.filter((item) => item.gold[0] === "out_of_scope")).toHaveLength(15);
  });
});
