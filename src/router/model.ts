import { readFileSync } from "node:fs";
import { createDistinctRows, type DistinctRows } from "./distinct-rows.js";
import { frameModelFile, unframeModelFile } from "./model-file.js";

/** What a model file records about how it was made (no clock: same data, same bytes). */
export interface ModelProvenance {
  readonly corpusSha256: string;
  readonly lexiconSha256: string;
  readonly trainExamples: number;
  readonly validationExamples: number;
  readonly hyperparameters: Readonly<Record<string, number>>;
  /** Validation precision the thresholds were chosen for. */
  readonly targetPrecision: number;
}

/** A trained linear classifier with its calibration. */
export interface RouterModel {
  /** Output classes: the router's intents plus NEEDS_AGENT. */
  readonly classes: readonly string[];
  readonly features: readonly string[];
  readonly featureIndex: ReadonlyMap<string, number>;
  /** Row-major: weights[feature * classes.length + class]. */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  /** Softmax temperature fitted on the validation split. */
  readonly temperature: number;
  /** Per-intent confidence at or above which the router answers locally (> 1: never). */
  readonly thresholds: Readonly<Record<string, number>>;
  /** The same for Yoruba, Hausa and Igbo messages, where calibrated apart (else `thresholds`). */
  readonly nativeThresholds?: Readonly<Record<string, number>>;
  readonly provenance: ModelProvenance;
}

export class ModelFileError extends Error {
  override readonly name = "ModelFileError";
}

const MAGIC = "SSROUTE1";

interface ModelHeader {
  readonly classes: readonly string[];
  readonly features: readonly string[];
  readonly temperature: number;
  readonly thresholds: Readonly<Record<string, number>>;
  readonly nativeThresholds?: Readonly<Record<string, number>>;
  readonly provenance: ModelProvenance;
}

/** Builds a model from its parts (indexes the features). */
export function createRouterModel(
  header: ModelHeader,
  weights: Float32Array,
  bias: Float32Array,
): RouterModel {
  if (
    weights.length !== header.features.length * header.classes.length ||
    bias.length !== header.classes.length
  )
    throw new ModelFileError("weights do not match the features and classes");
  const featureIndex = new Map(header.features.map((feature, index) => [feature, index]));
  return { ...header, featureIndex, weights, bias };
}

/**
 * The model file (model-file.ts's frame): the JSON header (classes, features,
 * calibration, provenance), then the float32 weights and biases.
 */
export function serializeModel(model: RouterModel): Buffer {
  const header: ModelHeader = {
    classes: model.classes,
    features: model.features,
    temperature: model.temperature,
    thresholds: model.thresholds,
    ...(model.nativeThresholds === undefined ? {} : { nativeThresholds: model.nativeThresholds }),
    provenance: model.provenance,
  };
  return frameModelFile(MAGIC, header, model.weights.length + model.bias.length, (out, start) => {
    let offset = start;
    for (const value of model.weights) offset = out.writeFloatLE(value, offset);
    for (const value of model.bias) offset = out.writeFloatLE(value, offset);
  });
}

export function deserializeModel(bytes: Buffer): RouterModel {
  const { header, body } = unframeModelFile<ModelHeader>(
    bytes,
    MAGIC,
    "router model",
    (message) => new ModelFileError(message),
  );
  const count = header.features.length * header.classes.length;
  if ((count + header.classes.length) * 4 !== body.length)
    throw new ModelFileError("router model file is truncated or has trailing bytes");
  const floats = new Float32Array(count + header.classes.length);
  for (let index = 0; index < floats.length; index += 1) floats[index] = body.readFloatLE(index * 4);
  return createRouterModel(header, floats.subarray(0, count), floats.subarray(count));
}

export function loadModelFile(path: string): RouterModel {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ModelFileError(`cannot read the router model ${path}: ${(error as Error).message}`);
  }
  return deserializeModel(bytes);
}

const distinctRowsByModel = new WeakMap<RouterModel, DistinctRows>();

/**
 * The model's distinct rows for a stream of features (duplicates and unknown
 * features dropped); `visitRow` takes a row already looked up (a cache's).
 */
export function featureRows(
  model: RouterModel,
  each: (visit: (feature: string) => void, visitRow: (row: number) => void) => void,
): Int32Array {
  let distinct = distinctRowsByModel.get(model);
  if (distinct === undefined) {
    distinct = createDistinctRows(model.features.length, 1024);
    distinctRowsByModel.set(model, distinct);
  }
  const rows = distinct;
  rows.begin();
  each(
    (feature) => {
      const row = model.featureIndex.get(feature);
      if (row !== undefined) rows.add(row);
    },
    (row) => rows.add(row),
  );
  return rows.rows();
}

/**
 * The linear score per class for a message's distinct feature rows: each
 * weighted 1/√n (n = the rows' count), so long messages do not shout.
 */
export function scoreRows(model: RouterModel, rows: Int32Array): Float64Array {
  const classes = model.classes.length;
  const scores = new Float64Array(classes);
  for (let index = 0; index < classes; index += 1) scores[index] = model.bias[index] as number;
  const scale = 1 / Math.sqrt(Math.max(1, rows.length));
  for (const row of rows) {
    const base = row * classes;
    for (let index = 0; index < classes; index += 1)
      scores[index] = (scores[index] as number) + (model.weights[base + index] as number) * scale;
  }
  return scores;
}

/** The linear score per class for a list of features. */
export function classScores(model: RouterModel, features: readonly string[]): Float64Array {
  return scoreRows(
    model,
    featureRows(model, (visit) => {
      for (const feature of features) visit(feature);
    }),
  );
}

/** Class probabilities: the scores' softmax at the model's calibrated temperature. */
export function classProbabilities(model: RouterModel, features: readonly string[]): Float64Array {
  return softmax(classScores(model, features), model.temperature);
}

export function softmax(scores: Float64Array, temperature: number): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const score of scores) max = Math.max(max, score);
  let sum = 0;
  const out = new Float64Array(scores.length);
  for (let index = 0; index < scores.length; index += 1) {
    const value = Math.exp(((scores[index] as number) - max) / temperature);
    out[index] = value;
    sum += value;
  }
  for (let index = 0; index < out.length; index += 1) out[index] = (out[index] as number) / sum;
  return out;
}

/** The index of the largest value (the first on a tie). */
export function argmax(values: Float64Array): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1)
    if ((values[index] as number) > (values[best] as number)) best = index;
  return best;
}
