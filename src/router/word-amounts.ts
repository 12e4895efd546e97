/**
 * Naira amounts written in words the Hausa, Yoruba and Igbo ways, read from
 * folded text (tone marks and dots removed): "naira dubu goma" (10,000),
 * "egberun meta naira" (3,000), "puku naira ise" (5,000), "otu nde" (1,000,000).
 * Only a multiplier word (thousand, million) with a number word it governs
 * is read; anything this cannot read exactly (Igbo "puku nari ise", compound
 * Yoruba counts) is left alone rather than guessed.
 */

const HAUSA_NUMBERS: Record<string, number> = {
  daya: 1,
  biyu: 2,
  uku: 3,
  hudu: 4,
  biyar: 5,
  shida: 6,
  bakwai: 7,
  takwas: 8,
  tara: 9,
  goma: 10,
  ashirin: 20,
  talatin: 30,
  arbain: 40,
  hamsin: 50,
  sittin: 60,
  saba: 70,
  tamanin: 80,
  casain: 90,
  dari: 100,
};

const YORUBA_NUMBERS: Record<string, number> = {
  kan: 1,
  meji: 2,
  meta: 3,
  merin: 4,
  marun: 5,
  marunun: 5,
  mefa: 6,
  meje: 7,
  mejo: 8,
  mesan: 9,
  mewa: 10,
  mewaa: 10,
  mokanla: 11,
  mejila: 12,
  metala: 13,
  merinla: 14,
  meedogun: 15,
  ogun: 20,
  ogbon: 30,
  aadota: 50,
  ogorun: 100,
};

const IGBO_UNITS: Record<string, number> = {
  otu: 1,
  abuo: 2,
  ato: 3,
  ano: 4,
  ise: 5,
  isii: 6,
  asaa: 7,
  asato: 8,
  itoolu: 9,
  iteghete: 9,
};

const THOUSAND_WORDS: Record<string, number> = {
  dubu: 1e3,
  egberun: 1e3,
  puku: 1e3,
  miliyan: 1e6,
  milionu: 1e6,
  nde: 1e6,
};

/** An Igbo count from `words[at]`: "ise" 5, "iri" 10, "iri ise" 50, "iri na ise" 15. */
function igboCount(words: readonly string[], at: number): { value: number; length: number } | undefined {
  const first = words[at];
  if (first === undefined) return undefined;
  const unit = IGBO_UNITS[first];
  if (unit !== undefined) return { value: unit, length: 1 };
  if (first !== "iri") return undefined;
  const next = words[at + 1];
  if (next === "na") {
    const added = IGBO_UNITS[words[at + 2] ?? ""];
    return added === undefined ? { value: 10, length: 1 } : { value: 10 + added, length: 3 };
  }
  const times = IGBO_UNITS[next ?? ""];
  return times === undefined ? { value: 10, length: 1 } : { value: 10 * times, length: 2 };
}

function count(words: readonly string[], at: number): { value: number; length: number } | undefined {
  const word = (words[at] ?? "").replace(/-/gu, "");
  const single = HAUSA_NUMBERS[word] ?? YORUBA_NUMBERS[word];
  if (single !== undefined) {
    // Hausa "dubu goma da biyar": 15 thousand.
    if (words[at + 1] === "da") {
      const added = HAUSA_NUMBERS[words[at + 2] ?? ""];
      if (added !== undefined) return { value: single + added, length: 3 };
    }
    return { value: single, length: 1 };
  }
  return igboCount(words, at);
}

/** Words that would make a count read here wrong ("puku nari ise" is 500,000): leave those alone. */
const UNREAD_AFTER = new Set(["nari", "ogorun", "dari"]);

export interface WordAmount {
  /** The text with each amount read replaced by `token`. */
  readonly text: string;
  readonly amount?: number;
}

/**
 * The first amount written in words, and the text with every such amount
 * replaced by `token` (space-separated words of folded, lower-cased text in;
 * a message with no multiplier word comes back untouched).
 */
export function extractWordAmounts(folded: string, token: string): WordAmount {
  if (!/\b(?:dubu|egberun|puku|miliyan|milionu|nde)\b/u.test(folded)) return { text: folded };
  // Punctuation apart from words ("goma," "naira."), so it never hides a count; the tokenizer drops it later.
  const words = folded
    .replace(/[^\p{L}\p{N}\s_-]/gu, " $& ")
    .split(/\s+/u)
    .filter((word) => word !== "");
  const out: string[] = [];
  let amount: number | undefined;
  for (let index = 0; index < words.length; ) {
    const word = words[index] as string;
    const multiplier = THOUSAND_WORDS[word];
    if (multiplier === undefined) {
      out.push(word);
      index += 1;
      continue;
    }
    // A count before the multiplier (Igbo "otu puku", "abuo nde") or after it, past an optional "naira".
    let start = index;
    let value: number | undefined;
    let end = index + 1;
    const before = out.length > 0 ? IGBO_UNITS[out[out.length - 1] as string] : undefined;
    const nairaAfter = words[end] === "naira" ? 1 : 0;
    const after = UNREAD_AFTER.has(words[end + nairaAfter] ?? "")
      ? undefined
      : count(words, end + nairaAfter);
    if (after !== undefined && (word !== "nde" || before === undefined)) {
      value = after.value * multiplier;
      end += nairaAfter + after.length;
    } else if (before !== undefined && !UNREAD_AFTER.has(words[end] ?? "")) {
      value = before * multiplier;
      start = index - 1;
      out.pop();
    } else if (nairaAfter === 1 || out.at(-1) === "naira") {
      value = multiplier;
    }
    if (value === undefined || (word === "nde" && after === undefined && before === undefined)) {
      if (start !== index) out.push(words[start] as string);
      out.push(word);
      index += 1;
      continue;
    }
    if (out.at(-1) === "naira") out.pop();
    if (words[end] === "naira") end += 1;
    amount ??= value;
    out.push(token);
    index = end;
  }
  return amount === undefined ? { text: folded } : { text: out.join(" "), amount };
}
