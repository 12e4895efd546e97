import { readFileSync } from "node:fs";
import { createDistinctRows, type DistinctRows } from "../distinct-rows.js";
import { ROUTER_LANGUAGES, type RouterLanguage } from "../lexicon.js";
import { frameModelFile, unframeModelFile } from "../model-file.js";
import { forEachLanguageFeature, type LanguageText } from "./language-text.js";

/** How a language model was made (no clock: same data, same bytes). */
export interface LanguageModelProvenance {
  /** Digest of the training text (data/router/language/*.tsv and the corpus lines used). */
  readonly dataSha256: string;
  readonly examples: Readonly<Partial<Record<RouterLanguage, number>>>;
  readonly hyperparameters: Readonly<Record<string, number>>;
}

/**
 * A linear model over hashed character n-grams (see forEachLanguageFeature):
 * one weight per feature and language. A message's feature vector is its
 * distinct known features, each 1/√k (k of them), so scores do not grow
 * without bound with the message's length.
 */
export interface LanguageModel {
  readonly classes: readonly RouterLanguage[];
  /** The features' hashes, ascending. */
  readonly hashes: Uint32Array;
  /** Row-major: weights[feature * classes.length + class]. */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  readonly provenance: LanguageModelProvenance;
  /** Open-addressing table from a hash to its feature's row (built on load): [hash, row + 1] pairs, 0 empty. */
  readonly table: { readonly slots: Uint32Array; readonly mask: number };
}

export class LanguageModelError extends Error {
  override readonly name = "LanguageModelError";
}

const MAGIC = "SSLANG01";

interface LanguageModelHeader {
  readonly classes: readonly RouterLanguage[];
  readonly features: number;
  readonly provenance: LanguageModelProvenance;
}

function slotOf(hash: number, mask: number): number {
  return (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
}

/** Builds a model from its parts (and its lookup table). */
export function createLanguageModel(
  classes: readonly RouterLanguage[],
  hashes: Uint32Array,
  weights: Float32Array,
  bias: Float32Array,
  provenance: LanguageModelProvenance,
): LanguageModel {
  if (weights.length !== hashes.length * classes.length || bias.length !== classes.length)
    throw new LanguageModelError("weights do not match the features and classes");
  for (const name of classes)
    if (!(ROUTER_LANGUAGES as readonly string[]).includes(name))
      throw new LanguageModelError(`unknown language "${name}" in the model`);
  let size = 1;
  while (size < hashes.length * 2) size *= 2;
  // Hash and row side by side: one cache line per probe.
  const slots = new Uint32Array(size * 2);
  const mask = size - 1;
  for (let row = 0; row < hashes.length; row += 1) {
    const hash = hashes[row] as number;
    let slot = slotOf(hash, mask);
    while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
    slots[slot * 2] = hash;
    slots[slot * 2 + 1] = row + 1;
  }
  return { classes, hashes, weights, bias, provenance, table: { slots, mask } };
}

/** The row of a feature hash, or -1 when the model does not know it. */
export function featureRow(model: LanguageModel, hash: number): number {
  const { slots, mask } = model.table;
  let slot = slotOf(hash, mask);
  for (;;) {
    const row = slots[slot * 2 + 1] as number;
    if (row === 0 || slots[slot * 2] === hash) return row - 1;
    slot = (slot + 1) & mask;
  }
}

const distinctRowsByModel = new WeakMap<LanguageModel, DistinctRows>();

/** The distinct rows of the model's features in a text. */
export function languageRows(model: LanguageModel, text: LanguageText): Int32Array {
  let distinct = distinctRowsByModel.get(model);
  if (distinct === undefined) {
    distinct = createDistinctRows(model.hashes.length, 256);
    distinctRowsByModel.set(model, distinct);
  }
  const rows = distinct;
  rows.begin();
  forEachLanguageFeature(text, (hash) => {
    const row = featureRow(model, hash);
    if (row >= 0) rows.add(row);
  });
  return rows.rows();
}

/** Each class's score (logit) for a set of rows, every row weighted 1/√rows. */
export function languageScores(model: LanguageModel, rows: Int32Array, out?: Float64Array): Float64Array {
  const classes = model.classes.length;
  const scores = out ?? new Float64Array(classes);
  const value = rows.length === 0 ? 0 : 1 / Math.sqrt(rows.length);
  for (let c = 0; c < classes; c += 1) scores[c] = model.bias[c] as number;
  for (const row of rows) {
    const base = row * classes;
    for (let c = 0; c < classes; c += 1)
      scores[c] = (scores[c] as number) + (model.weights[base + c] as number) * value;
  }
  return scores;
}

/**
 * The file (model-file.ts's frame): the JSON header, then the uint32 hashes,
 * the float32 weights and the float32 biases.
 */
export function serializeLanguageModel(model: LanguageModel): Buffer {
  const header: LanguageModelHeader = {
    classes: model.classes,
    features: model.hashes.length,
    provenance: model.provenance,
  };
  const words = model.hashes.length + model.weights.length + model.bias.length;
  return frameModelFile(MAGIC, header, words, (out, start) => {
    let offset = start;
    for (const hash of model.hashes) offset = out.writeUInt32LE(hash, offset);
    for (const weight of model.weights) offset = out.writeFloatLE(weight, offset);
    for (const weight of model.bias) offset = out.writeFloatLE(weight, offset);
  });
}

export function deserializeLanguageModel(bytes: Buffer): LanguageModel {
  const { header, body } = unframeModelFile<LanguageModelHeader>(
    bytes,
    MAGIC,
    "language model",
    (message) => new LanguageModelError(message),
  );
  const features = header.features;
  const classes = header.classes.length;
  if ((features + features * classes + classes) * 4 !== body.length)
    throw new LanguageModelError("language model file is truncated or has trailing bytes");
  // Copied out of the file buffer so the typed arrays are aligned whatever the buffer's offset.
  const words = new Uint8Array(body).buffer;
  return createLanguageModel(
    header.classes,
    new Uint32Array(words, 0, features),
    new Float32Array(words, features * 4, features * classes),
    new Float32Array(words, (features + features * classes) * 4, classes),
    header.provenance,
  );
}

export function loadLanguageModelFile(path: string): LanguageModel {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new LanguageModelError(`cannot read the language model ${path}: ${(error as Error).message}`);
  }
  return deserializeLanguageModel(bytes);
}
