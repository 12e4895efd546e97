import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createIntentRouter } from "../intent-router.js";
import { NEEDS_AGENT } from "../intents.js";
import { loadLexicon } from "../lexicon.js";
import { deserializeModel, ModelFileError, serializeModel } from "../model.js";
import { dataPath } from "../package-files.js";
import { multiRequestExamples } from "./augment.js";
import { calibrateModel, chooseThreshold, NEVER } from "./calibrate.js";
import { CorpusError, type LabelledExample, loadCorpus } from "./corpus.js";
import { splitCorpus } from "./split.js";
import { trainModel } from "./train.js";
import { trainRouter } from "./train-pipeline.js";

const lexicon = loadLexicon();
const corpus = loadCorpus(dataPath("router"));
// A small slice of the real corpus keeps training fast in tests: 25 messages per label.
const slice: LabelledExample[] = [];
const perLabel = new Map<string, number>();
for (const example of corpus.examples) {
  const seen = perLabel.get(example.label) ?? 0;
  if (seen < 25 && !example.source.endsWith(".tsv")) {
    slice.push(example);
    perLabel.set(example.label, seen + 1);
  }
}
const options = { epochs: 8, learningRate: 0.4, l2: 1e-5, minFeatureCount: 1, seed: 7 };

describe("training", () => {
  it("is deterministic: the same data gives the same model file, byte for byte", () => {
    const first = serializeModel(trainModel(slice, lexicon, options));
    const second = serializeModel(trainModel([...slice], lexicon, options));
    expect(first.equals(second)).toBe(true);
    expect(serializeModel(trainModel(slice, lexicon, { ...options, seed: 8 })).equals(first)).toBe(false);
  });

  it("round-trips the model file and refuses a damaged one", () => {
    const model = calibrateModel(trainModel(slice, lexicon, options), slice.slice(0, 100), lexicon);
    const bytes = serializeModel(model);
    const loaded = deserializeModel(bytes);
    expect(loaded.thresholds).toEqual(model.thresholds);
    expect([...loaded.weights]).toEqual([...model.weights]);
    const router = createIntentRouter(loaded, lexicon);
    expect(router.classify(slice[0]?.text ?? "").intent).toBe(
      createIntentRouter(model, lexicon).classify(slice[0]?.text ?? "").intent,
    );
    expect(() => deserializeModel(Buffer.from("not a model at all"))).toThrow(ModelFileError);
    expect(() => deserializeModel(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
  });

  it("learns: a model trained on the slice gets most of the slice right", () => {
    const router = createIntentRouter(trainModel(slice, lexicon, options), lexicon);
    const routine = slice.filter((example) => example.label !== NEEDS_AGENT);
    const right = routine.filter((example) => router.classify(example.text).intent === example.label).length;
    expect(right / routine.length).toBeGreaterThan(0.9);
  });
});

describe("trainRouter (the whole recipe)", () => {
  it("calibrates on out-of-fold scores, holds the test split out, and is deterministic", () => {
    const small = { examples: slice, sha256: "slice" };
    const first = trainRouter(small, lexicon, options);
    expect(first.trainedOn + first.heldOutTest).toBe(slice.length);
    expect(first.model.provenance).toMatchObject({
      corpusSha256: "slice",
      validationExamples: first.trainedOn,
    });
    expect(first.model.thresholds.needs_agent).toBe(NEVER);
    for (const threshold of Object.values(first.model.thresholds))
      expect(threshold).toBeGreaterThanOrEqual(0.5);
    expect(
      serializeModel(trainRouter(small, lexicon, options).model).equals(serializeModel(first.model)),
    ).toBe(true);
  });
});

describe("chooseThreshold", () => {
  it("picks the lowest confidence that keeps the target precision", () => {
    const predictions = [
      { confidence: 0.99, correct: true },
      { confidence: 0.95, correct: true },
      { confidence: 0.9, correct: true },
      { confidence: 0.8, correct: false },
      { confidence: 0.7, correct: true },
      { confidence: 0.3, correct: true },
    ];
    expect(chooseThreshold(predictions, 0.97)).toBe(0.9);
    expect(chooseThreshold(predictions, 0.8)).toBe(0.5); // 5 of 6 right down to 0.3, floored
    expect(chooseThreshold([{ confidence: 0.99, correct: false }], 0.97)).toBeCloseTo(0.990001, 6);
    expect(chooseThreshold([], 0.97)).toBe(NEVER);
  });
});

describe("splitCorpus", () => {
  it("keeps groups and near-duplicates on one side, the same way every run", () => {
    const splits = splitCorpus(corpus.examples);
    const sideOf = new Map<string, string>();
    for (const [side, examples] of Object.entries(splits))
      for (const example of examples) {
        const known = sideOf.get(example.group);
        expect(known === undefined || known === side, example.group).toBe(true);
        sideOf.set(example.group, side);
      }
    expect(splits.test.length / corpus.examples.length).toBeGreaterThan(0.1);
    const again = splitCorpus(corpus.examples);
    expect(again.test.map((example) => example.text)).toEqual(splits.test.map((example) => example.text));

    const twins: LabelledExample[] = [
      {
        text: "I sent ₦5k to 0123456789 e never enter",
        label: "failed_transaction",
        lang: "pcm",
        group: "a",
        source: "t",
      },
      {
        text: "I sent ₦15k to 9876543210 e never enter",
        label: "failed_transaction",
        lang: "pcm",
        group: "b",
        source: "t",
      },
    ];
    const twinSplits = splitCorpus(twins);
    expect(Object.values(twinSplits).filter((side) => side.length > 0)).toHaveLength(1);
  });
});

describe("corpus loading and augmentation", () => {
  it("names the file and line of a bad example", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    const corpusDir = join(dir, "corpus");
    mkdirSync(corpusDir);
    writeFileSync(
      join(corpusDir, "greeting.jsonl"),
      '{"text":"hi","lang":"en","group":"g1"}\n{"text":"yo","lang":"xx","group":"g2"}\n',
    );
    expect(() => loadCorpus(dir)).toThrow(/greeting\.jsonl:2: "lang"/);
    writeFileSync(join(corpusDir, "greeting.jsonl"), '{"text":"hi","lang":"en","group":"g1"}\n');
    writeFileSync(join(corpusDir, "balance.jsonl"), '{"text":"bal","lang":"en","group":"g1"}\n');
    expect(() => loadCorpus(dir)).toThrow(CorpusError);
  });

  it("reads every afrisenti-*.tsv pool: a bare tweet header is Pidgin chatter, a labelled one labels each row", () => {
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    mkdirSync(join(dir, "corpus"));
    writeFileSync(join(dir, "corpus", "greeting.jsonl"), '{"text":"hi","lang":"en","group":"g1"}\n');
    writeFileSync(join(dir, "afrisenti-oos.tsv"), "tweet\nna so the match go\n");
    writeFileSync(
      join(dir, "afrisenti-pcm-complaints.tsv"),
      "tweet\tlabel\tlang\nuna thief my money\tneeds_agent\tpcm\n",
    );
    writeFileSync(
      join(dir, "afrisenti-hau-chatter.tsv"),
      "tweet\tlabel\tlang\nAllah ya kiyaye\tout_of_scope\tha\n",
    );
    writeFileSync(join(dir, "other.tsv"), "tweet\nnot a pool\n");
    const loaded = loadCorpus(dir).examples.map(({ text, label, lang }) => ({ text, label, lang }));
    expect(loaded).toEqual([
      { text: "hi", label: "greeting", lang: "en" },
      { text: "Allah ya kiyaye", label: "out_of_scope", lang: "ha" },
      { text: "na so the match go", label: "out_of_scope", lang: "pcm" },
      { text: "una thief my money", label: NEEDS_AGENT, lang: "pcm" },
    ]);
    writeFileSync(join(dir, "afrisenti-bad.tsv"), "tweet\tlabel\tlang\nhello\tnot_an_intent\tpcm\n");
    expect(() => loadCorpus(dir)).toThrow(/afrisenti-bad\.tsv:2/);
  });

  it("makes several-requests hard negatives from two different intents", () => {
    const made = multiRequestExamples(slice, 50, 1);
    expect(made).toHaveLength(50);
    expect(made.every((example) => example.label === NEEDS_AGENT)).toBe(true);
    expect(multiRequestExamples(slice, 50, 1)).toEqual(made);
  });
});

describe("the shipped model", () => {
  it("was trained on the corpus and lexicon as they are now (run `sharpsharp router train` after editing data/)", () => {
    const model = deserializeModel(readFileSync(dataPath("router", "model.bin")));
    expect(model.provenance.corpusSha256).toBe(corpus.sha256);
    expect(model.provenance.lexiconSha256).toBe(lexicon.sha256);
    expect(readFileSync(dataPath("router", "model.bin")).length).toBeLessThan(5 * 1024 * 1024);
  });
});
