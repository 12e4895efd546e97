import { fnv1a } from "../train/split.js";

/** One INJONGO row (`lang, domain, intent, text`). */
export interface InjongoRow {
  readonly lang: string;
  readonly intent: string;
  readonly text: string;
}

/** INJONGO's three-letter codes as the router's languages. */
export const INJONGO_LANGUAGES: Readonly<Record<string, "ha" | "ig" | "yo">> = {
  hau: "ha",
  ibo: "ig",
  yor: "yo",
};

export function parseInjongoRows(text: string): InjongoRow[] {
  const [header = "", ...lines] = text.split("\n");
  if (header.trim() !== "lang\tdomain\tintent\ttext") throw new Error("not an INJONGO TSV");
  return lines
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [lang = "", , intent = "", utterance = ""] = line.split("\t");
      return { lang, intent, text: utterance };
    });
}

// Template variants differ in a bank, a person or an amount: capitalised words and numbers.
function templateWords(text: string): Set<string> {
  return new Set(
    text
      .replace(/[\p{Lu}][\p{L}\p{M}]*/gu, " ")
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [],
  );
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * True for the rows held out of the language model's training: a fifth of
 * INJONGO's near-duplicate groups (rows of one language and intent whose
 * words, names and numbers aside, overlap by 0.6 or more), chosen by a hash
 * of the group's smallest text, so no template variant of a held-out row is
 * trained on.
 */
export function injongoHeldOut(rows: readonly InjongoRow[]): boolean[] {
  const parent = rows.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] as number;
    return root;
  };
  const words = rows.map((row) => templateWords(row.text));
  for (let i = 0; i < rows.length; i += 1)
    for (let j = i + 1; j < rows.length; j += 1) {
      const a = rows[i] as InjongoRow;
      const b = rows[j] as InjongoRow;
      if (a.lang !== b.lang || a.intent !== b.intent) continue;
      if (jaccard(words[i] as Set<string>, words[j] as Set<string>) < 0.6) continue;
      const rootA = find(i);
      const rootB = find(j);
      if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
    }
  const smallest = new Map<number, string>();
  rows.forEach((row, index) => {
    const root = find(index);
    const known = smallest.get(root);
    if (known === undefined || row.text < known) smallest.set(root, row.text);
  });
  return rows.map((row, index) => fnv1a(`lid:${smallest.get(find(index)) ?? row.text}`) % 5 === 0);
}
