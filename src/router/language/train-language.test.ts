import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataPath } from "../package-files.js";
import { evaluateLanguage, LanguageEvalError, loadLanguageEvalFile } from "./evaluate-language.js";
import { createLanguageIdentifier } from "./identify-language.js";
import { injongoHeldOut } from "./injongo-holdout.js";
import { LanguageDataError, loadLanguageData, parseLanguageSample } from "./language-data.js";
import { deserializeLanguageModel, LanguageModelError, serializeLanguageModel } from "./language-model.js";
import { englishShare, hasPidginMarker } from "./language-sample.js";
import {
  DEFAULT_LANGUAGE_TRAIN_OPTIONS,
  type LanguageExample,
  trainLanguageModel,
} from "./train-language.js";

const data = loadLanguageData(dataPath("router"));
// A slice of the real training text: 60 lines per language keeps the tests quick.
const slice: LanguageExample[] = [];
const perLanguage = new Map<string, number>();
for (const example of data.examples) {
  const seen = perLanguage.get(example.lang) ?? 0;
  if (seen < 60) {
    slice.push(example);
    perLanguage.set(example.lang, seen + 1);
  }
}
const options = { ...DEFAULT_LANGUAGE_TRAIN_OPTIONS, minCount: 1, epochs: 6 };

describe("trainLanguageModel", () => {
  it("is deterministic: the same lines give the same bytes, another seed other bytes", () => {
    const first = serializeLanguageModel(trainLanguageModel(slice, "slice", options));
    expect(serializeLanguageModel(trainLanguageModel([...slice], "slice", options)).equals(first)).toBe(true);
    expect(
      serializeLanguageModel(trainLanguageModel(slice, "slice", { ...options, seed: 1 })).equals(first),
    ).toBe(false);
  });

  it("round-trips the model file and refuses a damaged one", () => {
    const model = trainLanguageModel(slice, "slice", options);
    const bytes = serializeLanguageModel(model);
    const loaded = deserializeLanguageModel(bytes);
    expect([...loaded.hashes]).toEqual([...model.hashes]);
    expect([...loaded.weights]).toEqual([...model.weights]);
    const text = slice[0]?.text ?? "";
    expect(createLanguageIdentifier(loaded).identify(text).scores).toEqual(
      createLanguageIdentifier(model).identify(text).scores,
    );
    expect(() => deserializeLanguageModel(Buffer.from("not a model"))).toThrow(LanguageModelError);
    expect(() => deserializeLanguageModel(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
  });

  it("learns: the slice's own lines come back mostly right", () => {
    const identifier = createLanguageIdentifier(trainLanguageModel(slice, "slice", options));
    const report = evaluateLanguage(
      slice.filter((example) => example.text.split(" ").length >= 4),
      (text) => identifier.identify(text).language,
    );
    expect(report.accuracy).toBeGreaterThan(0.9);
  });
});

describe("the shipped language model", () => {
  it("was trained on data/router/language, the corpus and the lexicons as they are now (run `sharpsharp router train`)", () => {
    const model = deserializeLanguageModel(readFileSync(dataPath("router", "language.bin")));
    expect(model.provenance.dataSha256).toBe(data.sha256);
    expect(model.provenance.hyperparameters).toEqual({ ...DEFAULT_LANGUAGE_TRAIN_OPTIONS });
    expect(readFileSync(dataPath("router", "language.bin")).length).toBeLessThan(1024 * 1024);
  });
});

describe("training text", () => {
  it("has every language, and names the file and line of a bad sample line", () => {
    expect(new Set(data.examples.map((example) => example.lang))).toEqual(
      new Set(["en", "pcm", "yo", "ha", "ig"]),
    );
    expect(() => parseLanguageSample("ha.tsv", "source\ttext\nafrisenti-train\n", "ha")).toThrow(/ha\.tsv:2/);
    expect(() => parseLanguageSample("ha.tsv", "text\n", "ha")).toThrow(LanguageDataError);
  });

  it("tells English-heavy tweets and Pidgin markers apart", () => {
    expect(englishShare("the game was so good and we love it".split(" "))).toBeGreaterThan(0.5);
    expect(englishShare("allah ya kiyaye mu daga sharrin".split(" "))).toBe(0);
    expect(hasPidginMarker("wetin happen for there".split(" "))).toBe(true);
    expect(hasPidginMarker("e go better".split(" "))).toBe(true);
    expect(hasPidginMarker("i love this song".split(" "))).toBe(false);
  });

  it("holds INJONGO's template variants out together", () => {
    const rows = Array.from({ length: 40 }, (_, index) => ({
      lang: "hau",
      intent: "balance",
      text: `Nawa ne kudin da ke cikin asusun ${["GTB", "Access", "Zenith", "UBA"][index % 4]} na ${index % 2 === 0 ? "yau" : "yau"} ${index}`,
    }));
    const heldOut = injongoHeldOut(rows);
    expect(new Set(heldOut).size).toBe(1);
  });

  it("never reads an AfriSenti test file, and scores what it reads", () => {
    const dir = mkdtempSync(join(tmpdir(), "lang-eval-"));
    writeFileSync(join(dir, "hau_test.tsv"), "ID\ttweet\tlabel\nx\tsannu\tneutral\n");
    expect(() => loadLanguageEvalFile(join(dir, "hau_test.tsv"))).toThrow(LanguageEvalError);
    writeFileSync(
      join(dir, "hau_dev.tsv"),
      "ID\ttweet\tlabel\nx\tsannu da zuwa\tneutral\ny\tyaya kake\tneutral\n",
    );
    const examples = loadLanguageEvalFile(join(dir, "hau_dev.tsv"));
    expect(examples).toEqual([
      { text: "sannu da zuwa", lang: "ha" },
      { text: "yaya kake", lang: "ha" },
    ]);
    const report = evaluateLanguage(examples, (text) => (text.startsWith("sannu") ? "ha" : "yo"));
    expect(report.accuracy).toBe(0.5);
    expect(report.confusion).toEqual({ ha: { ha: 1, yo: 1 } });
  });
});
