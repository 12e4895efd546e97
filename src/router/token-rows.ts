import { forEachTokenFeature } from "./features.js";
import type { RouterModel } from "./model.js";

/**
 * Most of a message's features are its words' character n-grams, and words
 * repeat from message to message: looking each one's up again (building and
 * hashing a dozen strings a word) was most of the classifier's time. A word's
 * known rows are kept per model, up to MAX_CACHED_TOKENS words, then the
 * cache starts over (a bound, not an LRU: customers' vocabulary is small).
 */
export const MAX_CACHED_TOKENS = 50_000;

const cacheByModel = new WeakMap<RouterModel, Map<string, Int32Array>>();

/** The model's rows for a token's own features (forEachTokenFeature), unknown ones dropped. */
export function tokenRows(model: RouterModel, token: string): Int32Array {
  let cache = cacheByModel.get(model);
  if (cache === undefined) {
    cache = new Map();
    cacheByModel.set(model, cache);
  }
  const known = cache.get(token);
  if (known !== undefined) return known;
  const rows: number[] = [];
  forEachTokenFeature(token, (feature) => {
    const row = model.featureIndex.get(feature);
    if (row !== undefined) rows.push(row);
  });
  const found = Int32Array.from(rows);
  if (cache.size >= MAX_CACHED_TOKENS) cache.clear();
  cache.set(token, found);
  return found;
}
