import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROUTER_LANGUAGES, type RouterLanguage } from "../lexicon.js";
import { dataPath } from "../package-files.js";
import { loadCorpus } from "../train/corpus.js";
import { splitCorpus } from "../train/split.js";
import { SAMPLED_LANGUAGES } from "./language-sample.js";
import type { LanguageExample } from "./train-language.js";

export interface LanguageData {
  readonly examples: readonly LanguageExample[];
  /** Digest of everything read (recorded in the model: the test checks the shipped model against it). */
  readonly sha256: string;
}

export class LanguageDataError extends Error {
  override readonly name = "LanguageDataError";
}

/** The lines of a `source<TAB>text` sample file. */
export function parseLanguageSample(name: string, text: string, lang: RouterLanguage): LanguageExample[] {
  const [header, ...lines] = text.split("\n");
  if (header !== "source\ttext")
    throw new LanguageDataError(`${name}: expected the header "source<TAB>text"`);
  return lines
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      const [source, utterance, extra] = line.split("\t");
      if (source === undefined || utterance === undefined || extra !== undefined || utterance === "")
        throw new LanguageDataError(`${name}:${index + 2}: expected "source<TAB>text"`);
      return { text: utterance, lang, source: `${name}/${source}` };
    });
}

// The MIT word lists of data/lexicon, one form a line: single words ("nagode", "biko") are the
// hardest messages to place, and these are the words customers write. pidgin-ud.tsv (CC BY-SA) is not read.
const LEXICON_FILES: Readonly<Record<string, RouterLanguage>> = {
  "pidgin-core.tsv": "pcm",
  "yoruba.tsv": "yo",
  "hausa.tsv": "ha",
  "igbo.tsv": "ig",
};

/**
 * The language identifier's training text, from the router's data folder:
 * `language/{pcm,ha,ig,yo}.tsv` (the public-data sample) and the corpus lines
 * labelled en, pcm, yo, ha or ig in its train and validation splits (the test
 * split is kept for `router eval-language`; `mix` lines and the out-of-scope
 * tweet pool are not read), and the forms of the MIT lexicon files.
 */
export function loadLanguageData(
  routerDataDir: string,
  lexiconDir: string = dataPath("lexicon"),
): LanguageData {
  const hash = createHash("sha256");
  const examples: LanguageExample[] = [];
  for (const lang of SAMPLED_LANGUAGES) {
    const name = `${lang}.tsv`;
    const path = join(routerDataDir, "language", name);
    if (!existsSync(path)) throw new LanguageDataError(`no language sample at ${path}`);
    const text = readFileSync(path, "utf8");
    hash.update(name).update("\0").update(text).update("\0");
    examples.push(...parseLanguageSample(name, text, lang));
  }
  const corpus = loadCorpus(routerDataDir);
  hash.update("corpus").update("\0").update(corpus.sha256);
  const { train, validation } = splitCorpus(corpus.examples);
  for (const example of [...train, ...validation])
    if (!example.source.endsWith(".tsv") && (ROUTER_LANGUAGES as readonly string[]).includes(example.lang))
      examples.push({ text: example.text, lang: example.lang as RouterLanguage, source: example.source });
  for (const [name, lang] of Object.entries(LEXICON_FILES)) {
    const text = readFileSync(join(lexiconDir, name), "utf8");
    hash.update(name).update("\0").update(text).update("\0");
    const forms = new Set(
      text
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.startsWith("#"))
        .map((line) => line.split("\t")[0]?.trim() ?? ""),
    );
    for (const form of forms) if (form !== "") examples.push({ text: form, lang, source: `lexicon/${name}` });
  }
  return { examples, sha256: hash.digest("hex") };
}
