import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataPath } from "./package-files.js";

/** Languages the router tells apart (for metrics and evaluation breakdowns). */
export const ROUTER_LANGUAGES = ["en", "pcm", "yo", "ha", "ig"] as const;
export type RouterLanguage = (typeof ROUTER_LANGUAGES)[number];

/** One entry of a concept list: the canonical tokens a form stands for, and where it comes from. */
export interface ConceptEntry {
  /** Each alternative meaning as its canonical words ("owo mi" → [["my", "money"]]). */
  readonly concepts: readonly (readonly string[])[];
  readonly languages: readonly RouterLanguage[];
}

/**
 * The normaliser's word lists (data/lexicon). Spellings replace a form by its
 * standard spelling ("pls" → "please"); concepts are added beside a form
 * ("kudi" → money) so the model sees both the customer's word and its meaning.
 */
export interface Lexicon {
  /** Keyed by the form's words joined by single spaces. */
  readonly spellings: ReadonlyMap<string, readonly string[]>;
  readonly concepts: ReadonlyMap<string, ConceptEntry>;
  /** The longest form, in words. */
  readonly maxWords: number;
  /** For each first word of a multi-word form, the longest form it starts (so single words skip the search). */
  readonly spellingStarts: ReadonlyMap<string, number>;
  readonly conceptStarts: ReadonlyMap<string, number>;
  /** A digest of the files it was read from (recorded in a model trained with it). */
  readonly sha256: string;
}

export class LexiconError extends Error {
  override readonly name = "LexiconError";
}

interface LexiconFile {
  readonly name: string;
  readonly text: string;
}

const SPELLING_FILES = new Set(["sms.tsv", "emoji.tsv"]);

/** Parses lexicon files (see data/lexicon/README.md for the format). */
export function parseLexicon(files: readonly LexiconFile[]): Lexicon {
  const spellings = new Map<string, string[]>();
  const concepts = new Map<string, { concepts: string[][]; languages: RouterLanguage[] }>();
  let maxWords = 1;
  const spellingStarts = new Map<string, number>();
  const conceptStarts = new Map<string, number>();
  const noteStart = (starts: Map<string, number>, key: string, words: number) => {
    if (words < 2) return;
    const first = key.split(" ")[0] as string;
    starts.set(first, Math.max(starts.get(first) ?? 1, words));
  };
  for (const file of files) {
    let language: RouterLanguage | undefined;
    const lines = file.text.split("\n");
    lines.forEach((raw, index) => {
      const line = raw.trimEnd();
      if (line === "") return;
      if (line.startsWith("#")) {
        const declared = /^# lang:\s*(\S+)/u.exec(line)?.[1];
        if (declared !== undefined && declared !== "-") {
          if (!(ROUTER_LANGUAGES as readonly string[]).includes(declared))
            throw new LexiconError(`${file.name}:${index + 1}: unknown language "${declared}"`);
          language = declared as RouterLanguage;
        }
        return;
      }
      const [form, canonical, extra] = line.split("\t");
      if (
        form === undefined ||
        canonical === undefined ||
        extra !== undefined ||
        form === "" ||
        canonical === ""
      )
        throw new LexiconError(`${file.name}:${index + 1}: expected "form<TAB>canonical"`);
      const key = form.trim().split(/\s+/u).join(" ");
      const words = key.split(" ").length;
      if (words > 4) throw new LexiconError(`${file.name}:${index + 1}: a form has at most 4 words`);
      maxWords = Math.max(maxWords, words);
      const canonicalWords = canonical.trim().split(/\s+/u);
      if (SPELLING_FILES.has(file.name)) {
        if (!spellings.has(key)) spellings.set(key, canonicalWords);
        noteStart(spellingStarts, key, words);
        return;
      }
      const entry = concepts.get(key) ?? { concepts: [], languages: [] };
      if (!entry.concepts.some((known) => known.join(" ") === canonicalWords.join(" ")))
        entry.concepts.push(canonicalWords);
      if (language !== undefined && !entry.languages.includes(language)) entry.languages.push(language);
      concepts.set(key, entry);
      noteStart(conceptStarts, key, words);
    });
  }
  const hash = createHash("sha256");
  for (const file of files) hash.update(file.name).update("\0").update(file.text).update("\0");
  return { spellings, concepts, maxWords, spellingStarts, conceptStarts, sha256: hash.digest("hex") };
}

/** Reads every `.tsv` file of a lexicon folder (default: the package's data/lexicon), in name order. */
export function loadLexicon(dir: string = dataPath("lexicon")): Lexicon {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".tsv"))
    .sort();
  return parseLexicon(names.map((name) => ({ name, text: readFileSync(join(dir, name), "utf8") })));
}
