import type { DetectedLanguage } from "../detect-language.js";
import type { RouterLanguage } from "../lexicon.js";
import { dataPath } from "../package-files.js";
import { type LanguageModel, languageRows, languageScores, loadLanguageModelFile } from "./language-model.js";
import { type LanguageText, languageText } from "./language-text.js";
import { pidginEvidence } from "./pidgin-markers.js";

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
   * message the model is unsure of, so the fallback; `grammar`: Pidgin's
   * grammar words outweighed English's where the model leaned English.
   */
  readonly basis: "model" | "mix" | "short" | "uncertain" | "grammar";
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

// A capitalised word of 6 letters or more inside a sentence: most often a name ("I'm Chukwuemeka",
// "Thank you Oluwaseun"); shorter ones are often words ("Don Allah", "Ka Chukwu gozie").
const CAPITALISED_WORD = /(?<=[\p{L}\p{M},;]\s+)\p{Lu}[\p{Ll}\p{M}'’]{5,}/gu;
const ENGLISH_BASED: ReadonlySet<string> = new Set(["en", "pcm"]);

interface Ranked {
  readonly scores: Record<RouterLanguage, number>;
  readonly top: RouterLanguage;
  readonly second: RouterLanguage;
}

export function createLanguageIdentifier(model: LanguageModel): LanguageIdentifier {
  const classes = model.classes;
  const logits = new Float64Array(classes.length);
  const uniform = Object.fromEntries(classes.map((name) => [name, 1 / classes.length])) as Record<
    RouterLanguage,
    number
  >;

  function rank(text: LanguageText): Ranked | undefined {
    const rows = languageRows(model, text);
    if (rows.length === 0) return undefined;
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
    return { scores, top: classes[best] as RouterLanguage, second: classes[second] as RouterLanguage };
  }

  // Two languages close, one of them Yoruba, Hausa or Igbo (English and Pidgin shade into each other:
  // two of them close is not code-switching worth a "mix").
  const isMix = (ranked: Ranked, words: number): boolean =>
    words >= LANGUAGE_RULES.mixMinWords &&
    ranked.scores[ranked.second] >= ranked.scores[ranked.top] * LANGUAGE_RULES.mixRatio &&
    !(ENGLISH_BASED.has(ranked.top) && ENGLISH_BASED.has(ranked.second));

  return {
    model,
    identify(message, options = {}) {
      const fallback = options.fallback ?? "en";
      const original = typeof message === "string" ? message : message.original;
      const text = languageText(original);
      const ranked = rank(text);
      if (ranked === undefined)
        return { language: fallback, probability: 1 / classes.length, scores: uniform, basis: "short" };
      const { scores, top } = ranked;
      if (text.letters < LANGUAGE_RULES.minLetters)
        return { language: fallback, probability: scores[fallback], scores, basis: "short" };
      const needed =
        text.letters < LANGUAGE_RULES.tinyLetters
          ? LANGUAGE_RULES.minTinyProbability
          : LANGUAGE_RULES.minShortProbability;
      if (text.words < LANGUAGE_RULES.shortWords && scores[top] < needed)
        return { language: fallback, probability: scores[fallback], scores, basis: "uncertain" };
      if (isMix(ranked, text.words)) {
        // A name is not code-switching: the mix must hold without the capitalised words.
        const withoutNames = original.replace(CAPITALISED_WORD, " ");
        const unnamed = withoutNames === original ? ranked : rank(languageText(withoutNames));
        if (unnamed === undefined || isMix(unnamed, text.words))
          return { language: "mix", probability: scores[top], scores, basis: "mix" };
      }
      // English over Pidgin by letters alone, but Pidgin by grammar ("my account never credit"). The
      // other way round was measured to hurt: Pidgin tweets full of English words are still Pidgin.
      if (top === "en" && ranked.second === "pcm") {
        const evidence = pidginEvidence(original);
        if (evidence.pidgin > evidence.english)
          return { language: "pcm", probability: scores.pcm, scores, basis: "grammar" };
      }
      return { language: top, probability: scores[top], scores, basis: "model" };
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
