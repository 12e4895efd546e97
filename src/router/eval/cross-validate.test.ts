import { describe, expect, it } from "vitest";
import { loadLexicon } from "../lexicon.js";
import { dataPath } from "../package-files.js";
import { type LabelledExample, loadCorpus } from "../train/corpus.js";
import { loadInjongo } from "../train/injongo.js";
import { crossValidateInjongo, injongoFolds, loadInjongoLabelMap } from "./cross-validate.js";

const dataDir = dataPath("router");
const lexicon = loadLexicon();
// A small slice keeps the 5 × (5 + 1) trainings fast: 12 written messages per label, 20 INJONGO rows per language.
const injongo = loadInjongo(dataDir).rows.filter((row, index) => row.trains && index % 22 === 0);
const written: LabelledExample[] = [];
const perLabel = new Map<string, number>();
for (const example of loadCorpus(dataDir).examples) {
  const seen = perLabel.get(example.label) ?? 0;
  if (seen < 12 && !example.source.endsWith(".tsv") && example.crossValidated !== true) {
    written.push(example);
    perLabel.set(example.label, seen + 1);
  }
}
const corpus = { examples: [...written, ...injongo.map((row) => row.example)], sha256: "slice" };
const train = { epochs: 3, learningRate: 0.4, l2: 1e-5, minFeatureCount: 1, seed: 7 };

describe("crossValidateInjongo", () => {
  it("scores every INJONGO row once, one fold at a time, and reports per language", () => {
    const trainedOn: number[] = [];
    const { report, perFold } = crossValidateInjongo(corpus, injongo, loadInjongoLabelMap(dataDir), lexicon, {
      train,
      progress: (line) => trainedOn.push(Number(/(\d+) held out/u.exec(line)?.[1])),
    });
    expect(report.messages).toBe(injongo.length);
    expect(perFold).toHaveLength(5);
    expect(perFold.reduce((sum, fold) => sum + fold.messages, 0)).toBe(injongo.length);
    const folds = injongoFolds(injongo);
    expect(trainedOn).toEqual([0, 1, 2, 3, 4].map((fold) => folds.filter((f) => f === fold).length));
    expect(Object.keys(report.perLanguage).sort()).toEqual(["hau", "ibo", "yor"]);
  }, 120_000);
});
