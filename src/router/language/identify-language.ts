import type { DetectedLanguage } from "../detect-language.js";
import type { RouterLanguage } from "../lexicon.js";
import { dataPath } from "../package-files.js";
import { type LanguageModel, languageRows, languageScores, loadLanguageModelFile } from "./language-model.js";
import { languageText } from "./language-text.js";

/** What the identifier makes of a message. */
export interface LanguageGuess {
  /** The language to answer in: the model's best, `mix`, or the fallback (see `basis`). */
  readonly language: DetectedLanguage;
  /** The model's probability of `language` (for `mix`, of the likelier of the two; for a fallback, of the fallback). */
  readonly probability: number;
  /** The model's probability of every language (all equal when the message has no letters). */
  readonly scores: Readonly<Record<RouterLanguage, number>>;
  /**
   * `model`: the best language; `mix`: two languages close (code-switched);
   * `short`: too few letters to tell, so the fallback; `uncertain`: a short
   * message the model is unsure of, so the fallback.
   */
  readonly basis: "model" | "mix" | "short" | "uncertain";
}

export interface LanguageIdentifyOptions {
  /** The language for messages too short or too unsure to tell (default `en`; a tenant may set its own). */
  readonly fallback?: RouterLanguage;
}

/** The rules around the model: chosen by hand on short greetings and our test split's mix lines (see data/router/language/README.md). */
export const LANGUAGE_RULES = {
  /** Fewer letters than this: the fallback ("ok", "hi", "no"). */
  minLetters: 3,
  /** Messages under this many words need `minShortProbability` for their best language, else the fallback... */
  shortWords: 3,
  minShortProbability: 0.6,
  /** ...and `minTinyProbability` when they have fewer than `tinyLetters` letters ("yes", "e se", "pls"). */
  tinyLetters: 5,
  minTinyProbability: 0.9,
  /** `mix` needs this many words, and the second language within this ratio of the first. */
  mixMinWords: 4,
  mixRatio: 0.35,
} as const;

export interface LanguageIdentifier {
  readonly model: LanguageModel;
  /** Identifies the language of a message (the original text, or a NormalizedText's `original`). */
  identify(message: string | { readonly original: string }, options?: LanguageIdentifyOptions): LanguageGuess;
}

export const DEFAULT_LANGUAGE_MODEL_PATH = (): string => dataPath("router", "language.bin");

export function createLanguageIdentifier(model: LanguageModel): LanguageIdentifier {
  const classes = model.classes;
  const logits = new Float64Array(classes.length);
  const uniform = Object.fromEntries(classes.map((name) => [name, 1 / classes.length])) as Record<
    RouterLanguage,
    number
  >;
  return {
    model,
    identify(message, options = {}) {
      const fallback = options.fallback ?? "en";
      const text = languageText(typeof message === "string" ? message : message.original);
      const rows = languageRows(model, text);
      if (rows.length === 0)
        return { language: fallback, probability: 1 / classes.length, scores: uniform, basis: "short" };
      languageScores(model, rows, logits);
      let max = Number.NEGATIVE_INFINITY;
      for (const logit of logits) max = Math.max(max, logit);
      let sum = 0;
      for (let c = 0; c < logits.length; c += 1) {
        logits[c] = Math.exp((logits[c] as number) - max);
        sum += logits[c] as number;
      }
      const scores = {} as Record<RouterLanguage, number>;
      let best = 0;
      let second = -1;
      for (let c = 0; c < classes.length; c += 1) {
        const p = (logits[c] as number) / sum;
        scores[classes[c] as RouterLanguage] = p;
        if (c === 0) continue;
        if (p > (logits[best] as number) / sum) {
          second = best;
          best = c;
        } else if (second < 0 || p > (logits[second] as number) / sum) second = c;
      }
      const top = classes[best] as RouterLanguage;
      const pTop = scores[top];
      const pSecond = scores[classes[second] as RouterLanguage];
      if (text.letters < LANGUAGE_RULES.minLetters)
        return { language: fallback, probability: scores[fallback], scores, basis: "short" };
      const words = text.words;
      const needed =
        text.letters < LANGUAGE_RULES.tinyLetters
          ? LANGUAGE_RULES.minTinyProbability
          : LANGUAGE_RULES.minShortProbability;
      if (words < LANGUAGE_RULES.shortWords && pTop < needed)
        return { language: fallback, probability: scores[fallback], scores, basis: "uncertain" };
      // English and Pidgin shade into each other: two of them close is not code-switching worth a "mix".
      const englishBased = top === "en" || top === "pcm";
      const secondEnglishBased = classes[second] === "en" || classes[second] === "pcm";
      if (
        words >= LANGUAGE_RULES.mixMinWords &&
        pSecond >= pTop * LANGUAGE_RULES.mixRatio &&
        !(englishBased && secondEnglishBased)
      )
        return { language: "mix", probability: pTop, scores, basis: "mix" };
      return { language: top, probability: pTop, scores, basis: "model" };
    },
  };
}

/** The identifier from the package's language model (or the given file). */
export function loadLanguageIdentifier(path: string = DEFAULT_LANGUAGE_MODEL_PATH()): LanguageIdentifier {
  return createLanguageIdentifier(loadLanguageModelFile(path));
}

let packaged: LanguageIdentifier | undefined;

/** The package's language identifier, loaded once (data/router/language.bin). */
export function defaultLanguageIdentifier(): LanguageIdentifier {
  packaged ??= loadLanguageIdentifier();
  return packaged;
}
